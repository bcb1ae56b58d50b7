"""Write docs/api-schema.md from the running app: every public endpoint's parameters (from /gradio_api/info) and
every field its documented example returns (one real call each).

    python scripts/api_docs.py                 # starts the app offline, rewrites docs/api-schema.md
    python scripts/api_docs.py --url URL       # uses an app already running at URL
    python scripts/api_docs.py --check         # compares only; exit 1 when the page is stale

tests/e2e/test_api_docs.py runs the same functions against the e2e tier's app: the committed page must equal what
this writes now, and every field a real call returns must be on it. A new endpoint needs its example in EXAMPLES.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "api-schema.md"

BANK = "\n".join(
    [
        "money | I paid at the bank.",
        "money | The bank lent us money.",
        "river | We sat on the river bank.",
        "river | The bank was muddy.",
    ]
)
# The documented example of every public endpoint: keyword arguments for gradio_client's predict, all offline models.
EXAMPLES: dict[str, dict[str, Any]] = {
    "/fill_mask": {"text": "The capital of France is [MASK].", "models": ["minilm-mlm", "smollm2-instruct"], "top_k": 3},
    "/polysemy": {"word": "bank", "sentences": BANK, "models": ["minilm", "glove"], "input_embeddings": True},
    "/elmo_vectors": {"word": "bank", "sentences": "river | the bank of the river\nmoney | money in the bank", "s2": 2.0},
    "/elmo_bilm": {"sentence": "the bank of the river", "top_k": 3},
    "/elmo_oov": {"words": "playgroundy transformr"},
    "/masking": {"text": "The unbelievable tokenizer splits words.", "model": "minilm", "strategy": "bert", "draws": 200},
    "/next_token": {"prompt": "The future of AI is", "model": "smollm2-instruct", "temperatures": [0.1, 0.8, 1.5]},
    "/generate": {"prompt": "The future of AI is", "model": "smollm2-instruct", "max_new_tokens": 4, "n_samples": 2},
    "/attention": {"model": "minilm", "text": "The cat sat on the mat.", "layer": 2, "head": 1},
    "/forward": {"model": "minilm-mlm", "text": "The capital of France is [MASK].", "top_k": 3},
    "/insight_lens": {"text": "The capital of France is [MASK].", "model": "minilm-mlm", "top_k": 3},
    "/insight_attribution": {"text": "我爱北京天安", "model": "gpt-zh", "layer": -1, "head": 0, "steps": 16},
    "/insight_knockout": {"text": "The capital of France is [MASK].", "model": "minilm-mlm", "heads": "3.0, 5"},
    "/insight_patching": {"text": "我爱北京天安", "model": "gpt-zh", "source": "我爱上海天安", "layer": 1},
    "/text_to_text": {"text": "translate Chinese to English: 我喜欢吃米饭。", "model": "t5-classroom", "max_new_tokens": 8},
    "/insight_probes": {"model": "elmo-small", "data": "en"},
    "/inside_embeddings": {"text_a": "The cat sat.", "text_b": "It was tired."},
    "/inside_params": {"base": "bert-base", "embedding_size": 128, "share_layers": True},
    "/inside_nsp": {"text": "The cat sat on the mat. It was tired. Then it slept. The sun went down.", "seed": 0},
    "/inside_heads": {"source": "bert-base"},
    "/mlm_lab_train": {"use_sample": True, "max_steps": 2, "max_seconds": 60},
    "/code": {"view": "fill_mask", "request": '{"text": "The capital of France is [MASK].", "models": ["minilm-mlm"]}'},
    "/lesson_notebook": {"lesson": "mlm", "lang": "en"},
    "/warmup": {},  # the teacher's warm-up: the lessons' default views once (slow the first time)
    # A live class, in the order a script runs it: the code, student id and teacher token shown are placeholders that
    # the real calls take from the calls before (CHAINED).
    "/class_start": {"activity": "fill_blank", "text": "The capital of France is [MASK].", "model": "minilm-mlm"},
    "/class_join": {"code": "7KQ2ZP", "nickname": "ann"},
    "/class_answer": {"code": "7KQ2ZP", "student": "<student from /class_join>", "answer": "paris"},
    "/class_control": {"code": "7KQ2ZP", "teacher": "<teacher from /class_start>", "action": "reveal"},
    "/class_tally": {"code": "7KQ2ZP"},
}
# endpoint -> {parameter: (an earlier endpoint, the field of its answer)}; these run one after another, in this order.
CHAINED: dict[str, dict[str, tuple[str, str]]] = {
    "/class_start": {},
    "/class_join": {"code": ("/class_start", "code")},
    "/class_answer": {"code": ("/class_start", "code"), "student": ("/class_join", "student")},
    "/class_control": {"code": ("/class_start", "code"), "teacher": ("/class_start", "teacher")},
    "/class_tally": {"code": ("/class_start", "code")},
}


def fetch_info(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url.rstrip("/") + "/gradio_api/info", timeout=30) as response:
        return json.load(response)


def public_endpoints(info: dict[str, Any]) -> dict[str, Any]:
    return {name: e for name, e in info["named_endpoints"].items() if e.get("api_visibility", "public") == "public"}


def call_examples(url: str, names: list[str]) -> dict[str, Any]:
    """One real call of each endpoint's documented example; a streaming endpoint gives its final message. The calls are
    submitted at once (the app runs different endpoints side by side): the MLM lab's example starts its training
    worker, ~10 s that the other sixteen calls no longer wait behind (18 s -> 13 s here)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # gradio_client would otherwise contact the hub
    from gradio_client import Client

    client = Client(url, verbose=False)
    missing = sorted(set(names) - set(EXAMPLES))
    if missing:
        raise SystemExit(f"no documented example for {missing}: add one to EXAMPLES in scripts/api_docs.py")
    runnable = [name for name in names if not unavailable(name)]
    jobs = {name: client.submit(**EXAMPLES[name], api_name=name) for name in runnable if name not in CHAINED}
    outputs = {name: job.result() for name, job in jobs.items()}
    for name, takes in CHAINED.items():
        if name in runnable:
            filled = {param: outputs[source][field] for param, (source, field) in takes.items()}
            outputs[name] = client.predict(**{**EXAMPLES[name], **filled}, api_name=name)
    return {name: outputs.get(name) for name in names}


