"""Fill-mask on trust: unknown tokens said out loud, every value type-checked, tokens shown as written, Chinese view."""

from __future__ import annotations

import math
import re

import gradio as gr
import pytest

from playground.errors import InputError
from playground.runtime import Runtime
from playground.fill_mask import FillMaskRequest, FillMaskRun, ModelFill, Note, run_fill_mask
from playground.fill_mask.data import Prediction, Reading
from playground.registry import get_spec
from playground.ui.fill_mask import render
from playground.ui.fill_mask import tab as fill_mask_tab


@pytest.fixture
def counted(tiny_mlm, tiny_clm):
    calls = []
    tiny = {"bert": tiny_mlm, "gpt2": tiny_clm}

    def load(key):
        calls.append(key)
        return tiny[key]

    load.calls = calls
    load.runtime = Runtime(load=load)  # this test's own caches
    return load


# ---- (2) unknown tokens ------------------------------------------------------------------------------------------


def test_pieces_the_model_reads_as_unknown_are_named_first(counted):
    run = run_fill_mask(FillMaskRequest("我在🙂行[MASK]钱。", ("bert",), 2), counted.runtime)
    (note, *_) = run.notes
    assert note.code == "unknown" and note.params["pieces"] == ["🙂"] and note.params["n"] == 1
    assert note.params["total"] == run.fills[0].tokens > 1 and run.fills[0].unknown == ("🙂",)
    info = render.info(run, "zh")
    assert info.splitlines()[0].startswith("- ⚠️ **") and "🙂" in info.splitlines()[0] and "未知词元" in info


def test_a_text_the_model_cannot_read_at_all_says_so(counted):
    run = run_fill_mask(FillMaskRequest("🙂🙃 [MASK] 😀", ("bert",), 2), counted.runtime)
    assert run.notes[0].code == "all_unknown" and run.notes[0].params["pieces"] == [
        "🙂🙃",
        "😀",
    ]  # WordPiece: one word, one [UNK]
    assert "cannot read any of this text" in render.info(run, "en")


def test_a_model_that_knows_every_piece_gets_no_warning(counted):
    run = run_fill_mask(FillMaskRequest("the river [MASK] was muddy .", ("bert", "gpt2"), 2), counted.runtime)
    assert not {n.code for n in run.notes} & {"unknown", "all_unknown"}


# ---- (4) types, per parameter --------------------------------------------------------------------------------------
# What every field refuses by its kind (a list or a number for the text, a lone surrogate, a text or a list too long,
# an item that is not a key, NaN, a fraction, a string for top_k...) the one battery proves through /fill_mask:
# tests/unit/core/test_api_bad_values.py. Here: the values of no such class.


def test_no_text_is_refused(counted):
    with pytest.raises(InputError) as err:
        run_fill_mask(FillMaskRequest(None, ("bert",), 5), counted.runtime)
    assert err.value.code == "input_not_text" and counted.calls == []


def test_model_keys_that_are_numbers_are_refused(counted):
    with pytest.raises(InputError) as err:
        run_fill_mask(FillMaskRequest("a [MASK] .", [1, 2], 5), counted.runtime)
    assert err.value.code == "input_not_list" and counted.calls == []


def test_a_repeated_model_runs_once(counted):
    run = run_fill_mask(FillMaskRequest("a [MASK] .", ["bert", "bert"], 2), counted.runtime)
    assert run.request.models == ("bert",) and counted.calls == ["bert"]


@pytest.mark.parametrize("top_k", [0, 21], ids=lambda v: repr(v))
def test_top_k_of_the_wrong_type_is_refused(top_k, counted):
    with pytest.raises(InputError) as err:
        run_fill_mask(FillMaskRequest("a [MASK] .", ("bert",), top_k), counted.runtime)
    assert err.value.code == "input_not_whole" and counted.calls == []


def test_the_api_answers_a_bad_value_with_a_clear_message(counted, app_runtime):
    """The transport: /fill_mask turns the backend's refusal into a gr.Error (every field and value class: the
    battery)."""
    app_runtime(counted)  # the page's and the API's runtime: counted loads
    with pytest.raises(gr.Error) as err:
        fill_mask_tab.fill_mask_api("a [MASK]", ["bert"], math.nan, lang="en")
    assert err.value.message == "top_k must be a whole number from 1 to 20." and counted.calls == []


# ---- (3) tokens shown as written ----------------------------------------------------------------------------------

TAGS = ["<s>", "</s>", "<|endoftext|>", "<mask>"]


