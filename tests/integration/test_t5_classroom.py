"""The bundled classroom T5 ("a small classroom T5, trained here"): loads through the registry, translates held-out
HSK sentences, and is at least as good on a fixed subset of the held-out split as docs/models.md says.

The numbers are scripts/t5_eval.py's on the first SUBSET held-out sentences (assets/t5_classroom/eval_subset.json,
written by `python scripts/t5_eval.py --subset 40 --write assets/t5_classroom/eval_subset.json`); the docs quote
them and the whole split's (eval.json). A retrained model that is worse fails here until docs and files are
measured again.
"""

import json
import sys
from pathlib import Path

import pytest

from playground import models
from playground.registry import get_spec

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
FOLDER = ROOT / "assets" / "t5_classroom"
SUBSET = 40
MARGIN = {"chrf": 1.0, "rate": 0.03}  # greedy decoding in float32 is deterministic here; the margin covers other CPUs


@pytest.fixture(scope="module")
def t5():
    return models.load("t5-classroom")


@pytest.fixture(scope="module")
def measured(t5):
    import t5_eval

    return t5_eval.evaluate(t5.model, t5.tokenizer, t5_eval.held_out(SUBSET))


def stated() -> dict:
    return json.loads((FOLDER / "eval_subset.json").read_text(encoding="utf-8"))


def test_it_is_a_t5_under_20_mb_loaded_through_the_registry(t5):
    spec = get_spec("t5-classroom")
    assert spec.kind == "seq2seq" and spec.label == "a small classroom T5, trained here" and spec.speaks("zh")
    assert type(t5.model).__name__ == "T5ForConditionalGeneration"
    assert t5.model.config.relative_attention_num_buckets > 0 and t5.model.config.model_type == "t5"
    assert t5.model.config._attn_implementation == "eager"  # cross-attention is read
    assert sum(p.stat().st_size for p in FOLDER.iterdir() if p.is_file()) < 20 * 1024 * 1024
    sentinels = t5.tokenizer.convert_tokens_to_ids([f"<extra_id_{i}>" for i in range(20)])
    assert t5.tokenizer.unk_token_id not in sentinels


# A held-out sentence (never trained on) that the committed model translates with its key word. It is an example, not
# the rate: that is the held-out measure below (docs/models.md quotes it, a few per cent of the sentences). A retrained
# model that loses this one needs another example here and in the docs.
KEY_EXAMPLE = ("这本书刚发行。", "书")


def test_a_held_out_chinese_sentence_translates_with_its_key_word(t5):
    import t5_eval
    from train_t5 import translate

    lex = t5_eval.Lexicon.load()
    zh, key = KEY_EXAMPLE
    sentence = next(s for s in t5_eval.held_out() if s.zh == zh)  # held out: never trained on
    assert t5_eval.key_word(sentence, lex) == key
    english = translate(t5.model, t5.tokenizer, ["translate Chinese to English: " + sentence.zh])[0]
    assert t5_eval.matches(lex.glosses(key), english), english
    docs = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    assert f"`{zh}` -> `{english}`" in docs  # the docs show what it writes


def test_held_out_quality_is_what_the_docs_state(measured):
    want = stated()
    assert want["sentences"] == measured["sentences"] == SUBSET
    for direction in ("zh_en", "en_zh"):
        assert measured["chrf"][direction] >= want["chrf"][direction] - MARGIN["chrf"]
        assert measured["key_word"][direction] >= want["key_word"][direction] - MARGIN["rate"]
        assert measured["alignment"][direction]["all_layers"] >= want["alignment"][direction]["all_layers"] - MARGIN["rate"]
    docs = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    for direction in ("zh_en", "en_zh"):
        assert f"{want['chrf'][direction]:.1f}" in docs  # the docs quote the subset's numbers


def test_the_code_panel_script_reproduces_the_view_on_the_bundled_t5(t5):
    """The Code panel's script for an offline Chinese -> English run, executed here: its tokens are the view's output
    tokens and each step's printed cross-attention row is the view's (heads and layers averaged)."""
    import ast
    import contextlib
    import io
    import re

    import numpy as np

    from playground import t5 as t5_views
    from playground.code import code_for
    from playground.runtime import Runtime

    params = dict(text="translate Chinese to English: 我想喝一杯茶。", model="t5-classroom", max_new_tokens=12)
    script = code_for("text_to_text", params).code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(script, "t5.py", "exec"), {"__name__": "__main__"})  # noqa: S102 (our own generated script)
    ids = [int(i) for i in re.findall(r"^step \d+: .* \(id (\d+)\)", out.getvalue(), re.M)]
    rows = [ast.literal_eval(r) for r in re.findall(r"^  cross-attention: (\[.*\])$", out.getvalue(), re.M)]
    view = t5_views.run_text_to_text(t5_views.TextToTextRequest(**params), Runtime(load=lambda key, **_: t5))
    assert ids == list(view.output_ids) and len(rows) == len(view.steps) > 0
    for row, step in zip(rows, view.steps):
        assert np.allclose(row, step.cross.mean(axis=(0, 1)), atol=2e-4)  # the script rounds to 4 decimals


def test_the_lessons_example_translates_and_its_tea_step_looks_at_tea(t5):
    """The lessons' offline link (a training sentence, and its note says so): the bundled T5 writes the reference,
    and the step that writes "tea" looks most at 茶 (cross-attention, every layer and head averaged), the step a
    student follows from the source to the new token (docs/models.md)."""
    from playground import t5 as t5_views
    from playground.lessons import T5_ZH_EN
    from playground.runtime import Runtime

    view = t5_views.run_text_to_text(
        t5_views.TextToTextRequest(text=T5_ZH_EN, model="t5-classroom", max_new_tokens=16), Runtime(load=lambda key, **_: t5)
    )
    assert t5.tokenizer.decode(view.output_ids, skip_special_tokens=True) == "I want to drink a cup of tea."
    tea = next(step for step in view.steps if step.token == "▁tea")
    assert view.source_tokens[int(tea.cross.mean(axis=(0, 1)).argmax())] == "茶"


def test_the_masking_tabs_t5_objective_uses_the_bundled_t5s_sentinels_and_shows_what_it_writes(t5):
    """Issue 33, item 6 offline: span corruption drawn with the classroom T5's own `<extra_id_k>`, and each sentinel
    shows what the model wrote for it: its greedy answer to the corrupted ids, split at its sentinels."""
    import torch

    from playground.masking.objectives import run_masking
    from playground.masking.results import MaskingRequest
    from playground.runtime import Runtime

    runtime = Runtime(load=lambda key, **_: t5, load_tokenizer=lambda key: t5.tokenizer)
    run = run_masking(MaskingRequest("我想喝一杯茶。我喜欢吃米饭和菜。", "t5-classroom", "t5", seed=3), runtime)
    d = run.details
    assert d["sentinels_real"] and d["spans"] >= 1 and len(d["filled"]) == d["spans"]
    assert all(s in t5.tokenizer.get_vocab() for s in d["sentinels"])  # the model's own sentinel tokens
    ids = t5.tokenizer.convert_tokens_to_ids(run.corrupted)
    with torch.no_grad():
        out = t5.model.generate(input_ids=torch.tensor([ids]), max_new_tokens=4 * len(ids) + 8, do_sample=False)[0]
    written = t5.tokenizer.decode(out, skip_special_tokens=False).replace(" ", "")
    for f in d["filled"]:
        assert f["filled"].replace(" ", "") in written
