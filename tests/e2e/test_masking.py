"""The masking tab through its API and in Chromium, offline on the bundled MiniLM tokenizer.

The browser runs one journey in English (the objective menu: statistics offered or not, ELECTRA and BERT MLM runs,
the language switch), one in Chinese (a SpanBERT link made by the share button, opened with its Code panel), plus
what only a page shows (T5's sentinels survive as text, a malformed link value is dropped).
That every objective renders in both languages (its why, its grid, its matrices or SBO arcs, its statistics) is
tests/unit/masking/test_masking_render.py and test_masking_figures.py; byte pieces never show as U+FFFD is
tests/unit/masking/test_masking_trust.py; no literal Markdown on any tab in Chinese is tests/e2e/test_trust.py.
"""

import re

import pytest

from playground.figures.masking import ACTION_COLOURS
from tests.e2e.helpers import checkpoint, open_tab
from tests.e2e.plot_layout import FITTED_JS, PLOTS_SAY_JS

TEXT = "The unbelievable tokenizer splits playground sentences."


def test_api_round_trip_with_statistics(client):
    data = client.predict(TEXT, "minilm", "bert", 3, 0.15, 0.8, 0.1, 4, 5, "uniform", 500, "en", api_name="/masking")
    assert len(data["tokens"]) == len(data["actions"]) == len(data["labels"])
    rates = {r["name"]: r for r in data["statistics"]["rates"]}
    assert abs(rates["selected"]["empirical"] - 0.15) < 0.05 and rates["selected"]["within"] in (True, False)


def test_api_keyword_call_and_clean_errors(client):
    from gradio_client.exceptions import AppError

    data = client.predict(text=TEXT, model="minilm", strategy="electra", generator="uniform", api_name="/masking")
    assert data["strategy"] == "electra" and data["statistics"] is None
    assert [n["code"] for n in data["notes"]][:1] == ["uniform_generator"]
    with pytest.raises(AppError, match="epochs must be a whole number from 1 to 20"):  # the checks' one wording
        client.predict(text=TEXT, model="minilm", strategy="dynamic", epochs=30, api_name="/masking")


def _choose(page, label: str) -> None:
    page.locator("#masking-strategy label").filter(has_text=label).click()


def test_the_objective_menu_offers_statistics_runs_and_follows_the_language_switch(page):
    """One masking page, the objectives chosen from the menu (each step once held its own page load):

    1. The statistics box is offered for the default objective (BERT MLM).
    2. ELECTRA: no statistics (the box hides); with the uniform generator (no model to load) it runs: grid and summary.
    3. SpanBERT: the statistics box is offered again.
    4. BERT MLM, run: a new grid and summary, "What happens to each token" over the grid.
    5. 中文: the result on screen is redrawn in Chinese (每个词元的命运), and no plot keeps the English title.
    """
    open_tab(page, "masking")
    page.get_by_role("tab", name="Masking strategies").click()
    stats = page.locator("#masking-stats-box")
    stats.wait_for(timeout=60_000)

    _choose(page, "ELECTRA")
    stats.wait_for(state="hidden", timeout=30_000)
    # "auto" loads a generator model (minilm-mlm); uniform keeps the browser test quick
    page.locator("#masking-settings").get_by_text("Settings").click()
    page.locator("#masking-generator input").click()
    page.get_by_role("option", name="uniform random tokens (no model)").click()
    page.locator("#masking-run").click()
    page.locator("#masking-grid .js-plotly-plot").wait_for(timeout=60_000)
    electra = _summary(page, "ELECTRA")
    assert electra.strip()
    checkpoint(page, "masking-electra")

    _choose(page, "SpanBERT")
    stats.wait_for(state="visible", timeout=30_000)

    _choose(page, "BERT MLM")
    page.locator("#masking-run").click()
    page.wait_for_function(  # the BERT run's summary replaced ELECTRA's (and no run is pending on it)
        "([sel, old]) => { const e = document.querySelector(sel); return e && e.innerText.trim() && e.innerText !== old"
        " && !e.innerText.includes('processing |') && !e.querySelector('.progress-text, .eta-bar'); }",
        arg=["#masking-summary", electra],
        timeout=60_000,
    )
    assert page.locator("#masking-summary").inner_text().strip()
    page.wait_for_function(PLOTS_SAY_JS, arg=["What happens to each token", None], timeout=60_000)
    checkpoint(page, "masking-bert")

    page.get_by_role("radio", name="中文", exact=True).check()
    page.wait_for_function(PLOTS_SAY_JS, arg=["每个词元的命运", "What happens to each token"], timeout=60_000)
    checkpoint(page, "masking-bert-zh")

    _projector_keeps_the_masked_tokens_in_view(page)