def _tag_run() -> FillMaskRun:
    preds = [Prediction(word, word, i, 0.4 - i / 20) for i, word in enumerate(TAGS)]
    reading = Reading("masked", "<s> a <mask> </s>", [preds], False)
    fill = ModelFill("bert", "google-bert/bert-base-uncased", "BERT", "cpu", [reading], unknown=("<b>x</b>", "*y*"), tokens=4)
    note = Note("unknown", {"model": fill.model_id, "n": 2, "total": 4, "pieces": ["<b>x</b>", "*y*"]})
    return FillMaskRun(FillMaskRequest("<b>x</b> *y* [MASK]", ("bert",), 4), [fill], [note])


def test_tokens_that_look_like_tags_are_escaped_in_the_figure_and_the_notes():
    run = _tag_run()
    fig = render.figure(run, "en")
    labels = [label for trace in fig.data for label in trace.y]
    assert sorted(labels) == sorted(f"{r}. {w.replace('<', '&lt;').replace('>', '&gt;')}" for r, w in enumerate(TAGS, 1))
    assert not any("<" in label for label in labels)
    assert all("<" not in raw for trace in fig.data for raw, _ in trace.customdata)  # hover shows the raw token too
    info = render.info(run, "en")
    assert "&lt;b&gt;x&lt;/b&gt;" in info and r"\*y\*" in info and "<b>" not in info
    headers, rows = render.table(run, "en")  # the table is data: the raw strings, shown as text by the Dataframe
    assert [row[4] for row in rows] == TAGS
    assert render.as_json(run, "en")["results"][0]["masks"][0][0]["token"] == "<s>"  # JSON keeps the raw token


def test_a_described_model_id_is_in_the_readers_language_in_the_provenance_line():
    spec = get_spec("minilm-mlm")  # its id describes what was done here ("... + MLM head trained here")
    preds = [Prediction("x", "x", 0, 0.5)]
    fill = ModelFill(spec.key, spec.hf_id, spec.label, "cpu", [Reading("masked", "a [MASK]", [preds], False)], tokens=3)
    run = FillMaskRun(FillMaskRequest("a [MASK]", (spec.key,), 1), [fill], [])
    assert "trained here" in render.info(run, "en")
    zh = render.info(run, "zh")
    assert "trained here" not in zh and "本项目训练" in zh
    warned = FillMaskRun(run.request, run.fills, [Note("no_chinese", {"model": spec.hf_id})])  # a note naming it too
    assert "trained here" not in render.info(warned, "zh")


# ---- (6) presets no model here can read ----------------------------------------------------------------------------


def test_chinese_presets_are_marked_when_no_model_here_reads_chinese(monkeypatch):
    monkeypatch.setattr(fill_mask_tab, "available_specs", lambda *kinds: [get_spec("smollm2-instruct")])
    for lang, mark in (("en", "needs a Chinese model"), ("zh", "需要中文模型")):
        samples = [row[0] for row in fill_mask_tab.example_samples(lang)]
        for example, shown in zip(fill_mask_tab.EXAMPLES, samples):
            assert (mark in shown) == (example["lang"] == "zh"), shown
    zh = next(i for i, e in enumerate(fill_mask_tab.EXAMPLES) if e["lang"] == "zh")
    assert fill_mask_tab.pick_example(zh) == fill_mask_tab.EXAMPLES[zh]["text"]  # the text box gets the preset only
    monkeypatch.setattr(fill_mask_tab, "available_specs", lambda *kinds: [get_spec("smollm2-instruct"), get_spec("bert-chinese")])
    assert [row[0] for row in fill_mask_tab.example_samples("en")] == [e["text"] for e in fill_mask_tab.EXAMPLES]


# ---- (7) the Chinese view ------------------------------------------------------------------------------------------


def test_the_chinese_view_has_no_english_headers_labels_or_markers(counted):
    run = run_fill_mask(FillMaskRequest("the [MASK] fell . the [MASK] barked .", ("bert",), 2), counted.runtime)
    headers, _ = render.table(run, "zh")
    assert not any(re.search("[A-Za-z]", h) for h in headers), headers
    fig = render.figure(run, "zh")
    texts = [a.text for a in fig.layout.annotations] + [fig.layout[f"xaxis{i}"].title.text or "" for i in ("", 2)]
    shown = " ".join(text.replace(run.fills[0].model_id, "") for text in texts)
    assert not re.search("[A-Za-z]{2,}", shown.replace("<br>", "")), shown
