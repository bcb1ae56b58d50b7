"""Polysemy tab in the running app: the /polysemy endpoint, and the plots rendering in Chromium."""

import json
from pathlib import Path

from tests.e2e.helpers import open_tab, save_screenshot

PRESET = json.loads((Path(__file__).parents[2] / "assets" / "polysemy" / "presets.json").read_text(encoding="utf-8"))["bank"]


def test_api_round_trip(client):
    data = client.predict(
        PRESET["word"],
        "\n".join(PRESET["sentences"]),
        ["minilm", "glove"],
        True,
        "last",
        "mean",
        "pca",
        2,
        "en",
        api_name="/polysemy",
    )
    by_key = {m["key"]: m for m in data["models"]}
    assert set(by_key) == {"minilm", "minilm:input", "glove"}
    n = len(PRESET["sentences"])
    for m in by_key.values():
        assert len(m["coords"]) == n and len(m["coords"][0]) == 2 and len(m["similarity"]) == n
    assert by_key["minilm"]["separation"] > by_key["glove"]["separation"] == 0
    assert by_key["minilm"]["layer"] == by_key["minilm"]["num_layers"] and not by_key["minilm"]["layer_fallback"]
    deep = client.predict(PRESET["word"], "\n".join(PRESET["sentences"]), ["minilm"], False, "40", api_name="/polysemy")
    (only,) = deep["models"]
    assert only["layer"] == only["num_layers"] and only["layer_fallback"]  # MiniLM has no layer 40: its last is shown


def test_plots_render_and_language_switches(page):
    open_tab(page, "polysemy")
    page.locator("#polysemy-run").click()
    for plot in ("#polysemy-scatter", "#polysemy-heatmap", "#polysemy-curve"):
        page.wait_for_selector(f"{plot} .js-plotly-plot", timeout=240_000)
    assert page.locator("#polysemy-heatmap .heatmaplayer").count() >= 1
    assert "MiniLM" in page.locator("#polysemy-reading").inner_text()
    save_screenshot(page, "polysemy")
    page.get_by_label("中文").first.check()
    page.wait_for_function("document.querySelector('#polysemy-run').innerText.includes('比较')", timeout=30_000)