# What the grid shows of its cells: the box's widths, how many bands, and the marked cells (masked, replaced, dropped:
# every fate but these) whose rect leaves the box's visible part.
FATES = list(ACTION_COLOURS)  # a heatmap's z: the fate's index here
UNMARKED = ["none", "special", "context", "original", "pad"]
GRID_IN_VIEW_JS = """([order, unmarked]) => {
  const gd = document.querySelector('#masking-grid .js-plotly-plot'); const box = gd.parentElement;
  const seen = box.getBoundingClientRect(); const svg = gd.querySelector('.main-svg').getBoundingClientRect();
  const full = gd._fullLayout;
  const bands = gd._fullData.filter((t) => t.type === 'heatmap'); const out = [];
  for (const hm of bands) hm.z.forEach((row, r) => row.forEach((fate, c) => {
    const left = svg.left + full._size.l + full.xaxis.l2p(hm.x[c]), right = svg.left + full._size.l + full.xaxis.l2p(hm.x[c + 1]);
    if (!unmarked.includes(order[fate]) && (left < seen.left - 0.5 || right > seen.right + 0.5)) out.push(hm.text[r][c]);
  }));
  return {scroll: box.scrollWidth, client: box.clientWidth, bands: bands.length, out};
}"""
LONG = (
    "The unbelievable tokenizer splits playground sentences into subword pieces, and the students watch every masked "
    "token travel through the encoder before the teacher explains span corruption."
)


def _projector_keeps_the_masked_tokens_in_view(page) -> None:
    """Issue 37, item 2, at 1440x900 in projector mode (its fonts 16 px, the cells wider): the default sentence's grid
    asked 1,236 px of a 1,214 px box and scrolled sideways, T5's dropped end out of view. Now no sideways scroll and
    every masked cell inside the box, for the default sentence and for a long one on T5 (wrapped into bands)."""
    page.set_viewport_size({"width": 1440, "height": 900})
    page.locator("#tp-projector input").check()
    page.wait_for_function("() => document.body.classList.contains('tp-projector')", timeout=30_000)
    page.wait_for_function(FITTED_JS, timeout=60_000)
    shown = page.evaluate(GRID_IN_VIEW_JS, [FATES, UNMARKED])
    assert shown["scroll"] <= shown["client"] and not shown["out"], shown
    checkpoint(page, "masking-bert-zh-projector")

    drawn = page.locator("#masking-summary").inner_text()
    page.locator("#masking-text textarea").fill(LONG)
    page.locator("#masking-strategy input[value='t5']").check()  # another objective redraws at once, on this text
    page.wait_for_function(
        "([sel, old]) => { const e = document.querySelector(sel); return e && e.innerText !== old"
        " && e.innerText.includes('extra_id') && !e.querySelector('.progress-text, .eta-bar'); }",
        arg=["#masking-summary", drawn],
        timeout=60_000,
    )
    page.wait_for_function(FITTED_JS, timeout=60_000)
    shown = page.evaluate(GRID_IN_VIEW_JS, [FATES, UNMARKED])
    assert shown["bands"] > 1 and shown["scroll"] <= shown["client"] and not shown["out"], shown
    checkpoint(page, "masking-t5-long-zh-projector")
    page.locator("#tp-projector input").uncheck()


def _link(page, **params):
    from urllib.parse import urlencode

    return f"{page.app_url}?{urlencode({'tab': 'masking', **params})}"


def _summary(page, contains: str = "") -> str:
    box = page.locator("#masking-summary")
    page.wait_for_function(
        # ...and no run is pending on it (Gradio writes "processing | 0.1s" into the box while one is)
        "([sel, s]) => { const e = document.querySelector(sel); return e && e.innerText.trim() && e.innerText.includes(s)"
        " && !e.innerText.includes('processing |') && !e.querySelector('.progress-text, .eta-bar'); }",
        arg=["#masking-summary", contains],
        timeout=60_000,
    )
    return box.inner_text()


