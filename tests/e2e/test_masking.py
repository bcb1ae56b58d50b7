"""The masking tab through its API and in Chromium, offline on the bundled MiniLM tokenizer.

The browser runs one journey in English (BERT MLM from the objective menu) and one in Chinese (a SpanBERT link made
by the share button), plus what only a page shows (T5's sentinels survive as text, a malformed link value).
That every objective renders in both languages (its why, its grid, its matrices or SBO arcs, its statistics) is
tests/unit/masking/test_masking_render.py and test_masking_figures.py; byte pieces never show as U+FFFD is
tests/unit/masking/test_masking_trust.py; no literal Markdown on any tab in Chinese is tests/e2e/test_trust.py.
"""

import pytest

from tests.e2e.helpers import open_tab, save_screenshot

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


@pytest.mark.parametrize("strategy", ["bert", "electra"])
def test_a_strategy_chosen_in_the_menu_renders(page, strategy):
    open_tab(page, "masking")
    page.get_by_role("tab", name="Masking strategies").click()
    label = {
        "bert": "BERT MLM",
        "wwm": "Whole-word",
        "dynamic": "RoBERTa dynamic",
        "span": "SpanBERT",
        "permutation": "XLNet",
        "electra": "ELECTRA",
        "t5": "T5 span",
        "attention": "Attention-mask",
    }[strategy]
    page.locator("#masking-strategy label").filter(has_text=label).click()
    if strategy == "electra":  # "auto" loads a generator model (minilm-mlm); uniform keeps the browser test quick
        page.locator("#masking-settings").get_by_text("Settings").click()
        page.locator("#masking-generator input").click()
        page.get_by_role("option", name="uniform random tokens (no model)").click()
    page.locator("#masking-run").click()
    page.locator("#masking-grid .js-plotly-plot").wait_for(timeout=60_000)
    assert page.locator("#masking-summary").inner_text(timeout=30_000).strip()
    if strategy in ("permutation", "attention"):
        page.locator("#masking-matrices .js-plotly-plot").wait_for(timeout=30_000)
    save_screenshot(page, f"masking-{strategy}")


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


def test_t5_sentinels_are_visible_in_the_browser(page):
    page.goto(_link(page, strategy="t5", seed="1"))
    text = _summary(page, "extra_id")
    assert "<extra_id_0>" in text and "<extra_id_1>" in text  # before: swallowed as HTML, an empty "Target:"
    page.locator("#masking-grid .js-plotly-plot").wait_for(timeout=30_000)
    assert "<extra_id_0>" in page.locator("#masking-grid").inner_text()  # plotly's cell text too
    save_screenshot(page, "masking-t5-sentinels")


def test_a_shared_link_restores_the_inputs_and_the_result(page, browser):
    """A non-default view (SpanBERT, seed 7, Chinese), made with the share button, opened in a fresh page."""
    from playwright.sync_api import expect

    page.goto(_link(page, lang="zh"))
    page.locator("#masking-strategy label").filter(has_text="SpanBERT").click()
    page.locator("#masking-seed input").fill("7")
    page.locator("#masking-run").click()
    original = _summary(page, "片段")
    page.get_by_role("button", name="本视图的链接").click()
    find = "() => [...document.querySelectorAll('textarea,input')].map(e => e.value).find(v => v.includes('tab=masking'))"
    page.wait_for_function(find, timeout=10_000)
    link = page.evaluate(find)
    assert "seed=7" in link and "strategy=span" in link and "lang=zh" in link and "generator=" in link

    fresh = browser.new_context(locale="en-US").new_page()
    fresh.app_url = page.app_url
    fresh.goto(link)
    restored = _summary(fresh, "片段")
    assert restored == original
    expect(fresh.locator("#masking-seed input")).to_have_value("7")
    assert fresh.locator("#masking-strategy input[value='span']").is_checked()
    save_screenshot(fresh, "masking-shared-span-zh")
    fresh.context.close()


def test_a_malformed_link_value_is_dropped_and_the_view_still_runs(page):
    page.goto(_link(page, strategy="t5", seed="abc"))
    text = _summary(page, "extra_id")  # the masking tab, run with the default seed
    assert "extra_id_0" in text
    assert page.locator("#masking-seed input").input_value() == "0"
    assert page.locator(".toast-body.error").count() == 0


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
