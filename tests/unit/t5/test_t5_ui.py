"""The "Text to text (T5)" tab: its value is the run as JSON plus the script's texts in the reader's language (tokens
as data: sentinels stay `<extra_id_0>` text), one declaration of fields, a run and a link one request each, and the
documented endpoint answers what the view draws."""

from __future__ import annotations

import json

import gradio as gr
import pytest

from playground.ui.common.form import Values
from playground.ui.common.i18n import Localizer, UIContext, t
from playground.ui.common.strings import STRINGS
from playground.ui.t5 import render, tab
from playground.ui.t5.api import text_to_text_api

TEXT = "translate English to German: the <extra_id_0> of the river"
FIELDS = {"text", "model", "max_new_tokens", "temperature", "top_k", "top_p", "seed"}


def values(lang: str = "en", **changes) -> Values:
    fields = dict(text=TEXT, model="t5-small", max_new_tokens=6, temperature=0.0, top_k=0, top_p=1.0, seed=0)
    return Values(fields | changes, lang, "")


def test_every_text_the_script_writes_exists_in_both_languages():
    script = (tab.VIEW_JS).replace("tx['", "\u0000").split("\u0000")[1:]
    used = {piece.split("'")[0] for piece in script}
    used |= {f"stage.{s}" for s in ("raw", "temperature", "top_k", "top_p")}
    used |= {f"{w}.{f}" for w in ("family", "family_what") for f in ("encoder", "decoder", "cross")}
    assert {u for u in used if "${" not in u and not u.endswith(".")} <= set(render.texts("en"))
    en, zh = render.texts("en"), render.texts("zh")
    assert set(en) == set(zh) and all(en[k] != zh[k] for k in ("wrote", "looks", "families"))
    assert "innerHTML" not in tab.VIEW_JS and "insertAdjacentHTML" not in tab.VIEW_JS  # tokens only as text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_run_gives_the_script_the_whole_run_and_its_texts(lang, app_runtime, tiny_t5):
    app_runtime({"t5-small": tiny_t5})
    out = tab.show(values(lang))
    view = json.loads(json.dumps(out["view"]))  # what travels to the page is plain JSON
    r = view["result"]
    assert "<extra_id_0>" in r["source_tokens"] and r["steps"][0]["read"] == "<pad>"
    n, s = len(r["steps"]), len(r["source_tokens"])
    assert len(r["attention"]["cross"][0][0]) == n and len(r["attention"]["cross"][0][0][0]) == s
    assert view["texts"]["wrote"] == t("t5.ui.wrote", lang)  # templates: the script fills them
    assert t("t5.info", lang).split("{")[0] in out["info"] or lang == "en"
    assert ("max new tokens" in out["info"]) == (not r["finished"] and lang == "en")


def test_the_tab_declares_its_fields_once_and_a_link_runs_in_one_step(app_runtime, tiny_t5):
    app_runtime({"t5-small": tiny_t5, "t5-classroom": tiny_t5})
    with gr.Blocks():
        lang = gr.Radio(["en", "zh"], value="en")
        shared = tab.build_tab(UIContext(lang, Localizer()))
    assert set(shared.params) == FIELDS
    (step,) = shared.run.steps
    v = {c: getattr(c, "value", None) for c in step.inputs} | {shared.params["model"]: "t5-small", lang: "en"}
    out = step.fn(v, progress=None)
    view = next(value for component, value in out.items() if isinstance(component, gr.HTML))
    assert view["result"]["steps"] and view["result"]["text"] == v[shared.params["text"]]


def test_the_endpoint_is_the_views_run_and_refuses_in_the_readers_language(app_runtime, tiny_t5):
    app_runtime({"t5-small": tiny_t5})
    data = text_to_text_api(TEXT, "t5-small", max_new_tokens=6)
    assert data == json.loads(json.dumps(tab.show(values())["view"]["result"]))
    with pytest.raises(gr.Error) as refused:
        text_to_text_api("   ", "t5-small", lang="zh")
    assert refused.value.message == t("error.t5_empty_text", "zh")
    assert "error.t5_too_long" in STRINGS and "error.t5_no_model" in STRINGS
