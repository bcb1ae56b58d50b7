"""Text to text (T5) in the browser: a link runs the classroom T5 offline; a student clicks a decoder step and sees
what it wrote, its distribution and where it looked in the source, then switches the three attention families, all
with no request to the server; in Chinese on a phone the view speaks Chinese and nothing widens the page. The facts
(greedy = generate, causal decoder, rows summing to 1) are unit-tested on a tiny T5."""

from __future__ import annotations

from urllib.parse import urlencode


from tests.e2e.helpers import checkpoint, recording_page

VIEW = "#t5-view"


# the bundled classroom T5 (no hub in the e2e tier); a training sentence it translates (docs/models.md)
ZH_EN = "translate Chinese to English: 我想喝一杯茶。"


def open_run(page, **params) -> None:
    page.goto(f"{page.app_url}?{urlencode({'tab': 't5', 'model': 't5-classroom', **params})}")
    page.locator(f"{VIEW} .tp-t5-stepper").wait_for(timeout=180_000)


def test_a_step_its_distribution_its_source_and_the_three_families_switch_in_the_browser(page):
    open_run(page, text=ZH_EN, max_new_tokens=12)
    checkpoint(page, "t5-en")
    source = page.locator(f"{VIEW} .tp-t5-chips").nth(1).inner_text()
    assert "茶" in source and "</s>" in source  # the encoder's pieces, its end token shown as text
    sent = []
    page.on("request", lambda request: sent.append(request.url))
    steps = page.locator(f"{VIEW} .tp-t5-chips").first.locator("button")
    if steps.count() > 1:
        steps.nth(1).click()
        assert "Step 2 of" in page.locator(f"{VIEW} .tp-t5-stepper").inner_text()
    shares = page.locator(f"{VIEW} .tp-t5-chips").nth(1).locator("small").all_inner_texts()
    assert abs(sum(float(s.split()[0]) for s in shares) - 100) < 1.5  # the step's cross-attention shares out 100 %
    page.locator(f"{VIEW} .tp-t5-stage[data-stage='raw']").click()
    assert page.locator(f"{VIEW} .tp-t5-bar.tp-t5-marked").count() == 1  # the chosen token among the bars
    for family in ("encoder", "decoder", "cross"):
        page.locator(f"{VIEW} .tp-t5-family[data-family='{family}']").click()
        assert page.locator(f"{VIEW} .tp-t5-family[data-family='{family}']").get_attribute("aria-checked") == "true"
        assert page.locator(f"{VIEW} svg.tp-t5-heat rect").count() > 0
    page.locator(f"{VIEW} select.tp-t5-head").select_option("1")
    assert "head 1" in page.locator(f"{VIEW}").inner_text()
    print(f"t5 redraw: {page.evaluate('document.documentElement.dataset.tpT5Ms')} ms")
    assert sent == []  # step, stage, three families and a head: not one request


def test_the_encoder_decoder_lesson_on_a_phone_in_chinese(browser, app_url):
    from playground.availability import available_specs
    from playground.lessons import LESSONS, resolve

    lesson = next(lesson for lesson in LESSONS if lesson.key == "encdec")
    keys = [spec.key for spec in available_specs()]
    link = resolve(lesson.tries[0], keys, ["t5"], keys)
    assert link.query, "the encoder-decoder lesson has no offline link"
    context, page, outside = recording_page(browser, app_url, viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{app_url}?{link.query}&lang=zh")
        page.locator(f"{VIEW} .tp-t5-stepper").wait_for(timeout=180_000)
        checkpoint(page, "t5-zh-phone")
        text = page.locator(VIEW).inner_text()
        assert "第 1 步" in text and "交叉注意力" in text
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390 + 1, width  # the heat map scrolls inside its box, the page does not widen
        assert outside == []
    finally:
        context.close()
