"""The Lessons tab in Chromium: the landing page and every lesson's formulas (English, then Chinese), phone and
projector layouts. Each lesson's "try it" is checked on the classroom's phone pages (tests/e2e/test_classroom.py)."""

from playground.lessons import LESSONS
from tests.e2e.helpers import checkpoint, lesson_card, recording_page, wait_for_tab, wait_opened
from tests.e2e.plot_layout import FITTED_JS


def test_landing_page_is_the_lessons_tab_with_every_formula_rendered_offline(page):
    """The landing page in English, then every lesson's formulas; then the same page in Chinese. Adjacent raw strings
    once glued `\\quad` to the next letter (`\\quadM_{ij}`): KaTeX drew the formula as red source.
    Steps: Lessons is the landing tab, its first lesson drawn with KaTeX from the app's own origin and "Start here"
    shown; a lesson picked, next and previous step through the course; every lesson has formulas, none in error, and
    a display formula. Then 中文: 从这里开始 shown, and the open lesson, redrawn in Chinese, has its formulas drawn with
    none in error. (The formulas are one string for both languages, playground/ui/lessons/tab.py, and the inline ones
    in the lesson texts are the same in both: the English loop covers the Chinese lessons' formulas.)"""
    page.goto(page.app_url)
    wait_for_tab(page, "lessons")
    lesson_card(page, "static")  # the first lesson, KaTeX from the app's own origin
    page.wait_for_function("(t) => document.body.innerText.includes(t)", arg="Start here")
    wait_opened(page)  # the formulas are drawn before the link's updates end; a click before then can be undone
    page.locator("#lessons-picker input[value=ex1]").check()
    lesson_card(page, "ex1")
    page.locator("#lessons-next").click()  # a teacher steps through the course
    lesson_card(page, "ex2")
    page.locator("#lessons-previous").click()
    lesson_card(page, "ex1")
    checkpoint(page, "lessons-en")
    for lesson in LESSONS:
        page.locator(f"#lessons-picker input[value={lesson.key}]").check()
        box = lesson_card(page, lesson.key)
        assert box.locator(".katex-error").count() == 0, (lesson.key, box.locator(".katex-error").first.inner_text())
        assert box.locator(".katex-display").count() >= 1, lesson.key  # the $$…$$ formula, drawn as display math

    last = LESSONS[-1].key  # still open: the switch redraws it in Chinese
    page.locator(".tp-lang input[value=zh]").check()
    page.wait_for_function("(t) => document.body.innerText.includes(t)", arg="从这里开始", timeout=30_000)
    box = lesson_card(page, last, "zh")
    assert box.locator(".katex-error").count() == 0, (last, box.locator(".katex-error").first.inner_text())
    assert box.locator(".katex-display").count() >= 1, last
    checkpoint(page, "lessons-zh")


PHONE_LAYOUT_JS = """() => {
    const tabs = document.querySelector('.tab-wrapper');
    const h1 = document.querySelector('.tp-header h1');
    const words = h1.innerText.split(/\\s+/);
    return {
        page: document.documentElement.scrollWidth,
        tabs_scroll: tabs.scrollWidth > tabs.clientWidth,
        tab_names: [...tabs.querySelectorAll('button')].filter(b => b.offsetParent !== null).map(b => b.innerText),
        more: [...tabs.querySelectorAll('button[aria-label="More tabs"]')].some(b => b.offsetParent !== null),
        h1_lines: Math.round(h1.getBoundingClientRect().height / parseFloat(getComputedStyle(h1).lineHeight)),
        h1_words: words.length,
        h1_overflow: h1.scrollWidth > h1.clientWidth,
    };
}"""
# The chip of the open lesson lies inside the window (the picker's row scrolls sideways on a phone)
CHIP_IN_VIEW_JS = """(key) => { const l = document.querySelector(`#lessons-picker input[value='${key}']`).closest('label');
  const r = l.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth + 1; }"""


