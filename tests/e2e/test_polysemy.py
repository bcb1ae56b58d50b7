"""Polysemy tab in the running app: the /polysemy endpoint, and the plots rendering in Chromium."""

import io
import json
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlparse

import pytest
from PIL import Image

from tests.e2e.helpers import checkpoint, open_tab, recording_page
from tests.e2e.plot_layout import FITTED_JS, PLOTS_SAY_JS

PRESETS = json.loads((Path(__file__).parents[2] / "assets" / "polysemy" / "presets.json").read_text(encoding="utf-8"))
PRESET = PRESETS["bank"]


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


# A plot on the page shows `words` and no plot shows `gone` (the switch redraws the kept result: both at once).
def test_plots_render_and_language_switches(page):
    """The default comparison: its three plots draw (the heatmap with its layer), the reading names MiniLM and the
    scatter's title is "Where each sentence puts the word"; the switch to Chinese relabels the Run button (比较) and
    redraws the result on screen in Chinese (每个句子中该词向量的位置), with no English title left."""
    open_tab(page, "polysemy")
    page.locator("#polysemy-run").click()
    for plot in ("#polysemy-scatter", "#polysemy-heatmap", "#polysemy-curve"):
        page.wait_for_selector(f"{plot} .js-plotly-plot", timeout=240_000)
    assert page.locator("#polysemy-heatmap .heatmaplayer").count() >= 1
    assert "MiniLM" in page.locator("#polysemy-reading").inner_text()
    page.wait_for_function(PLOTS_SAY_JS, arg=["Where each sentence puts the word", None], timeout=120_000)
    checkpoint(page, "polysemy")
    page.get_by_role("radio", name="中文", exact=True).first.check()
    page.wait_for_function("document.querySelector('#polysemy-run').innerText.includes('比较')", timeout=30_000)
    page.wait_for_function(PLOTS_SAY_JS, arg=["每个句子中该词向量的位置", "Where each sentence puts the word"], timeout=60_000)


PAYLOAD = '<svg><a href="javascript:alert(1)"><text x=5 y=20>open</text></a></svg>'


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"layer": "abc"}, "layer must be 'last' or a whole number"),
        ({"dims": 2.5}, "dims must be a whole number from 2 to 3"),
        ({"models": "minilm"}, "list of at most 12 model keys"),
        ({"word": 5}, "must be text"),
        ({"input_embeddings": "yes"}, "true or false"),
    ],
)
def test_api_refuses_wrong_types_clearly(client, changes, message):
    from gradio_client.exceptions import AppError

    args = dict(word="bank", sentences="a | the bank .\nb | a bank .", models=["minilm"], input_embeddings=True)
    args |= dict(layer="last", pooling="mean", projection="pca", dims=2, lang="en")
    with pytest.raises(AppError) as err:
        client.predict(*{**args, **changes}.values(), api_name="/polysemy")
    assert message in str(err.value) and "upstream" not in str(err.value).lower()


def _link(page, **params):
    return f"{page.app_url}?{urlencode({'tab': 'polysemy', **params})}"


