"""One forward pass in the browser: a link opens the pass, and stage, layer, head and temperature switch with no
request to the server; in Chinese on e5-mlm the tokens read as Chinese (the facts are unit- and integration-tested)."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.e2e.helpers import checkpoint, recording_page

VIEW = "#forward-view"


def open_pass(page, **params) -> None:
    page.goto(f"{page.app_url}?{urlencode({'tab': 'forward', **params})}")
    page.locator(f"{VIEW} .tp-fw-main").wait_for(timeout=180_000)


def test_stage_layer_head_and_temperature_switch_in_the_browser(page):
    open_pass(page, model="minilm-mlm", text="The capital of France is [MASK].")
    checkpoint(page, "forward-en")
    assert "6·[MASK]" in page.locator(f"{VIEW} .tp-fw-token.tp-fw-marked").inner_text()  # the blank is followed
    sent = []
    page.on("request", lambda request: sent.append(request.url))
    page.locator(f"{VIEW} .tp-fw-next").click()
    page.locator(f"{VIEW} .tp-fw-next").click()
    assert "Block 2" in page.locator(f"{VIEW} .tp-fw-block h4").inner_text()
    page.locator(f"{VIEW} .tp-fw-stage", has_text="Attention weights").click()
    page.locator(f"{VIEW} .tp-fw-headbtn[data-head='5']").click()
    assert "head 5" in page.locator(f"{VIEW} .tp-fw-detail").inner_text()
    shares = page.locator(f"{VIEW} .tp-fw-detail .tp-fw-bar-value").all_inner_texts()
    assert abs(sum(float(s.split()[0]) for s in shares) - 100) < 1  # the row shares out the token's attention
    page.locator(f"{VIEW} .tp-fw-stage", has_text="W^O").click()
    assert "(h·d_v) × d_model" in page.locator(f"{VIEW} .tp-fw-detail").inner_text()
    first = page.locator(f"{VIEW} .tp-fw-output .tp-fw-bar-value").first.inner_text()
    page.locator(f"{VIEW} .tp-fw-temperature").fill("0.3")  # a sharper distribution: the top token gains
    assert float(page.locator(f"{VIEW} .tp-fw-output .tp-fw-bar-value").first.inner_text().split()[0]) > float(first.split()[0])
    print(f"forward redraw: {page.evaluate('document.documentElement.dataset.tpForwardMs')} ms")  # bench/RESULTS.md
    assert sent == []  # four clicks and a slider: not one request


def test_a_chinese_sentence_on_e5_reads_as_chinese(page):
    open_pass(page, model="e5-mlm", text="我爱自然[MASK]处理。", lang="zh")
    checkpoint(page, "forward-zh")
    tokens = page.locator(f"{VIEW} .tp-fw-tokens").inner_text()
    assert "自然" in tokens or "自" in tokens
    assert "[UNK]" not in tokens and "<unk>" not in tokens
    assert "第 0 块" in page.locator(f"{VIEW} .tp-fw-block h4").inner_text()  # the view speaks the page's language


def test_the_block_lessons_link_on_a_phone_in_chinese(browser, app_url):
    """The lesson's first try-it (what its button opens) on a 390 px phone in Chinese: the pass is drawn in Chinese,
    nothing widens the page, the diagram stacks above the chosen stage."""
    from playground.lessons import LESSONS, resolve
    from playground.availability import available_specs

    lesson = next(lesson for lesson in LESSONS if lesson.key == "block")
    keys = [spec.key for spec in available_specs()]
    link = resolve(lesson.tries[0], keys, ["forward"], keys)
    assert link.query, "the block lesson has no offline link"
    context, page, outside = recording_page(browser, app_url, viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{app_url}?{link.query}&lang=zh")
        page.locator(f"{VIEW} .tp-fw-main").wait_for(timeout=180_000)
        checkpoint(page, "forward-phone-zh")
        assert "第 0 块" in page.locator(f"{VIEW} .tp-fw-block h4").inner_text()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, width  # nothing widens the page
        diagram, detail = (page.locator(f"{VIEW} {part}").bounding_box() for part in (".tp-fw-diagram", ".tp-fw-detail"))
        assert detail["y"] >= diagram["y"] + diagram["height"] - 1  # stacked, not squeezed side by side
    finally:
        context.close()
    assert not outside, outside[:5]
