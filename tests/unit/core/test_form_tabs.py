"""The sampling, masking and lessons tabs on the Form pattern (issue 31): a click is one request, nothing chained on it,
and each tab.py stays small."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# element id -> the event that runs on it: one server request each
CLICKS = {
    "masking-run": "click", "masking-run-stats": "click", "masking-strategy": "input",
    "sampling-next": "click", "sampling-generate": "click", "sampling-compare": "click", "sampling-step": "click",
    "lessons-next": "click", "lessons-previous": "click", "lessons-picker": "input",
}  # fmt: skip


def _block(app, elem_id):
    return next(b for b in app.blocks.values() if getattr(b, "elem_id", None) == elem_id)


@pytest.mark.parametrize("elem_id", list(CLICKS))
def test_a_click_is_one_request_and_nothing_is_chained_on_it(built_app, elem_id):
    block, event = _block(built_app, elem_id), CLICKS[elem_id]
    ids = [i for i, fn in built_app.fns.items() if (block._id, event) in fn.targets]
    server = [i for i in ids if built_app.fns[i].fn is not None]
    assert len(server) == 1, (elem_id, len(server))  # one request (a browser-only js event may sit beside it)
    chained = [fn for fn in built_app.fns.values() if fn.trigger_after in ids]
    assert not chained, elem_id  # no .success / .then follow-up requests


def test_choosing_another_objective_redraws_the_masking_view(built_app):
    """Low (issue 37): the objective menu redrew nothing until the button; its input event now draws the view."""
    block, grid = _block(built_app, "masking-strategy"), _block(built_app, "masking-grid")
    (fn,) = [fn for fn in built_app.fns.values() if (block._id, "input") in fn.targets and fn.fn is not None]
    assert grid in fn.outputs


@pytest.mark.parametrize("tab", ["sampling", "masking", "lessons"])
def test_tab_files_stay_small(tab):
    assert len((ROOT / "playground" / "ui" / tab / "tab.py").read_text(encoding="utf-8").splitlines()) <= 150


def test_a_try_it_result_is_marked_and_followed(built_app):
    """Issue 37, item 9: after a try-it the result sat below the fold. Form.result marks each tab's result boxes
    `tp-result`, and the page's script (assets/follow_link.js, in app.PAGE_JS) scrolls the first one into view after
    a try-it click (looked at in Chromium: docs/trust-audit.md)."""
    import app

    marked = [b for b in built_app.blocks.values() if "tp-result" in (getattr(b, "elem_classes", None) or [])]
    assert len(marked) >= 5  # masking, fill-mask, attention, polysemy, forward, sampling ...
    assert "tpFollowed" in app.PAGE_JS and "tp-result" in app.PAGE_JS and "-try-" in app.PAGE_JS


def test_example_lists_have_no_english_headers_on_a_chinese_page(built_app):
    """gr.Examples heads each column with its component's English label on a Chinese page too (the insight and T5
    tabs had them): every list of examples with more than one input is a one-column gr.Dataset whose label the
    language switch relabels, and its click fills every input of the row."""
    import gradio as gr

    examples = [b for b in built_app.blocks.values() if isinstance(b, gr.Dataset)]
    headed = [b for b in examples if len(b._components) > 1]
    assert not headed, [b.label for b in headed]
    picks = {}
    for fn in built_app.fns.values():
        for block_id, event in fn.targets:
            if event == "click" and isinstance(built_app.blocks.get(block_id), gr.Dataset) and fn.fn is not None:
                picks[block_id] = fn
    text, source = _block(built_app, "insight-text"), _block(built_app, "insight-source")
    (menu,) = [b for b in examples if b._components[0]._id == text._id]
    fn = picks[menu._id]
    row = fn.fn(1)  # the second example: its sentence and its patching source sentence
    assert [o._id for o in fn.outputs] == [text._id, source._id]
    assert row[0] == menu.samples[1][0] and row[1] and row[1] != row[0]