def test_phone_lessons_first_screen_and_layout(browser, app_url):
    """One phone page (390x844). A Chinese link to exercise 3: the open lesson's title is on the first screen and the
    chip row scrolled to its chip. Then English, exercise 2 (a display formula): nothing widens the page, the tabs
    scroll sideways with no "More" menu and show their English names, the title breaks between words only."""
    context, page, outside = recording_page(browser, app_url, viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{app_url}?tab=lessons&lesson=ex3&lang=zh")
        card = lesson_card(page, "ex3", "zh", timeout=60_000).locator("h2")
        assert card.bounding_box()["y"] < 844  # the open lesson's title is on the first screen
        page.wait_for_function(CHIP_IN_VIEW_JS, arg="ex3", timeout=30_000)  # the chip row scrolled to the open lesson
        assert page.locator("#lessons-picker input[value='ex3']").locator("xpath=ancestor::label[1]").is_visible()
        checkpoint(page, "walkthrough-phone-lesson-zh")

        wait_opened(page)  # a click before the link's updates end can be undone
        page.locator(".tp-lang input[value=en]").check()
        page.locator("#lessons-picker input[value=ex2]").check()
        lesson_card(page, "ex2", timeout=60_000)
        # the header and the tab row relabelled in English (what the measurements read)
        page.wait_for_function(
            "() => !/[\\u4e00-\\u9fff]/.test(document.querySelector('.tp-header h1').innerText)"
            " && document.querySelector('.tab-wrapper').innerText.includes('Inside BERT')",
            timeout=30_000,
        )
        layout = page.evaluate(PHONE_LAYOUT_JS)
        assert layout["page"] <= 390, layout  # nothing widens the page
        assert layout["tabs_scroll"] and not layout["more"], layout  # tabs scroll sideways, no "⋯" menu
        tabs = {"Lessons", "Fill-mask", "Polysemy", "Sampling", "Attention", "Inside BERT"}
        assert tabs <= set(layout["tab_names"]), layout
        assert layout["h1_lines"] <= layout["h1_words"] and not layout["h1_overflow"], layout  # breaks between words only
        checkpoint(page, "lessons-phone")
    finally:
        context.close()
    assert not outside, outside[:5]


def test_projector_mode_raises_text_and_plot_fonts(page):
    """An Inside BERT link restores and runs its view (the plot drawn, the info names E=64); projector mode on raises
    the plot's, the prose's and the labels' fonts; the mode is remembered across a link."""
    page.goto(f"{page.app_url}?tab=inside&view=params&E=64&share=none")
    page.locator("#inside-params-plot .js-plotly-plot").wait_for(timeout=180_000)
    assert "E=64" in page.locator("#inside-params-info").inner_text(timeout=30_000)  # the link's E, restored and run
    page.locator("#tp-projector input").check()
    page.wait_for_function("() => document.body.classList.contains('tp-projector')")
    page.wait_for_function(FITTED_JS, timeout=60_000)  # Plotly has laid the plot out again (assets/plot_fit.js)
    sizes = page.evaluate(
        """() => {
        const px = (el) => parseFloat(getComputedStyle(el).fontSize);
        const plot = [...document.querySelectorAll('#inside-params-plot .js-plotly-plot text')].map(px);
        const prose = [...document.querySelectorAll('.prose p')].filter(p => p.offsetParent !== null).map(px);
        const labels = [...document.querySelectorAll('label span, button')].filter(e => e.offsetParent !== null).map(px);
        return {plot: Math.min(...plot), prose: Math.min(...prose), labels: Math.min(...labels)};
    }"""
    )
    assert sizes["plot"] >= 16 and sizes["prose"] >= 16 and sizes["labels"] >= 14, sizes
    checkpoint(page, "lessons-projector")
    page.goto(f"{page.app_url}?tab=lessons")  # remembered across links
    page.wait_for_function("() => document.body.classList.contains('tp-projector')", timeout=30_000)
    assert page.locator("#tp-projector input").is_checked()
