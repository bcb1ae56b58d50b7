"""The Attention tab through its `/attention` API and in Chromium, offline on the bundled models."""

from urllib.parse import quote

import numpy as np

from playground.figures import attention as figs
from tests.e2e.helpers import checkpoint, recording_page
from tests.e2e.plot_layout import PLOTS_SAY_JS

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


# Records the attention hint's text the first time it shows Gradio's progress (`.pending`), from a MutationObserver set
# before the click: it sees every change of the tab, so no window between two looks can hide a short run.
HINT_WHILE_PENDING_JS = """() => {
  window.tpHintWhilePending = null;
  const look = () => {
    const hint = document.querySelector('#attention-hint');
    if (!window.tpHintWhilePending && hint && (hint.matches('.pending') || hint.querySelector('.pending'))) {
      window.tpHintWhilePending = hint.innerText + '|';
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def test_a_run_shows_progress_follows_the_language_switch_and_a_thumbnail_opens(page):
    """One attention page, step by step:

    1. In Chinese, a new sentence is run: while it is on its way the hint no longer says "press Run" (按).
    2. The head plot is drawn in Chinese (键（被关注）); the switch to English redraws it ("key (attended to)", no
       Chinese left), and the info names MiniLM.
    3. The model overview shows the thumbnails; clicking layer 1, head 2 opens that head in the head view.
    4. The switch back to Chinese redraws that head in Chinese, with no English left (a result on screen follows the
       language switch both ways).
    """
    page.goto(f"{page.app_url}?tab=attention&lang=zh")
    page.locator("#attention-run").wait_for(timeout=60_000)
    page.get_by_label("句子（A）").fill("A sentence nobody has run before, so the model has to work.")
    # The hint's text recorded by the page itself the moment its progress shows: a warm model answers in well under a
    # second, and a look after the click (even polled every frame) could come after the answer (it timed out so).
    page.evaluate(HINT_WHILE_PENDING_JS)
    page.locator("#attention-run").click()
    text = page.wait_for_function("() => window.tpHintWhilePending", timeout=30_000).json_value()
    assert "按" not in text, text  # "press Run" is not what the student reads while it runs
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=180_000)
    page.wait_for_function(PLOTS_SAY_JS, arg=["键（被关注）", None], timeout=120_000)
    page.get_by_label("English").check()
    page.wait_for_function(PLOTS_SAY_JS, arg=["key (attended to)", "键（被关注）"], timeout=60_000)
    page.wait_for_function("document.querySelector('#attention-info').innerText.toLowerCase().includes('minilm')", timeout=30_000)
    checkpoint(page, "attention-head")
    page.locator("#attention-view label").filter(has_text="Model overview").click()
    overview = page.locator("#attention-overview img")
    overview.wait_for(timeout=60_000)
    checkpoint(page, "attention-overview")
    box = overview.bounding_box()
    left, top = figs.OVERVIEW_LEFT, figs.OVERVIEW_TOP  # the layer and head numbers' margins
    scale = box["width"] / (left + 12 * 36 - 4)  # MiniLM: 12 heads of 32-pixel thumbnails with 4-pixel gaps
    overview.click(position={"x": (left + 2 * 36 + 16) * scale, "y": (top + 1 * 36 + 16) * scale})  # layer 1, head 2
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=60_000)
    page.wait_for_function("document.querySelector(\"#attention-view input[value='head']\").checked", timeout=30_000)
    assert "Layer 1, head 2" in page.locator("#attention-plot").inner_text(timeout=30_000)
    checkpoint(page, "attention-opened")
    page.get_by_role("radio", name="中文", exact=True).check()
    page.wait_for_function(PLOTS_SAY_JS, arg=["键（被关注）", "key (attended to)"], timeout=60_000)


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
    """The issue: a link with layer 3, head 7 opened at layer 0, head 0. It must open there, and show that head.

    The share button's link, opened fresh, shows the same matrix; on that fresh page the figure then follows the
    keyboard: ArrowRight on the layer slider opens layer 4, a head typed and confirmed (3) opens head 3."""
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
    # A keyboard change of the sliders redraws the figure: the arrow key moves the layer, a typed head is confirmed
    layer = fresh.locator("#attention-sliders input[type=range]").first
    layer.focus()
    layer.press("ArrowRight")
    fresh.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 4, head 7')", timeout=60_000)
    box = fresh.locator("#attention-sliders input[type=number]").nth(1)  # the head: a number typed and confirmed
    box.fill("3")
    box.press("Enter")
    fresh.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 4, head 3')", timeout=60_000)
    values = fresh.locator("#attention-sliders input[type=number]").evaluate_all("els => els.map(e => e.value)")
    assert values[:2] == ["4", "3"]  # the controls and the title agree
    fresh.close()


def _record(page) -> None:
    """Count the page's queued requests from inside it (fetch wrapper, installed before the app starts)."""
    page.add_init_script(
        """(() => { const f = window.fetch; window.__joins = [];
             window.fetch = (url, opts) => { if (String(url).includes('/queue/join'))
               window.__joins.push((opts && opts.body) ? String(opts.body).slice(0, 200) : String(url));
               return f(url, opts); }; })()"""
    )