def test_a_non_default_share_link_restores_and_runs_the_same_view(page, client):
    run = PRESETS["run"]
    params = {
        "example": "run",
        "word": run["word"],
        "sentences": "\n".join(run["sentences"]),
        "models": json.dumps(["minilm"]),
        "input_embeddings": "false",
        "layer": "3",
        "pooling": "first",
        "projection": "pca",
        "dims": "2",
        "lang": "en",
    }
    page.goto(_link(page, **params))
    page.wait_for_selector("#polysemy-scatter .js-plotly-plot", timeout=240_000)
    reading = page.locator("#polysemy-reading").inner_text()
    expected = client.predict(
        run["word"], params["sentences"], ["minilm"], False, "3", "first", "pca", 2, "en", api_name="/polysemy"
    )
    (view,) = expected["models"]
    accuracy = view["nn_accuracy_by_layer"]
    assert view["layer"] == 3 and f"{accuracy[-1]:.0%}" in reading and f"{max(accuracy):.0%}" in reading  # as the API
    assert page.locator("#polysemy-scatter").inner_text().count("layer 3") == 1  # one panel (no input rows), layer 3
    checkpoint(page, "polysemy-link")
    page.locator("button:visible", has_text="Link to this view").first.click()
    page.wait_for_function(
        "[...document.querySelectorAll('textarea, input')].some(e => e.value.includes('tab=polysemy'))", timeout=30_000
    )
    link = page.evaluate(
        "[...document.querySelectorAll('textarea, input')].map(e => e.value).find(v => v.includes('tab=polysemy'))"
    )
    shared = dict(parse_qsl(urlparse(link).query))
    assert {k: shared.get(k) for k in params} == params  # every input round-trips, the example-set name included

    page.get_by_role("radio", name="中文", exact=True).first.check()
    page.wait_for_function("document.querySelector('#polysemy-run').innerText.includes('比较')", timeout=30_000)
    page.wait_for_function("document.querySelector('#polysemy-scatter').innerText.includes('第 3 层')", timeout=30_000)
    scatter = page.locator("#polysemy-scatter").inner_text()
    assert "layer" not in scatter and "bundled" not in scatter
    checkpoint(page, "polysemy-link-zh")