def unavailable(name: str) -> str:
    """Why the endpoint's example cannot run on this offline app ("" when it can): its model's availability reason.
    (An example whose model is missing from a checkout, e.g. the classroom T5 before its weights were committed, has
    its fields documented in api.md only; its table here comes back with the model.)"""
    model = EXAMPLES[name].get("model")
    if not isinstance(model, str) or not model:
        return ""
    if str(ROOT) not in sys.path:  # run as `python scripts/api_docs.py`: the app's package beside it
        sys.path.insert(0, str(ROOT))
    from playground import availability
    from playground.registry import get_spec

    state = availability.check(get_spec(model))
    return "" if state.ok else f"{model}: {state.reason}"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def field_types(value: Any, path: str = "", out: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Every field path in a JSON value (`a.b`, `list[]`) with the JSON types seen there, over all list items."""
    out = {} if out is None else out
    if path:
        out.setdefault(path, set()).add(_kind(value))
    if isinstance(value, dict):
        for key, item in value.items():
            field_types(item, f"{path}.{key}" if path else str(key), out)
    elif isinstance(value, list):
        for item in value:
            field_types(item, f"{path}[]" if path else "[]", out)
    return out


def _python(code: str) -> str:
    """`code` as `ruff format` writes it (the linter formats Python blocks in Markdown too, so the page stays stable)."""
    try:
        done = subprocess.run(
            ["ruff", "format", "--stdin-filename", "example.py", "-"], input=code, capture_output=True, text=True, cwd=ROOT
        )
    except FileNotFoundError:  # ruff is a dev tool (requirements-dev.txt); without it the block is left as written
        return code
    return done.stdout if done.returncode == 0 else code


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(info: dict[str, Any], outputs: dict[str, Any]) -> str:
    lines = [
        "# API schema",
        "",
        "Generated by `scripts/api_docs.py` from the running app: each public endpoint's parameters as the app",
        "declares them (`/gradio_api/info`), its documented example, and every field that example returns (one real",
        "call, offline models). `tests/e2e/test_api_docs.py` fails when this page and the app disagree. What the",
        "parameters and fields mean, and the limits on them: [API reference](api.md), [Limits](limits.md).",
        "",
        'From Python: `os.environ["HF_HUB_OFFLINE"] = "1"`, then `client = gradio_client.Client("http://127.0.0.1:7860/")`.',
    ]
    for name, endpoint in public_endpoints(info).items():
        lines += ["", f"## `{name}`", ""]
        if endpoint.get("description"):
            lines += [_cell(endpoint["description"]), ""]
        lines += ["| parameter | type | default |", "|---|---|---|"]
        for p in endpoint["parameters"]:
            default = json.dumps(p["parameter_default"], ensure_ascii=False) if p["parameter_has_default"] else "required"
            lines.append(f"| `{p['parameter_name']}` | `{_cell(p['python_type']['type'])}` | `{_cell(default)}` |")
        args = [f"{k}={v!r}" for k, v in EXAMPLES[name].items()] + [f'api_name="{name}"']  # none: no stray comma
        code = _python(f"client.predict({', '.join(args)})\n").rstrip("\n")
        lines += ["", "Example:", "", "```python", code, "```", ""]
        if outputs[name] is None:
            lines += [f"Not run offline here ({_cell(unavailable(name))}): the fields are in [API reference](api.md)."]
            continue
        lines += ["| field it returns | JSON type |", "|---|---|"]
        for path, kinds in sorted(field_types(outputs[name]).items()):
            lines.append(f"| `{path}` | {' or '.join(sorted(kinds))} |")
    return "\n".join(lines) + "\n"


def documented_fields(page: str) -> dict[str, set[str]]:
    """Endpoint -> the field paths its table on `page` lists (what the test checks a real call against)."""
    out: dict[str, set[str]] = {}
    current = None
    for line in page.splitlines():
        if line.startswith("## `/"):
            current = line[4:-1]
            out[current] = set()
        elif current and line.startswith("| `") and line.count("|") == 3 and "|---" not in line:
            out[current].add(line.split("`")[1])
    return out


def generate(url: str) -> tuple[str, dict[str, Any]]:
    info = fetch_info(url)
    outputs = call_examples(url, list(public_endpoints(info)))
    return render(info, outputs), outputs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="an app already running (default: start one offline)")
    parser.add_argument("--check", action="store_true", help="compare only: exit 1 when docs/api-schema.md is stale")
    args = parser.parse_args()
    if args.url:
        page, _ = generate(args.url)
    else:
        sys.path.insert(0, str(ROOT / "scripts"))
        from serve_app import serve

        with serve() as url:
            page, _ = generate(url)
    if args.check:
        same = PAGE.exists() and PAGE.read_text(encoding="utf-8") == page
        print("docs/api-schema.md is up to date" if same else "docs/api-schema.md is stale: run scripts/api_docs.py")
        return 0 if same else 1
    PAGE.write_text(page, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
