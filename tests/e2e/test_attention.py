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
