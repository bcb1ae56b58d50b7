"""The /code contract: every view gives a script that parses, user text stays a string literal, bad requests are refused
in words, defaults are the endpoint's, and a snippet that needs the hub says so (execution: tests/integration)."""

from __future__ import annotations

import ast
import json

import pytest

from playground.errors import InputError
from playground.code import code_for, views

TEXT = 'He said "hi"; import os\n""" {x} \\ [MASK] ok'
REQUESTS = {
    "fill_mask": {"text": TEXT, "models": ["minilm-mlm", "bert", "smollm2-instruct"]},
    "polysemy": {"word": "bank", "sentences": 'a | the bank "x"\nb | a bank {y}', "models": ["minilm", "glove", "gpt2"]},
    "masking": {"text": TEXT},
    "next_token": {"prompt": TEXT, "temperatures": [0, 1, 1.5], "top_k": 5, "top_p": 0.5},
    "generate": {"prompt": TEXT, "temperature": 0, "n_samples": 2},
    "compare": {"prompt": TEXT},
    "step": {"prompt": TEXT, "model": "gpt2"},
    "attention": {"model": "minilm", "text": TEXT, "text_b": "B {z}"},
    "inside_embeddings": {"text_a": TEXT, "text_b": "B {z}", "model": "minilm"},
    "inside_params": {"base": "roberta-base", "embedding_size": 64, "share_layers": "ffn"},
    "inside_nsp": {"text": TEXT + '. It "ends". Then {more}.', "seed": 2},
    "inside_heads": {"source": "albert-base"},
    "elmo_vectors": {"word": "bank", "sentences": 'a | the bank "x"\nb | a bank {y} """', "s2": 1.5},
    "elmo_bilm": {"sentence": TEXT, "top_k": 2},
    "elmo_oov": {"words": TEXT},
    "mlm_lab": {"use_sample": True, "corpus_file": 'my "corpus" {x}.txt'},
    "forward_block": {"model": "minilm", "text": TEXT, "layer": 2},
    "insight_lens": {"model": "minilm-mlm", "text": TEXT, "top_k": 3},
    "insight_attribution": {"model": "gpt2", "text": TEXT, "layer": 1, "head": 2, "steps": 8},
    "insight_knockout": {"model": "smollm2-instruct", "text": TEXT, "heads": "1.2, 3"},
    "insight_patching": {"model": "minilm-mlm", "text": TEXT, "source": 'A "x" {y}', "layer": 1},
    "text_to_text": {"model": "t5-small", "text": TEXT, "temperature": 0.7, "top_k": 5, "seed": 2},
    "insight_probes": {"model": "e5-small", "data": "zh"},  # fixed data: no user text to keep a string
}


def _request(view: str) -> dict:
    if view in REQUESTS:
        return REQUESTS[view]
    if view.startswith("masking_"):
        return {"text": TEXT, "model": "bert"}
    return {"model": "minilm", "text": TEXT, "other": "minilm-mlm"}


@pytest.mark.parametrize("view", sorted(views()))
def test_every_view_gives_a_script_that_parses_with_user_text_as_data(view):
    snippet = code_for(view, json.dumps(_request(view)))
    tree = ast.parse(snippet.code)
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert "os" not in imported  # the "import os" inside the text stayed inside a string
    strings = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    asked = _request(view)
    shown = asked.get("text") or asked.get("prompt") or asked.get("text_a") or asked.get("sentence") or asked.get("words")
    if shown:
        assert any(shown.replace("[mask]", "[MASK]") in s for s in strings), "the user's text is one string literal"
    top = "\n".join(snippet.code.splitlines()[:2])
    assert "Transformer Playground" in top and "游乐场" in top  # what it reproduces, in both languages


