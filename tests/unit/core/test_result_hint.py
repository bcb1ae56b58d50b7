"""The before-a-run hint: the reveal is chained on a run's success, and the MLM lab refuses a bad corpus before queueing."""

import gradio as gr
import pytest

from playground.ui.common.widgets import reveal_after
from playground.ui.mlm_lab.api import corpus_text, request_of


def _reveals(demo: gr.Blocks, area) -> list:
    return [f for f in demo.fns.values() if any(b._id == area._id for b in f.outputs)]


def _run() -> str:
    return "x"


def test_reveal_hides_the_hint_and_shows_every_area_after_success_only():
    with gr.Blocks() as demo:
        hint = gr.Markdown("press")
        with gr.Column(visible=False) as area, gr.Column(visible=False) as files:
            out = gr.Textbox()
        run = gr.Button().click(_run, None, out)
        reveal_after([run], hint, [area, files])
    (reveal,) = _reveals(demo, area)
    assert [b._id for b in reveal.outputs] == [hint._id, area._id, files._id]
    assert [u["visible"] for u in reveal.fn()] == [False, True, True]
    (dep,) = [d for d in demo.config["dependencies"] if d["id"] == reveal._id]
    assert dep["trigger_only_on_success"]  # a refused run keeps the hint


def test_reveal_without_a_hint_returns_a_bare_update_for_one_area():
    with gr.Blocks() as demo:
        with gr.Column(visible=False) as area:
            out = gr.Textbox()
        reveal_after([gr.Button().click(_run, None, out)], None, [area])
    (reveal,) = _reveals(demo, area)
    assert reveal.fn()["visible"] is True


def test_mlm_lab_refuses_an_empty_corpus_before_it_queues():
    with pytest.raises(gr.Error):
        request_of(corpus_text("paste", "   ", None, "en"), "minilm-mlm", False, 0.15, 1e-4, 80, 120, 0, "en")


def test_mlm_lab_accepts_the_sample_corpus():
    text = corpus_text("sample", None, None, "en")
    assert request_of(text, "minilm-mlm", False, 0.15, 1e-4, 80, 120, 0, "en").corpus == text
