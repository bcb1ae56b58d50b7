"""The "One forward pass" tab: its texts cover every stage of every block kind in both languages, its value is the
result as JSON plus those texts (nothing the script would parse as markup), and it is one declaration: fields once,
a run and a link one request each."""

from __future__ import annotations

import json

import gradio as gr
import pytest

from playground.architectures import KINDS
from playground.ui.common.form import Values
from playground.ui.common.i18n import Localizer, UIContext, t
from playground.ui.common.strings import STRINGS
from playground.ui.forward import render, tab

TEXT = "the bank of the [MASK] river"


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=lambda k: k.key)
def test_every_stage_of_every_block_kind_has_a_title_and_a_sentence_in_both_languages(kind):
    stages = [s.name for part in (kind.embed, kind.block, kind.final) for s in part]
    missing = [
        f"{what}.{name}" for name in stages for what in ("forward.stage", "forward.what") if f"{what}.{name}" not in STRINGS
    ]
    assert not missing
    texts = {lang: render.texts(lang) for lang in ("en", "zh")}
    assert texts["en"]["stage.attn.out"] != texts["zh"]["stage.attn.out"]  # the page's language, not a fixed one
    assert f"forward.kind.{kind.key}" in STRINGS  # the model line names the block kind in the reader's language


def values(model: str, token: int = -1, lang: str = "en") -> Values:
    return Values({"model": model, "text": TEXT, "token": token, "top_k": 3}, lang, "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_run_gives_the_script_the_whole_result_and_its_texts(lang, app_runtime, tiny_mlm):
    app_runtime({"minilm-mlm": tiny_mlm})
    out = tab.show(values("minilm-mlm", lang=lang))
    view = json.loads(json.dumps(out["view"]))  # what travels to the page is plain JSON
    result = view["result"]
    assert result["tokens"][result["token"]] == "[MASK]"  # -1 follows the blank
    assert {s["name"] for s in result["stages"]} >= {"embed.token", "blocks.1.attn.out", "logits"}
    assert len(result["attention"]) == result["layers"] and len(result["lens"]) == result["layers"] + 1
    assert view["texts"]["ui.block"] == t("forward.ui.block", lang)  # templates: the script fills them
    assert out["token"]["maximum"] == len(result["tokens"]) - 1
    assert t("forward.checked", lang).split("{")[0] in out["info"]


def test_the_tab_declares_its_fields_once_and_a_link_runs_the_pass_in_one_step(app_runtime, tiny_mlm):
    app_runtime({"minilm-mlm": tiny_mlm})
    with gr.Blocks():
        lang = gr.Radio(["en", "zh"], value="en")
        shared = tab.build_tab(UIContext(lang, Localizer()))
    assert set(shared.params) == {"model", "text", "token", "top_k"}
    (step,) = shared.run.steps
    v = {c: getattr(c, "value", None) for c in step.inputs} | {shared.params["model"]: "minilm-mlm", lang: "en"}
    out = step.fn(v, progress=None)
    view = next(value for component, value in out.items() if isinstance(component, gr.HTML))
    assert view["result"]["tokens"][view["result"]["token"]] == "[MASK]"  # the default example: the blank followed


def test_a_bad_token_is_refused_in_the_readers_language(app_runtime, tiny_mlm):
    app_runtime({"minilm-mlm": tiny_mlm})
    with pytest.raises(gr.Error):
        tab.show(values("minilm-mlm", token=99))