def test_bundled_models_run_offline_and_hub_models_say_they_need_the_hub():
    bundled = code_for("fill_mask", {"text": "a [MASK].", "models": ["minilm-mlm"]})
    assert bundled.runs_offline and 'load("minilm-mlm")' in bundled.code
    assert "sentence-transformers/all-MiniLM-L6-v2" in bundled.code  # the hub id a student would use online
    hub = code_for("fill_mask", {"text": "a [MASK].", "models": ["bert"]})
    assert not hub.runs_offline and "needs the Hugging Face Hub" in hub.code
    assert 'from_pretrained("google-bert/bert-base-uncased")' in hub.code
    assert 'pipeline("fill-mask"' in hub.code and "top_k=5" in hub.code  # the endpoint's default top-k


def test_omitted_parameters_take_the_endpoint_defaults():
    from playground.fill_mask import default_models

    code = code_for("fill_mask", '{"text": "a [MASK]."}').code
    assert all(f'"{key}"' in code or f"'{key}'" in code for key in default_models())
    masking = code_for("masking", '{"text": "a b c"}').code
    assert "mlm_probability=0.15, mask_replace_prob=0.8, random_replace_prob=0.1" in masking and "seed=0" in masking
    sampling = code_for("generate", '{"prompt": "x"}').code
    assert "TemperatureLogitsWarper(0.8)" in sampling and "max_new_tokens=40" in sampling


def test_the_warper_chain_is_the_one_generate_builds():
    code = code_for("next_token", {"prompt": "x", "temperatures": [1, 0.5], "top_k": 0, "top_p": 0.9}).code
    assert "LogitsProcessorList([TopPLogitsWarper(0.9)])" in code  # temperature 1 and top-k 0 are skipped, as generate does
    assert "LogitsProcessorList([TemperatureLogitsWarper(0.5), TopPLogitsWarper(0.9)])" in code
    assert "greedy" in code_for("next_token", {"prompt": "x", "temperature": 0}).code


@pytest.mark.parametrize(
    ("view", "request_text", "code"),
    [
        ("nope", "{}", "input_not_choice"),
        (None, "{}", "input_not_choice"),
        ("fill_mask", "{not json", "code_request_json"),
        ("fill_mask", "[1, 2]", "code_request_type"),
        ("fill_mask", 42, "input_not_text"),
        ("fill_mask", '{"text": "a [MASK]", "colour": 1}', "code_request_fields"),
        ("fill_mask", '{"text": "no blank here"}', "no_mask"),
        ("masking", '{"text": "a b", "model": "not-a-model"}', "unknown_model"),
        ("next_token", '{"prompt": "x", "model": "minilm"}', "input_model_kind"),
        ("generate", '{"prompt": "x", "temperature": 9}', "input_not_number"),
        ("attention_head", '{"model": "minilm", "text": "  "}', "attention_empty_text"),
        ("fill_mask", "x" * 100_001, "input_text_too_long"),
        ("elmo_vectors", '{"word": "two words", "sentences": "a\\nb"}', "elmo_one_word"),
        ("elmo_oov", '{"words": "x", "model": "minilm"}', "input_model_kind"),
        ("elmo_bilm", '{"sentence": "x", "top_k": 0}', "input_not_whole"),
        ("inside_params", '{"share_layers": "half"}', "input_not_choice"),
        ("inside_heads", '{"source": "gpt-9"}', "input_not_choice"),
        ("inside_nsp", '{"text": "One sentence only"}', "nsp_one_sentence"),
    ],
)
def test_bad_requests_are_refused_with_a_clear_message(view, request_text, code):
    with pytest.raises(InputError) as refused:
        code_for(view, request_text)
    assert refused.value.code == code
    assert "Traceback" not in str(refused.value)


def test_the_api_refuses_in_the_users_language():
    gr = pytest.importorskip("gradio")
    from playground.ui.common.code_panel import code_api

    with pytest.raises(gr.Error) as refused:
        code_api("nope", "{}", "zh")
    assert "view 必须是以下之一" in str(refused.value)  # the checks' one wording for a choice, in Chinese
    assert code_api("masking", '{"text": "a b c"}')["runs_offline"] is True