def test_a_fresh_chinese_share_link_is_one_request_and_flags_unknown_tokens(browser, app_url):
    """A fresh share link of a non-default attention view (entropy, layer 2, head 1), in a Chinese browser, on a
    Chinese sentence MiniLM cannot read:

    1. it takes exactly one queued request (language, tab, inputs and the view together) and one run, and the
       sliders read layer 2, head 1;
    2. the info says which tokens the model does not know (不认识, 银, [UNK]), rendered (no Markdown `**` left);
    3. the head view (no model call) is the link's layer 2, head 1 (its title), and labels the unknown token
       "[UNK] (银)" on its axes, beside the 句子（A） box.
    """
    context, page, outside = recording_page(browser, app_url, locale="zh-CN", viewport={"width": 1400, "height": 1000})
    _record(page)
    text = quote("我在银行存钱")
    page.goto(f"{app_url}?tab=attention&view=entropy&layer=2&head=1&lang=zh&model=minilm&text={text}")
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=180_000)
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=60_000)
    page.wait_for_timeout(1500)  # not a wait for something: anything a cascade would still send has been sent by now
    joins = page.evaluate("() => window.__joins || []")
    assert len(joins) == 1, joins  # one queued event: the link's (language, tab, inputs and the view together)
    values = page.locator("#attention-sliders input[type=number]").evaluate_all("els => els.map(e => e.value)")
    assert values[:2] == ["2", "1"]  # the entropy view shows every layer and head: the head view below names them
    checkpoint(page, "links-fresh-attention-zh")
    page.wait_for_function("document.querySelector('#attention-info').innerText.includes('不认识')", timeout=60_000)
    info = page.locator("#attention-info").inner_text()
    assert "银" in info and "[UNK]" in info and "**" not in info
    page.locator("#attention-view input[value='head']").check()
    page.wait_for_function("document.querySelector('#attention-plot').innerText.includes('[UNK] (银)')", timeout=60_000)
    assert "第 2 层，第 1 个头" in page.locator("#attention-plot").inner_text()  # the link's layer and head, drawn
    page.wait_for_function("document.body.innerText.includes('句子（A）')", timeout=60_000)
    page.wait_for_function("!document.querySelector('#attention-plot .pending, #attention-info .pending')", timeout=60_000)
    checkpoint(page, "attention-unknown-zh")
    context.close()
    assert not outside


def test_a_slider_drag_redraws_in_the_browser_with_no_request_and_as_the_server_draws(page):
    """Layer, head and query are redrawn from the maps the figure brought (assets/attention_redraw.js): a drag sends
    nothing to the server, and the browser's token view for layer 2 / head 4 equals the server's own for them."""
    from urllib.parse import urlencode

    text = "The animal didn't cross the street because it was too tired."
    params = {"tab": "attention", "model": "minilm", "text": text, "view": "tokens", "layer": "1", "head": "1"}
    page.goto(f"{page.app_url}?{urlencode(params)}")
    plot = page.locator("#attention-plot .js-plotly-plot")
    plot.wait_for(timeout=120_000)
    page.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 1, head 1')")
    sent = []
    page.on("request", lambda request: sent.append(request.url))
    for index, presses in ((0, 1), (1, 3)):  # layer 1 -> 2, head 1 -> 4, one key press (one redraw) at a time
        slider = page.locator("#attention-sliders input[type=range]").nth(index)
        slider.focus()
        for _ in range(presses):
            slider.press("ArrowRight")
    page.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 2, head 4')")
    page.wait_for_timeout(500)  # past the 250 ms a view without maps waits before it asks the server
    assert sent == []  # not one request for four redraws
    print(f"attention redraw: {page.evaluate('document.documentElement.dataset.tpRedrawMs')} ms")  # bench/RESULTS.md
    lines = "el => el.data.filter(t => t.mode === 'lines' && t.visible === true).map(t => [t.legendgroup, t.x, t.y])"
    drawn = plot.evaluate(lines)
    page.locator("#attention-run").click()  # the server draws the same layer and head
    page.wait_for_function(
        "() => { const gd = document.querySelector('#attention-plot .js-plotly-plot');"
        " return gd && gd.layout.meta && gd.layout.meta.tp.layer === 2 && gd.layout.meta.tp.head === 4; }"
    )
    assert plot.evaluate(lines) == drawn and drawn and drawn[0][0] == "head4"
