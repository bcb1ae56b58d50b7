"""The Inside BERT tab in Chromium (every view, English then switched to Chinese) and through its /inside_* endpoints, offline."""

import numpy as np

from tests.e2e.helpers import checkpoint, wait_opened

VIEWS = {
    "embeddings": ("#inside-emb-plot .js-plotly-plot", "#inside-emb-info", ("max |difference|", "最大 |差值|")),
    "params": ("#inside-params-plot .js-plotly-plot", "#inside-params-info", ("built model", "实际构建的模型")),
    "nsp": ("#inside-nsp-layout .js-plotly-plot", "#inside-nsp-top", ("No NSP model here", "此处没有 NSP 模型")),
    "heads": ("#inside-heads-plot .js-plotly-plot", "#inside-heads-info", ("task.num_parameters()", "task.num_parameters()")),
}


def test_api_endpoints(client):
    data = client.predict("The cat sat.", "It slept.", "minilm", "en", api_name="/inside_embeddings")
    assert data["max_abs_diff"] <= 1e-5 and np.array(data["normed"]).shape == (len(data["tokens"]), 384)
    counts = client.predict("bert-base", 128, True, "en", api_name="/inside_params")
    totals = {m["key"]: m["total"] for m in counts["models"]}
    assert 108e6 < totals["bert-base"] < 111e6 and 11e6 < totals["albert-base"] < 13e6
    pairs = client.predict("A cat sat. It slept.\n\nStocks fell. Rates rose.", 0, 32, "", "en", api_name="/inside_nsp")
    assert pairs["layout"]["tokens"][0] == "[CLS]" and pairs["probes"] == []
    heads = client.predict("bert-base", "en", api_name="/inside_heads")
    assert [h["new_params"] for h in heads["heads"]] == [h["task_total"] - h["base_total"] for h in heads["heads"]]


def test_every_view_renders_and_follows_the_language_switch(page):
    """Every view run in English, then the switch to Chinese redraws each result on screen in Chinese."""
    page.goto(f"{page.app_url}?tab=inside&lang=en")
    page.wait_for_selector("#inside-run", timeout=60_000)
    wait_opened(page)
    for view, (plot, info, words) in VIEWS.items():
        page.locator(f"#inside-view input[value='{view}']").check()
        page.locator(f"#inside-{view}").wait_for(state="visible", timeout=30_000)
        page.locator("#inside-run").click()
        page.locator(plot).first.wait_for(timeout=180_000)
        page.wait_for_function(_SAYS, arg=[info, words[0]], timeout=60_000)
        checkpoint(page, f"inside-{view}-en")
    page.get_by_role("radio", name="中文", exact=True).check()
    for view, (plot, info, words) in reversed(VIEWS.items()):
        page.locator(f"#inside-view input[value='{view}']").check()
        page.locator(f"#inside-{view}").wait_for(state="visible", timeout=30_000)
        page.wait_for_function(_SAYS, arg=[info, words[1]], timeout=60_000)
        assert page.locator(plot).first.is_visible(), f"{view}: the plot is gone after the switch"
        checkpoint(page, f"inside-{view}-zh")


_SAYS = "([box, words]) => (document.querySelector(box)?.innerText || '').includes(words)"