def test_elmo_and_inside_scripts_say_what_they_stand_for():
    elmo = code_for("elmo_vectors", {"word": "bank", "sentences": "a | the bank\nb | a bank"}).code
    assert 'load("elmo-small")' in elmo and "AllenNLP" in elmo and "allennlp" in elmo  # the equivalent, named
    # the page's names: the sliders are the raw scores w, the weights s = softmax(w) (never "softmax(s)")
    assert "s = softmax(w)" in elmo and "softmax(s)" not in elmo and "gamma" in elmo
    params = code_for("inside_params", {"base": "bert-base", "embedding_size": 96, "share_layers": "all"})
    assert params.runs_offline and 'torch.device("meta")' in params.code and "'embedding_size': 96" in params.code
    heads = code_for("inside_heads", {}).code
    assert ".from_config(config)" in heads and "AutoModelForQuestionAnswering" in heads
    nsp = code_for("inside_nsp", {"text": "A cat sat. It slept."})
    assert nsp.runs_offline and "BertForNextSentencePrediction" in nsp.code  # online, named in a comment
    assert "token_type_ids" in nsp.code and "text, seed, budget = 'A cat sat. It slept.', 0, 32" in nsp.code


# -- scripts run where the student saves them (issue 37, item 10) ---------------------------------------------------
ROOT = __import__("pathlib").Path(__file__).resolve().parents[3]


def _run_outside(tmp_path, code: str, **env: str):
    """`code` saved in a folder outside the repository and run there as a student would: no PYTHONPATH, a home of its
    own (no ~/transformer-playground), offline."""
    import os
    import subprocess
    import sys

    (tmp_path / "home").mkdir(exist_ok=True)
    script = tmp_path / "take_home.py"
    script.write_text(code, encoding="utf-8")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PLAYGROUND_HOME")}
    full = clean | {"HOME": str(tmp_path / "home"), "HF_HUB_OFFLINE": "1"} | env
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=full, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("view", sorted(views()))
def test_every_script_that_uses_the_playground_first_finds_its_folder(view):
    code = code_for(view, json.dumps(_request(view))).code
    if "from playground" not in code and "assets/" not in code:
        return
    lines = code.splitlines()
    first = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    assert "PLAYGROUND_HOME" in "\n".join(lines[: first + 20]) and "sys.path.insert(0, str(PLAYGROUND))" in code
    assert code.index("sys.path.insert(0, str(PLAYGROUND))") < code.index("from playground")
    assert "'assets/" not in code.replace("PLAYGROUND / 'assets/", "")  # a bundled file is read from that folder


def test_a_script_saved_outside_the_repository_runs_with_playground_home_and_says_how_without(tmp_path):
    """The masking script (a bundled tokenizer, no weights: quick) from a temporary folder: with PLAYGROUND_HOME it
    prints what it prints in the repository; without it, it stops at once saying how to get the playground, not
    with `No module named 'playground'`."""
    code = code_for("masking", json.dumps({"text": "The cat sat on the mat.", "model": "minilm"})).code
    ran = _run_outside(tmp_path, code, PLAYGROUND_HOME=str(ROOT))
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.strip()
    lost = _run_outside(tmp_path, code)
    assert lost.returncode == 1 and "needs the Transformer Playground" in lost.stderr and "PLAYGROUND_HOME" in lost.stderr
    assert "No module named" not in lost.stderr


def test_exercise_5s_script_reads_its_corpus_from_the_playground_wherever_it_is_saved(tmp_path):
    """The lab's Trainer script up to the point where it has read and split the bundled sample (its training is the
    notebooks tier's): the corpus path was relative to the repository."""
    code = code_for("mlm_lab", json.dumps({"use_sample": True, "max_steps": 20})).code
    head = code[: code.index("from playground.models import load")]
    ran = _run_outside(tmp_path, head, PLAYGROUND_HOME=str(ROOT))
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert "training sentences" in ran.stdout and "held out" in ran.stdout