def test_a_payload_word_shows_as_text_and_never_as_a_link(page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(_link(page, word=PAYLOAD, layer=PAYLOAD))
    page.wait_for_selector("#polysemy-run", timeout=60_000)
    page.locator("#polysemy-run").click()
    page.wait_for_function("document.body.innerText.includes('occurs in none of the sentences')", timeout=60_000)
    for anchor in page.locator("a").all():
        anchor.click(timeout=2_000, force=True, no_wait_after=True) if anchor.is_visible() else None
    assert not dialogs
    assert (
        page.evaluate("[...document.querySelectorAll('[href]')].filter(e => /javascript:/i.test(e.getAttribute('href'))).length")
        == 0
    )
    assert "<svg>" in page.locator("body").inner_text()  # shown as text


# Each 3-D panel's box on the page (its scene's domain in the plot area), in CSS px of the viewport.
SCENE_BOXES_JS = """() => {
  const gd = document.querySelector('#polysemy-scatter .js-plotly-plot');
  const full = gd._fullLayout, s = full._size, box = gd.querySelector('.main-svg').getBoundingClientRect();
  return Object.keys(full).filter((k) => /^scene\\d*$/.test(k)).map((k) => {
    const d = full[k].domain;
    return [box.left + s.l + d.x[0] * s.w, box.top + s.t + (1 - d.y[1]) * s.h,
            box.left + s.l + d.x[1] * s.w, box.top + s.t + (1 - d.y[0]) * s.h];
  });
}"""


# The plot's drawn width equals its container's: after a viewport change, plotly has laid the scenes out again.
LAID_OUT_JS = """(before) => { const gd = document.querySelector('#polysemy-scatter .js-plotly-plot');
  const w = gd.querySelector('.main-svg').getBoundingClientRect().width;
  return w !== before && Math.abs(w - gd.getBoundingClientRect().width) <= 1; }"""
WIDTH_JS = "() => document.querySelector('#polysemy-scatter .js-plotly-plot .main-svg').getBoundingClientRect().width"


def _panel_clearances(page, width: int) -> list[int]:
    """Per 3-D panel, how many px the WebGL drawing keeps clear of the panel's nearest edge (from a screenshot)."""
    page.locator("#polysemy-scatter").scroll_into_view_if_needed()
    page.wait_for_timeout(1000)  # WebGL draws after the layout settles; no event says it is done
    boxes = page.evaluate(SCENE_BOXES_JS)
    assert len(boxes) == 3  # MiniLM, its input embeddings, GloVe
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    checkpoint(page, f"polysemy-3d-{width}")
    clearances = []
    for box in boxes:
        panel = shot.crop(tuple(round(v) for v in box))
        w, h = panel.size
        px = panel.load()
        ink = [(x, y) for x in range(w) for y in range(h) if max(255 - c for c in px[x, y]) > 16]  # grid lines count
        assert ink, "nothing drawn in a 3-D panel"
        xs, ys = [x for x, _ in ink], [y for _, y in ink]
        clearances.append(min(min(xs), min(ys), w - 1 - max(xs), h - 1 - max(ys)))
    return clearances


def test_3d_panels_are_drawn_whole_inside_their_boxes(browser, app_url):
    """The 3-D projection's cube and labels were cut at the panels' edges: what WebGL drew (not in the SVG, so only
    pixels tell) keeps clear of every edge of every panel, on a wide screen (1440 px) and, on the same page after
    the window narrows, on a laptop's (1024 px: plotly lays the scenes out again, in smaller panels)."""
    context, page, outside = recording_page(browser, app_url, viewport={"width": 1440, "height": 900})
    try:
        sentences = "\n".join(PRESET["sentences"])
        page.goto(_link(page, word=PRESET["word"], sentences=sentences, models=json.dumps(["minilm", "glove"]), dims="3"))
        page.wait_for_function(
            "() => { const g = document.querySelector('#polysemy-scatter .js-plotly-plot'); return g && g._fullLayout.scene; }",
            timeout=240_000,
        )
        page.wait_for_function("() => !document.querySelector('.pending')", timeout=240_000)
        for width in (1440, 1024):
            if width != 1440:
                before = page.evaluate(WIDTH_JS)
                page.set_viewport_size({"width": width, "height": 900})
                page.wait_for_function(LAID_OUT_JS, arg=before, timeout=30_000)
                page.wait_for_function(FITTED_JS, timeout=30_000)
            clearances = _panel_clearances(page, width)
            assert min(clearances) >= 4, (width, clearances)  # plotly's default camera left 1 px at the bottom
    finally:
        context.close()
    assert not outside, outside[:5]


def test_another_layer_and_pca_redraw_in_the_browser_with_no_request_and_as_the_server_draws(page):
    """Issue 31: the layer menu and the projection redraw from every layer the cosine figure brought
    (assets/polysemy_redraw.js): no request, and the browser's points, cosines, reading and scores for layer 3
    equal the server's own for layer 3."""
    params = {"word": PRESET["word"], "sentences": "\n".join(PRESET["sentences"]), "models": json.dumps(["minilm", "glove"])}
    page.goto(_link(page, **params))
    page.locator("#polysemy-scatter .js-plotly-plot").wait_for(timeout=240_000)
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=60_000)
    page.wait_for_timeout(1000)  # the link's run has settled (nothing measured here)
    sent = []
    page.on("request", lambda request: sent.append(request.url))
    menu = page.get_by_label("Layer to plot")
    menu.click()
    page.get_by_role("option", name="3", exact=True).click()
    page.wait_for_function("document.querySelector('#polysemy-heatmap').innerText.includes('layer 3')", timeout=30_000)
    page.wait_for_timeout(600)  # past the 250 ms a redraw the browser cannot do waits before it asks the server
    assert sent == []  # the menu answered in the browser
    print(f"polysemy redraw: {page.evaluate('document.documentElement.dataset.tpRedrawMs')} ms")  # bench/RESULTS.md
    drawn_js = "el => el.data.map(t => [t.x, t.y, t.z])"
    scatter, heat = page.locator("#polysemy-scatter .js-plotly-plot"), page.locator("#polysemy-heatmap .js-plotly-plot")
    drawn = (scatter.evaluate(drawn_js), heat.evaluate("el => el.data.map(t => t.z)"))
    reading = page.locator("#polysemy-reading").inner_text()
    page.locator("#polysemy-run").click()  # the server draws layer 3
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=120_000)
    page.wait_for_timeout(500)
    assert len(sent) > 0  # (the button is a request: the redraw above was not)
    again = (scatter.evaluate(drawn_js), heat.evaluate("el => el.data.map(t => t.z)"))
    assert again[1] == drawn[1] and drawn[1]
    for mine, theirs in zip(drawn[0], again[0]):  # the browser's points are the server's, sent to 5 decimals
        for axis, other in zip(mine, theirs):
            assert (axis is None) == (other is None) and (axis is None or axis == pytest.approx(other, abs=1e-4))
    assert page.locator("#polysemy-reading").inner_text() == reading