def test_t5_sentinels_are_visible_and_a_malformed_link_value_is_dropped(page):
    """One T5 link whose seed is malformed (seed=abc): the value is dropped (the seed box says 0, no error toast) and the
    view still runs; its sentinels show as text in the summary and in the grid's cells (not swallowed as HTML). Seed 0
    on the default text draws one span, so the target reads <extra_id_0> … <extra_id_1>."""
    page.goto(_link(page, strategy="t5", seed="abc"))
    text = _summary(page, "extra_id")  # the masking tab, run with the default seed
    assert "<extra_id_0>" in text and "<extra_id_1>" in text  # before: swallowed as HTML, an empty "Target:"
    assert page.locator("#masking-seed input").input_value() == "0"
    assert page.locator(".toast-body.error").count() == 0
    page.locator("#masking-grid .js-plotly-plot").wait_for(timeout=30_000)
    assert "<extra_id_0>" in page.locator("#masking-grid").inner_text()  # plotly's cell text too
    checkpoint(page, "masking-t5-sentinels")


def test_a_shared_link_restores_the_inputs_and_the_result(page, browser):
    """A non-default view (SpanBERT, seed 7, Chinese), made with the share button, opened in a fresh page with
    `show=code`: the same summary, the seed and the objective restored, and the Code panel open on this run's script."""
    from playwright.sync_api import expect

    from playground.ui.masking.tab import DEFAULT_TEXT  # the text the view ran on (the link carries no text)

    page.goto(_link(page, lang="zh"))
    page.locator("#masking-strategy label").filter(has_text="SpanBERT").click()
    drawn = _summary(page, "片段")  # choosing the objective redraws at once (seed 0): wait for that run first
    page.locator("#masking-seed input").fill("7")
    page.locator("#masking-run").click()
    page.wait_for_function(
        "([sel, old]) => { const e = document.querySelector(sel); return e && e.innerText !== old; }",
        arg=["#masking-summary", drawn],
        timeout=60_000,
    )
    original = _summary(page, "片段")
    page.get_by_role("button", name="本视图的链接").click()
    find = "() => [...document.querySelectorAll('textarea,input')].map(e => e.value).find(v => v.includes('tab=masking'))"
    page.wait_for_function(find, timeout=10_000)
    link = page.evaluate(find)
    assert "seed=7" in link and "strategy=span" in link and "lang=zh" in link and "generator=" in link

    fresh = browser.new_context(locale="en-US").new_page()
    fresh.app_url = page.app_url
    fresh.goto(link + "&show=code")
    restored = _summary(fresh, "片段")
    assert restored == original
    expect(fresh.locator("#masking-seed input")).to_have_value("7")
    assert fresh.locator("#masking-strategy input[value='span']").is_checked()
    checkpoint(fresh, "masking-shared-span-zh")
    # show=code: assets/show_code.js opens the Code panel once the link's event has ended, on the run's script (the
    # objective's own function, its seed, the text). The scripts' numbers: tests/integration/test_code_snippets.py.
    script = "() => [...document.querySelectorAll('.tp-code .cm-content')].find(e => e.offsetParent)?.innerText || ''"
    fresh.wait_for_function(f"() => ({script})().includes('span_masking')", timeout=240_000)
    code = fresh.evaluate(script)
    assert "seed=7" in code and DEFAULT_TEXT in code, code
    header = [h for h in fresh.locator(".tp-code button.label-wrap").all() if h.is_visible()][0]
    expect(header).to_have_class(re.compile(r"\bopen\b"))
    fresh.context.close()


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("seed", 1.5, "whole number"),
        ("text", 3, "text must be text"),
        ("model", "glove", "must be a model of kind"),
        ("generator", "masked:../x", "Unknown generator"),
        ("draws", 10001, "draws"),
    ],
)
def test_the_api_refuses_bad_types_clearly(client, field, value, message):
    from gradio_client.exceptions import AppError

    params = {"text": TEXT, "model": "minilm", "strategy": "bert"} | {field: value}
    with pytest.raises(AppError, match=message):
        client.predict(**params, api_name="/masking")
