"""Code you can take home: the pieces every view's snippet is written with (the `/code` table is playground.code).

Each demo's `code.py` turns the request its backend ran into a short script written the way the
course writes it (AutoTokenizer, AutoModelFor..., pipeline, output_hidden_states, the logits
warpers, DataCollatorForLanguageModeling) that prints the numbers the view shows. A bundled model
is loaded as the playground loads it (`playground.models.load`) with a comment naming its hub id;
a hub model is loaded by its hub id with a comment saying it needs the hub. Comments come in both
languages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from playground.registry import LAB_MODEL_KEY, ModelSpec, get_spec


@dataclass(frozen=True)
class Snippet:
    code: str
    runs_offline: bool  # every model it loads ships with the playground (no hub needed)

    def to_dict(self) -> dict:
        return {"code": self.code, "runs_offline": self.runs_offline}


def comment(en: str, zh: str, indent: str = "") -> str:
    """A comment in both languages (the page's two): one line when short, else one line each (`indent`: inside
    a block, the second line is indented as the first)."""
    one = f"# {en} · {zh}"
    return indent + one if len(indent + one) <= 100 else f"{indent}# {en}\n{indent}# {zh}"


def header(en: str, zh: str, *imports: str) -> list[str]:
    """The script's first lines: what it reproduces, then its imports."""
    return [comment(f"Transformer Playground: {en}", f"Transformer 游乐场：{zh}"), *imports, ""]


def spec_of(key: str) -> ModelSpec | None:
    """The registry spec of `key`, or None for this session's own lab model."""
    return None if key == LAB_MODEL_KEY else get_spec(key)


def offline(keys: list[str] | tuple[str, ...]) -> bool:
    """Whether a snippet loading these models runs with no hub (bundled ones, or the lab model's downloaded folder)."""
    return all(key == LAB_MODEL_KEY or get_spec(key).source == "bundled" for key in keys)


# What an overlay (weights trained here, over a bundled base) adds, by the model's kind.
TRAINED_HERE = {
    "masked": (" (its MLM head was trained here)", "（MLM 头在本项目训练）"),
    "nsp": (" (its next-sentence head was trained here, not BERT's)", "（下一句预测头在本项目训练，不是 BERT 的）"),
}


def load_model(key: str, auto: str, var: str = "model", tok: str = "tokenizer", eager: bool = False) -> list[str]:
    """Lines that leave model `key` in `var` (eval mode) and its tokenizer in `tok`, the way this playground has it.

    `auto`: the transformers Auto class a student would call (AutoModelForMaskedLM, ...); `eager`: the model's
    attention weights are read (SDPA kernels return none).
    """
    options = ', attn_implementation="eager"' if eager else ""
    if key == LAB_MODEL_KEY:
        return [
            comment(
                "your MLM lab model: the folder inside the zip the lab's download gives you",
                "你在 MLM 实验室训练的模型：实验室下载的 zip 里的文件夹",
            ),
            f'{tok} = AutoTokenizer.from_pretrained("your-lab-model")',
            f'{var} = {auto}.from_pretrained("your-lab-model"{options}).eval()',
        ]
    spec = get_spec(key)
    if spec.source == "bundled":
        hub_id = spec.hf_id.split(" + ")[0]
        trained = TRAINED_HERE.get(spec.kind, TRAINED_HERE["masked"]) if spec.overlay else ("", "")
        return [
            comment(
                f"bundled with the playground (its folder: see the top); hub id: {hub_id}{trained[0]}",
                f"游乐场自带的模型（其目录见开头）；Hub id：{hub_id}{trained[1]}",
            ),
            "from playground.models import load",
            f'_lm = load("{key}")  # {auto}, eager attention, {spec.label}',
            f"{var}, {tok} = _lm.model, _lm.tokenizer",
        ]
    return [
        comment(
            f"needs the Hugging Face Hub (or its local cache): {spec.label}",
            f"需要访问 Hugging Face Hub（或本地缓存）：{spec.label}",
        ),
        f'{tok} = AutoTokenizer.from_pretrained("{spec.hf_id}")',
        f'{var} = {auto}.from_pretrained("{spec.hf_id}"{options}).eval()',
    ]


def py(value: Any) -> str:
    """A Python literal for `value` (text stays text: never code)."""
    return repr(value)


def join(lines: list[str]) -> str:
    return "\n".join(lines).rstrip() + "\n"


# Where a script finds the playground, wherever the student put the script (issue 37, item 10: a script or notebook
# run outside the repository stopped at `No module named 'playground'`, and exercise 5's at its corpus path). The
# folder: PLAYGROUND_HOME, else the current folder or ~/transformer-playground when it holds the playground, else an
# importable `playground`; none: the script stops at once saying how to get and install it. Machine-independent on
# purpose: the same export on every server (docs/examples is compared with a fresh one), no server path in it.
CLONE = "https://huggingface.co/spaces/transformer-playground/transformer-playground"
HOME_VARIABLE = "PLAYGROUND_HOME"  # read by the student's script, never by the app (not a setting)
FIND_PLAYGROUND = [
    comment(
        "Needs the Transformer Playground's folder (its code, bundled models and data): set PLAYGROUND_HOME to it",
        "需要 Transformer 游乐场的目录（代码、内置模型和数据）：把 PLAYGROUND_HOME 设为该目录",
    ),
    "import importlib.util",
    "import sys",
    "from os import environ",
    "from pathlib import Path",
    "",
    f'_places = [Path(p).expanduser() for p in (environ.get("{HOME_VARIABLE}", ""), ".", "~/transformer-playground") if p]',
    '_found = [p.resolve() for p in _places if (p / "playground" / "models.py").is_file()]',
    '_spec = None if _found else importlib.util.find_spec("playground")',
    "PLAYGROUND = _found[0] if _found else Path(_spec.origin).parents[1] if _spec and _spec.origin else None",
    "if PLAYGROUND is None:",
    "    sys.exit(",
    f'        "This script needs the Transformer Playground: git clone {CLONE} ; "',
    '        "in that folder run bash scripts/install.sh ; then run this with PLAYGROUND_HOME=<that folder>. · "',
    '        "此脚本需要 Transformer 游乐场：git clone 上述地址；在该目录中运行 bash scripts/install.sh；"',
    '        "然后设置 PLAYGROUND_HOME=<该目录> 再运行。"',
    "    )",
    "sys.path.insert(0, str(PLAYGROUND))",
    "",
]
_NEEDS_PLAYGROUND = re.compile(r"^\s*(from playground[\s.]|import playground\b)|'assets/", re.M)
_BUNDLED_FILE = re.compile(r"= '(assets/[^'\\]*)'")


def anywhere(snippet: Snippet) -> Snippet:
    """`snippet` made to run wherever it is saved: when it imports the playground or reads one of its files, the
    lines that find the playground's folder come right after its title, and a bundled file (`'assets/...'`) is read
    from that folder."""
    if not _NEEDS_PLAYGROUND.search(snippet.code):
        return snippet
    lines = snippet.code.split("\n")
    title = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    body = _BUNDLED_FILE.sub(lambda m: f"= str(PLAYGROUND / {m.group(1)!r})", "\n".join(lines[title:]))
    return replace(snippet, code=join([*lines[:title], *FIND_PLAYGROUND, body]))
