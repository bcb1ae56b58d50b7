"""The Attention tab through its `/attention` API and in Chromium, offline on the bundled models."""

import numpy as np

from tests.e2e.helpers import open_tab, save_screenshot

TEXT = "The animal didn't cross the street because it was too tired."


def test_api_returns_one_head_and_the_summaries(client):
    data = client.predict("minilm", TEXT, "", 2, 5, 0, "en", api_name="/attention")
    matrix = np.array(data["matrix"])
    assert (data["layer"], data["head"]) == (2, 5) and matrix.shape == (len(data["tokens"]),) * 2
    np.testing.assert_allclose(matrix.sum(-1), 1, atol=1e-3)
    np.testing.assert_allclose(np.array(data["rollout"]).sum(-1), 1, atol=1e-3)
    assert np.array(data["head_entropy_bits"]).shape == (data["layers"], data["heads"])
    causal = client.predict("smollm2-instruct", TEXT, "", 29, 8, 0, "zh", api_name="/attention")
    assert causal["causal"] and np.triu(np.array(causal["matrix"]), 1).max() == 0


def test_api_pairs_show_segments(client):
    data = client.predict("minilm", "The cat sat.", "It was tired.", 0, 0, 0, "en", api_name="/attention")
    assert data["token_type_ids"][0] == 0 and data["token_type_ids"][-1] == 1


def test_heatmap_and_overview_render_and_a_thumbnail_opens(page):
    open_tab(page, "attention")
    page.locator("#attention-run").click()
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=120_000)
    assert (
        "MiniLM" in page.locator("#attention-info").inner_text(timeout=30_000)
        or "minilm" in page.locator("#attention-info").inner_text().lower()
    )
    save_screenshot(page, "attention-head")
    page.locator("#attention-view label").filter(has_text="Model overview").click()
    overview = page.locator("#attention-overview img")
    overview.wait_for(timeout=60_000)
    save_screenshot(page, "attention-overview")
    box = overview.bounding_box()
    scale = box["width"] / (12 * 36 - 4)  # MiniLM: 12 heads of 32-pixel thumbnails with 4-pixel gaps
    overview.click(position={"x": (2 * 36 + 16) * scale, "y": (1 * 36 + 16) * scale})  # layer 1, head 2
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=60_000)
    page.wait_for_function("document.querySelector(\"#attention-view input[value='head']\").checked", timeout=30_000)
    assert "Layer 1, head 2" in page.locator("#attention-plot").inner_text(timeout=30_000)
    save_screenshot(page, "attention-opened")


def test_api_refuses_bad_types_with_the_clear_message(client):
    import pytest

    for args, words in [
        (("glove", TEXT, "", 0, 0, 0, "en"), "cannot be used here"),  # refused by kind before it loads (checks)
        (("minilm", 5, "", 0, 0, 0, "en"), "text must be text"),
        (("minilm", TEXT, "", 1.5, 0, 0, "en"), "layer must be a whole number"),
        (("minilm", TEXT, "", 0, None, 0, "en"), "head must be a whole number"),
        (("minilm", TEXT, "", 0, 0, 10**6, "en"), "row_start must be a whole number"),
    ]:
        with pytest.raises(Exception) as err:
            client.predict(*args, api_name="/attention")
        assert words in str(err.value), (args, str(err.value))


def test_share_link_opens_at_the_restored_layer_and_head(page):
    """The issue: a link with layer 3, head 7 opened at layer 0, head 0. It must open there, and show that head."""
    from urllib.parse import urlencode

    params = {"tab": "attention", "model": "minilm", "other": "minilm", "text": "The bank by the river <s> flooded.",
              "view": "head", "layer": "3", "head": "7", "query": "2"}  # fmt: skip
    page.goto(f"{page.app_url}?{urlencode(params)}")
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=120_000)
    page.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 3, head 7')", timeout=60_000)
    values = page.locator("#attention-sliders input[type=number]").evaluate_all("els => els.map(e => e.value)")
    assert values[:3] == ["3", "7", "2"]
    assert "&lt;" in page.locator("#attention-plot .js-plotly-plot").evaluate("el => el.data[0].x.join(' ')")
    assert "6·<" in page.locator("#attention-plot").inner_text()  # a tag-like token shows (escaped), not eaten as markup
    matrix = page.locator("#attention-plot .js-plotly-plot").evaluate("el => el.data[0].z")
    page.locator("#attention-share button").filter(has_text="Link to this view").click()
    page.wait_for_function("document.querySelector('#attention-share textarea, #attention-share input').value.includes('?')")
    link = page.locator("#attention-share textarea, #attention-share input").first.input_value()
    assert "layer=3" in link and "head=7" in link and "query=2" in link
    fresh = page.context.new_page()
    fresh.goto(link)
    fresh.locator("#attention-plot .js-plotly-plot").wait_for(timeout=120_000)
    fresh.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 3, head 7')", timeout=60_000)
    assert fresh.locator("#attention-plot .js-plotly-plot").evaluate("el => el.data[0].z") == matrix
    fresh.close()


def test_unknown_tokens_are_flagged_in_chinese(page):
    page.goto(f"{page.app_url}?tab=attention&lang=zh&model=minilm&text=%E6%88%91%E5%9C%A8%E9%93%B6%E8%A1%8C%E5%AD%98%E9%92%B1")
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=120_000)
    page.wait_for_function("document.querySelector('#attention-info').innerText.includes('不认识')", timeout=60_000)
    info = page.locator("#attention-info").inner_text()
    assert "银" in info and "[UNK]" in info and "**" not in info
    page.wait_for_function("document.querySelector('#attention-plot').innerText.includes('[UNK] (银)')", timeout=60_000)
    page.wait_for_function("document.body.innerText.includes('句子（A）')", timeout=60_000)
    page.wait_for_function("!document.querySelector('#attention-plot .pending, #attention-info .pending')", timeout=60_000)
    save_screenshot(page, "attention-unknown-zh")
