"""The masking tab through its API and in Chromium, offline on the bundled MiniLM tokenizer."""

import pytest

from tests.e2e.helpers import open_tab, save_screenshot

STRATEGIES = ["bert", "wwm", "dynamic", "span", "permutation", "electra", "t5", "attention"]
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
    with pytest.raises(AppError, match="between 1 and 20 epochs"):
        client.predict(text=TEXT, model="minilm", strategy="dynamic", epochs=30, api_name="/masking")


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_each_strategy_renders(page, strategy):
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
    if strategy == "electra":  # offline "auto" runs the 30-layer causal filler; uniform keeps the browser test quick
        page.locator("#masking-settings").get_by_text("Settings").click()
        page.locator("#masking-generator input").click()
        page.get_by_role("option", name="uniform random tokens (no model)").click()
    page.locator("#masking-run").click()
    page.locator("#masking-grid .js-plotly-plot").wait_for(timeout=60_000)
    assert page.locator("#masking-summary").inner_text(timeout=30_000).strip()
    if strategy in ("permutation", "attention"):
        page.locator("#masking-matrices .js-plotly-plot").wait_for(timeout=30_000)
    save_screenshot(page, f"masking-{strategy}")
