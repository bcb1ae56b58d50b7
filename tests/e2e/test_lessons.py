"""The Lessons tab in Chromium: each lesson's "try it" opens the right tab with the lesson's inputs (read back through
that tab's own share link) and its result (the view's plot, drawn with data, its words in the case's language), in
English and Chinese, with a screenshot of each; phone and projector layouts."""

import json
import re
from urllib.parse import parse_qs, urlparse

import pytest

import app
from playground.lessons import LESSONS
from playground.ui.lessons import tab as lessons_tab
from playground.ui.common.i18n import t
from tests.e2e.helpers import save_screenshot, wait_opened
from tests.e2e.plot_layout import FITTED_JS, result_plot, wait_for_plot_words

LINKS = lessons_tab.lesson_links([tab_id for tab_id, _, _ in app.TABS])  # same environment as the served app (offline)
ALL_CASES = [(lesson.key, links[0]) for lesson in LESSONS if (links := [link for link in LINKS[lesson.key] if link.query])]
# One lesson per target tab (the first in course order): what the browser adds is that a try-it button opens that tab
# and its share link restores the inputs and runs the view. That every lesson's link names the target tab's own share
# parameters with values its decoder accepts, offline and with every model available, is
# tests/integration/test_lessons_links.py; the course order and link choice are tests/unit/lessons/test_lessons.py.
CASES = [case for i, case in enumerate(ALL_CASES) if case[1].tab not in {link.tab for _, link in ALL_CASES[:i]}]
SHARE = {"en": "Link to this view", "zh": "本视图的链接"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def _plain(text: str) -> str:
    return re.sub(r"[\s*_`]+", " ", text).strip()


def _same(expected, shared: str) -> bool:
    if isinstance(expected, (list, tuple)):
        return json.loads(shared) == list(expected)
    if isinstance(expected, bool):
        return shared == ("true" if expected else "false")
    if isinstance(expected, (int, float)):
        return float(shared) == float(expected)
    return shared == expected


def _shared_inputs(page, lang: str) -> dict[str, str]:
    """The visible tab's current inputs, as its own "Link to this view" button writes them."""
    button = page.locator("button:visible", has_text=SHARE[lang]).first
    button.click()
    box = button.locator("xpath=ancestor::div[contains(@class, 'row')][1]").locator("textarea, input").first
    page.wait_for_function("(el) => el.value.includes('?')", arg=box.element_handle(), timeout=10_000)
    return {k: v[0] for k, v in parse_qs(urlparse(box.input_value()).query).items()}


@pytest.mark.parametrize("index", range(len(CASES)), ids=[key for key, _ in CASES])
def test_try_it_opens_the_tab_with_the_lesson_inputs(page, index):
    key, link = CASES[index]
    lang = "zh" if index % 2 else "en"  # both languages, across the lessons
    page.goto(f"{page.app_url}?tab=lessons&lesson={key}&lang={lang}")
    button = page.locator(f"#lesson-{key}-try-0")
    button.wait_for(state="visible", timeout=60_000)
    page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
    note_shown = not link.note or _plain(t(link.note, lang))[:40] in _plain(page.locator(f"#lesson-{key}").inner_text())
    button.click()
    page.wait_for_url(lambda url: f"tab={link.tab}" in url, timeout=30_000)
    page.locator(f"button[role=tab][data-tab-id={link.tab}][aria-selected=true]").wait_for(timeout=60_000)
    page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
    for _ in range(20):  # the link restores the inputs just after load
        shared = _shared_inputs(page, lang)
        if all(name in shared and _same(value, shared[name]) for name, value in link.params.items()):
            break
        page.wait_for_timeout(1000)
    assert shared.get("tab") == link.tab and shared.get("lang") == lang
    for name, value in link.params.items():
        assert name in shared and _same(value, shared[name]), (name, value, shared.get(name))
    plot = result_plot(link.tab, link.params)
    if plot is None:  # the MLM lab: a link restores its settings and never starts a training; the lesson says so
        page.locator("#mlm-lab-train").wait_for(state="visible", timeout=30_000)
        assert page.locator("#mlm-lab-curve .scatterlayer .trace").count() == 0  # no training curve: none started
        assert link.note == "lessons.note.mlm_lab" and note_shown  # and the lesson said why
    else:
        words = wait_for_plot_words(page, plot)
        inputs = " ".join(str(v) for v in link.params.values())
        if lang == "zh":
            assert CJK.search(words), (key, words)  # the figure's own words are Chinese
        else:
            assert re.search(r"[A-Za-z]{3,}", words), (key, words)
            if not CJK.search(inputs):
                assert not CJK.search(words), (key, words)
        page.wait_for_function(FITTED_JS, timeout=30_000)
    save_screenshot(page, f"lessons-try-{key}-{lang}")


@pytest.mark.parametrize("button, lang", [(0, "zh"), (3, "en")], ids=["T=0.1 samples", "three temperatures"])
def test_exercise_2_links_show_the_samples_and_the_comparison(page, button, lang):
    """The exercise is about the samples: a temperature's link shows its three samples, the last one the comparison."""
    page.goto(f"{page.app_url}?tab=lessons&lesson=ex2&lang={lang}")
    try_it = page.locator(f"#lesson-ex2-try-{button}")
    try_it.wait_for(state="visible", timeout=60_000)
    page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
    try_it.click()
    page.locator("button[role=tab][data-tab-id=sampling][aria-selected=true]").wait_for(timeout=60_000)
    page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
    if button == 0:
        samples = page.wait_for_function(
            """(prompt) => {
              const el = document.querySelector('#sampling-generated');
              const text = el ? el.innerText : '';
              return text.split(prompt).length - 1 >= 3 && text.length > 3 * (prompt.length + 3) ? text : null;
            }""",
            arg="人工智能的未来是",
            timeout=240_000,
        ).json_value()
        page.wait_for_function("() => !document.querySelector('.pending')", timeout=240_000)  # the samples have finished
        assert page.locator("#sampling-compare-plot .js-plotly-plot").count() == 0, samples  # only what the link asked
    else:
        words = wait_for_plot_words(page, "#sampling-compare-plot")
        assert "0.1" in words and "1.5" in words, words  # one panel per temperature
    page.wait_for_function(FITTED_JS, timeout=30_000)
    save_screenshot(page, f"lessons-ex2-try-{button}-{lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_landing_page_is_the_lessons_tab_with_formulas_rendered_offline(page, lang):
    page.goto(f"{page.app_url}?lang={lang}")
    page.locator("button[role=tab][data-tab-id=lessons][aria-selected=true]").wait_for(timeout=60_000)
    page.locator("#lesson-static .katex").first.wait_for(timeout=30_000)  # KaTeX, from the app's own origin
    page.wait_for_function("(t) => document.body.innerText.includes(t)", arg="从这里开始" if lang == "zh" else "Start here")
    page.locator("#lessons-picker input[value=ex1]").check()
    page.locator("#lesson-ex1 .katex").first.wait_for(timeout=30_000)
    assert not page.locator("#lesson-static").is_visible()
    page.locator("#lessons-next").click()  # a teacher steps through the course
    page.locator("#lesson-ex2 .katex").first.wait_for(timeout=30_000)
    page.locator("#lesson-ex1").wait_for(state="hidden", timeout=10_000)
    page.locator("#lessons-previous").click()
    save_screenshot(page, f"lessons-{lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_formula_renders_with_katex_and_no_error(page, lang):
    """Adjacent raw strings once glued `\\quad` to the next letter (`\\quadM_{ij}`): KaTeX drew the formula as red source."""
    page.goto(f"{page.app_url}?tab=lessons&lang={lang}")
    page.locator("#lesson-static .katex").first.wait_for(timeout=60_000)
    wait_opened(page)  # the formulas are drawn before the link's updates end; a click before then can be undone
    for lesson in LESSONS:
        page.locator(f"#lessons-picker input[value={lesson.key}]").check()
        box = page.locator(f"#lesson-{lesson.key}")
        box.locator(".katex").first.wait_for(timeout=30_000)
        assert box.locator(".katex-error").count() == 0, (lesson.key, box.locator(".katex-error").first.inner_text())
        assert box.locator(".katex-display").count() >= 1, lesson.key  # the $$…$$ formula, drawn as display math


def test_phone_layout(browser, app_url):
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"{app_url}?tab=lessons&lesson=ex2")
    page.locator("#lesson-ex2 .katex").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1000)
    layout = page.evaluate(
        """() => {
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
    )
    assert layout["page"] <= 390, layout  # nothing widens the page
    assert layout["tabs_scroll"] and not layout["more"], layout  # tabs scroll sideways, no "⋯" menu
    assert {"Lessons", "Fill-mask", "Polysemy", "Sampling", "Attention", "Inside BERT"} <= set(layout["tab_names"]), layout
    assert layout["h1_lines"] <= layout["h1_words"] and not layout["h1_overflow"], layout  # breaks between words only
    save_screenshot(page, "lessons-phone")
    context.close()


def test_projector_mode_raises_text_and_plot_fonts(page):
    page.goto(f"{page.app_url}?tab=inside&view=params&E=128&share=true")
    page.locator("#inside-params-plot .js-plotly-plot").wait_for(timeout=180_000)
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
    save_screenshot(page, "lessons-projector")
    page.goto(f"{page.app_url}?tab=lessons")  # remembered across links
    page.wait_for_function("() => document.body.classList.contains('tp-projector')", timeout=30_000)
    assert page.locator("#tp-projector input").is_checked()
