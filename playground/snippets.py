"""Code you can take home: the pieces every view's snippet is written with, and the `/code` table of views.

Each demo's `code.py` turns the request its backend ran into a short script written the way the
course writes it (AutoTokenizer, AutoModelFor..., pipeline, output_hidden_states, the logits
warpers, DataCollatorForLanguageModeling) that prints the numbers the view shows. A bundled model
is loaded as the playground loads it (`playground.models.load`) with a comment naming its hub id;
a hub model is loaded by its hub id with a comment saying it needs the hub. Comments come in both
languages. `code_for(view, request_json)` is the `/code` API; the views are rows of `VIEWS`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from playground import checks
from playground.errors import InputError
from playground.registry import LAB_MODEL_KEY, ModelSpec, get_spec

MAX_REQUEST_CHARS = 100_000  # a request's JSON text; longer is refused before parsing


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
                f"bundled with the playground (run this from its folder); hub id: {hub_id}{trained[0]}",
                f"游乐场自带的模型（在游乐场目录下运行）；Hub id：{hub_id}{trained[1]}",
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


# view name -> (request from the endpoint's JSON parameters, snippet of that request). Filled by `views()`.
View = tuple[Callable[[dict], Any], Callable[[Any], Snippet]]


def views() -> dict[str, View]:
    """Every view that has a snippet: the endpoint names (elmo_vectors, elmo_bilm, elmo_oov, inside_embeddings,
    inside_params, inside_nsp, inside_heads, ...), plus documented sub-views (compare, step, attention_<view>,
    masking_<objective>)."""
    from playground.attention import code as attention_code
    from playground.elmo import code as elmo_code
    from playground.fill_mask import code as fill_mask_code
    from playground.inside import code as inside_code
    from playground.masking import code as masking_code
    from playground.mlm_lab import code as mlm_lab_code
    from playground.polysemy import code as polysemy_code
    from playground.sampling import code as sampling_code

    table: dict[str, View] = {}
    for module in (
        fill_mask_code,
        polysemy_code,
        masking_code,
        sampling_code,
        attention_code,
        inside_code,
        elmo_code,
        mlm_lab_code,
    ):
        table.update(module.VIEWS)
    return table


def parse_request(request: Any) -> dict:
    """The `request` argument of /code: a JSON object as text (or already a dict); empty means all defaults."""
    if isinstance(request, dict):
        return request
    if request is None or (isinstance(request, str) and not request.strip()):
        return {}
    request = checks.text(request, "request", MAX_REQUEST_CHARS)  # the checks' wordings: not text, too long, surrogates
    try:
        parsed = json.loads(request)
    except json.JSONDecodeError as error:
        raise InputError("code_request_json", "request is not valid JSON ({why}).", why=error.msg) from None
    if not isinstance(parsed, dict):
        raise InputError("code_request_type", "request must be a JSON object given as text.")
    return parsed


def code_for(view: Any, request: Any = None) -> Snippet:
    """The `/code` API: the snippet that reproduces `view` for `request` (that endpoint's parameters, defaults filled)."""
    table = views()
    checks.choice(view, "view", table)  # the value is never echoed
    make_request, generate = table[view]
    params = parse_request(request)
    params.pop("lang", None)  # the page's language: every snippet carries both
    try:
        built = make_request(params)
    except TypeError as error:  # an unknown or missing parameter name
        raise InputError("code_request_fields", "request does not fit /{view}: {why}.", view=view, why=str(error)[:200]) from None
    return generate(built)
