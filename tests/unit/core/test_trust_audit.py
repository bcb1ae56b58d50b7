"""Issue 19 items the audit (docs/trust-audit.md) found fixed without a test of their own, or not fixed: the API and
limits pages against the code, the lab's buttons before a training, the ALBERT lesson's "what if", the two layer
numberings, fill-mask's warnings above its chart, the positional view's controls."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import gradio as gr
import pytest

from playground.attention import API_CELLS
from playground.figures.attention import MAX_ROWS
from playground.fill_mask.causal import POOL_PER_SOURCE
from playground.ui.common.i18n import Localizer, UIContext, t
from playground.ui.common.lab_models import LabMenus

DOCS = Path(__file__).resolve().parents[3] / "docs"


@pytest.mark.parametrize("page", ["api-schema.md", "api.md"])
def test_every_python_example_of_the_api_pages_parses(page):
    # The generated schema page showed `client.predict(, api_name="/warmup")` for an endpoint without parameters.
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        ast.parse(block)


def test_the_limits_and_the_api_pages_state_the_attention_windows_the_code_uses():
    # The limits said "responses windowed to 256 query rows"; an API response holds API_CELLS // tokens rows.
    limits, api = ((DOCS / name).read_text(encoding="utf-8") for name in ("limits.md", "api.md"))
    assert "windowed to 256 query rows" not in limits
    rows_at_506 = API_CELLS // 506
    for page in (limits, api):
        assert f"⌊{API_CELLS:,} ÷ tokens⌋" in page and f"{rows_at_506} at 506 tokens" in page
    assert f"heatmap shows {MAX_ROWS} query rows" in limits
    every_row_up_to = int(API_CELLS**0.5)
    assert f"up to {every_row_up_to} tokens" in limits and API_CELLS // every_row_up_to == every_row_up_to


def test_the_fill_mask_example_counts_no_more_candidates_than_the_pool_holds():
    # The README's example note said "139 candidate words": the pool is at most two sources of POOL_PER_SOURCE.
    counts = [int(n) for n in re.findall(r"(\d+) candidate words rescored", (DOCS / "api.md").read_text(encoding="utf-8"))]
    assert counts and all(n <= 2 * POOL_PER_SOURCE for n in counts)


def test_the_albert_lessons_what_if_is_not_a_published_model_again():
    # Lesson 9's link opened a "what if" equal to ALBERT-base itself, a bar beside its own twin.
    import app
    from playground.inside import params
    from playground.runtime import Runtime
    from playground.lessons import pages as lesson_pages

    (link,) = lesson_pages.lesson_links([tab_id for tab_id, _, _ in app.TABS])["albert"]
    p = link.params
    run = params.run_params(params.ParamsRequest(p["base"], p["E"], p["share"]), Runtime())
    *published, what_if = run.models
    assert p["base"] == "bert-base" and p["share"] == "none" and p["E"] < 768  # the factorisation alone
    assert all(model.total != what_if.total for model in published)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_tab_that_numbers_layers_says_how_the_other_tab_numbers_them(lang):
    # Layer 0 is the embeddings in Polysemy and the first transformer layer in Attention: each says so.
    attention, polysemy = t("attention.layer", lang), t("polysemy.layer_info", lang)
    assert ("Polysemy" if lang == "en" else "一词多义") in attention
    assert ("Attention" if lang == "en" else "注意力") in polysemy


def _tab(build):
    with gr.Blocks() as demo:
        lang = gr.Radio(["en", "zh"], value="en")
        shared = build(UIContext(lang, Localizer(), LabMenus.create()))
    return demo, shared, lang


def _by_id(demo, elem_id):
    (found,) = [b for b in demo.blocks.values() if getattr(b, "elem_id", None) == elem_id]
    return found


def test_fill_mask_puts_its_warnings_above_the_chart():
    from playground.ui.fill_mask import tab

    demo, _, _ = _tab(tab.build_tab)
    info, plot = _by_id(demo, "fill-mask-info"), _by_id(demo, "fill-mask-plot")
    column = info.parent
    assert plot.parent is column and column.children.index(info) < column.children.index(plot)


def test_the_lab_offers_no_stop_try_or_download_before_a_training():
    from playground.ui.mlm_lab import tab

    demo, _, _ = _tab(tab.build_tab)
    for elem_id in ("mlm-lab-cancel", "mlm-lab-try-run", "mlm-lab-download"):
        assert _by_id(demo, elem_id).interactive is False, elem_id


@pytest.mark.parametrize(("view", "shown"), [("positional", False), ("head", True)])
def test_the_positional_view_hides_the_layer_head_and_query_controls_it_does_not_use(view, shown, app_runtime, tiny_encoder):
    # The positional encoding depends on no layer, head or query: its sliders did nothing.
    from playground.ui.attention import tab
    from playground.ui.common.links import run_link

    app_runtime({"minilm": tiny_encoder})
    demo, shared, lang = _tab(tab.build_tab)
    p = shared.params
    values = {c: getattr(c, "value", None) for step in shared.run.steps for c in step.inputs}
    values |= {p["model"]: "minilm", p["text"]: "the cat sat on the mat", p["view"]: view, lang: "en"}
    merged = {k: v for update in run_link(shared.run, values) for k, v in update.items()}
    sliders = _by_id(demo, "attention-sliders")
    assert merged[sliders]["visible"] is shown


def test_the_albert_lesson_quotes_the_count_the_bar_shows_and_calls_the_papers_figures_rounded():
    # The lesson said "110 M" beside a bar reading 109.5 M.
    from playground.inside import params
    from playground.runtime import Runtime

    bert = params.run_params(params.ParamsRequest("bert-base", 128, "none"), Runtime()).models[0]
    shown = f"{bert.total / 1e6:.1f}"
    en, zh = t("lessons.albert.body", "en"), t("lessons.albert.body", "zh")
    assert f"{shown} M" in en and "110 M" in en and "108 M" in en
    assert f"{bert.total / 1e8:.3f} 亿" in zh and "1.1 亿" in zh and "1.08 亿" in zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_elmo_lesson_and_tab_name_the_raw_scores_w_and_the_weights_s_alike(lang):
    # The lesson wrote w where the tab's sliders said s: both now read s = softmax(w), the sliders being w.
    from playground.lessons import LESSONS

    (elmo,) = [lesson for lesson in LESSONS if lesson.key == "elmo"]
    assert r"s = \mathrm{softmax}(w)" in elmo.formula
    assert all(t(f"elmo.mix.s{j}", lang).startswith(f"w{'₀₁₂'[j]}") for j in range(3))
    assert "s = softmax(w)" in t("elmo.mix.weights", lang)
