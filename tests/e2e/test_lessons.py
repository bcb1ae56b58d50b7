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
from tests.e2e.helpers import save_screenshot, wait_for_tab, wait_opened
from tests.e2e.plot_layout import FITTED_JS, MARK_DRAWN_JS, NEW_PLOT_JS, result_plot, wait_for_plot_words

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


def _try_it(page, key: str, index: int, lang: str, tab: str) -> str:
    """Click a lesson's try-it button on this page (the Lessons tab, the lesson, the button): the link opens `tab` in
    place. The lesson's text as it was shown before the click."""
    page.locator("button[role=tab][data-tab-id=lessons]").click()
    wait_for_tab(page, "lessons")
    page.locator(f"#lessons-picker input[value={key}]").check()
    box = page.locator(f"#lesson-{key}")
    box.wait_for(state="visible", timeout=30_000)
    text = box.inner_text()
    page.evaluate(MARK_DRAWN_JS)
    page.locator(f"#lesson-{key}-try-{index}").click()
    wait_for_tab(page, tab)
    page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
    return text


def _check_try_it(page, key: str, link, lang: str) -> None:
    """One lesson's first try-it, opened in place: its tab, its inputs (read back through the tab's share button), its
    result."""
    text = _try_it(page, key, 0, lang, link.tab)
    note_shown = not link.note or _plain(t(link.note, lang))[:40] in _plain(text)
    page.wait_for_url(lambda url: f"tab={link.tab}" in url, timeout=30_000)
    for _ in range(20):  # the link restores the inputs just after it opened the tab
        shared = _shared_inputs(page, lang)
        if all(name in shared and _same(value, shared[name]) for name, value in link.params.items()):
            break
        page.wait_for_timeout(1000)
    assert shared.get("tab") == link.tab and shared.get("lang") == lang, (key, shared)
    for name, value in link.params.items():
        assert name in shared and _same(value, shared[name]), (key, name, value, shared.get(name))
    plot = result_plot(link.tab, link.params)
    if plot is None:  # the MLM lab: a link restores its settings and never starts a training; the lesson says so
        page.locator("#mlm-lab-train").wait_for(state="visible", timeout=30_000)
        assert page.locator("#mlm-lab-curve .scatterlayer .trace").count() == 0, key  # no training curve: none started
        assert link.note == "lessons.note.mlm_lab" and note_shown, key  # and the lesson said why
    else:
        try:
            page.wait_for_function(NEW_PLOT_JS, arg=plot, timeout=240_000)
        except Exception as err:
            raise AssertionError(f"{key}: {plot} was not drawn") from err
        words = wait_for_plot_words(page, plot)
        inputs = " ".join(str(v) for v in link.params.values())
        if lang == "zh":
            assert CJK.search(words), (key, words)  # the figure's own words are Chinese
        else:
            assert re.search(r"[A-Za-z]{3,}", words), (key, words)
            if not CJK.search(inputs):
                assert not CJK.search(words), (key, words)
        page.wait_for_function(FITTED_JS, timeout=30_000)
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=240_000)  # the link's event ended
    save_screenshot(page, f"lessons-try-{key}-{lang}")


def _check_exercise_2(page, button: int, lang: str) -> None:
    """The exercise is about the samples: a temperature's link shows its three samples, the last one the comparison."""
    view = f"ex2 try-it {button}"
    _try_it(page, "ex2", button, lang, "sampling")
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
        assert page.locator("#sampling-compare-plot .js-plotly-plot").count() == 0, (view, samples)  # only what it asked
    else:
        page.wait_for_function(NEW_PLOT_JS, arg="#sampling-compare-plot", timeout=240_000)
        words = wait_for_plot_words(page, "#sampling-compare-plot")
        assert "0.1" in words and "1.5" in words, (view, words)  # one panel per temperature
        page.wait_for_function("() => !document.querySelector('.pending')", timeout=240_000)
    page.wait_for_function(FITTED_JS, timeout=30_000)
    save_screenshot(page, f"lessons-ex2-try-{button}-{lang}")


# One page per language visits its lessons in place (both languages across the lessons, alternately in course
# order), then exercise 2's link in that language: the T=0.1 samples in Chinese, the three temperatures in English.
EXERCISE_2 = {"zh": 0, "en": 3}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_try_it_opens_the_tab_with_the_lesson_inputs(page, lang):
    page.goto(f"{page.app_url}?tab=lessons&lang={lang}")
    wait_for_tab(page, "lessons")
    wait_opened(page)
    page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
    for index, (key, link) in enumerate(CASES):
        if ("zh" if index % 2 else "en") == lang:
            _check_try_it(page, key, link, lang)
    _check_exercise_2(page, EXERCISE_2[lang], lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_landing_page_is_the_lessons_tab_with_every_formula_rendered_offline(page, lang):
    """The landing page, then every lesson's formulas. Adjacent raw strings once glued `\\quad` to the next letter
    (`\\quadM_{ij}`): KaTeX drew the formula as red source."""
    page.goto(f"{page.app_url}?lang={lang}")
    wait_for_tab(page, "lessons")
    page.locator("#lesson-static .katex").first.wait_for(timeout=30_000)  # KaTeX, from the app's own origin
    page.wait_for_function("(t) => document.body.innerText.includes(t)", arg="从这里开始" if lang == "zh" else "Start here")
    wait_opened(page)  # the formulas are drawn before the link's updates end; a click before then can be undone
    page.locator("#lessons-picker input[value=ex1]").check()
    page.locator("#lesson-ex1 .katex").first.wait_for(timeout=30_000)
    assert not page.locator("#lesson-static").is_visible()
    page.locator("#lessons-next").click()  # a teacher steps through the course
    page.locator("#lesson-ex2 .katex").first.wait_for(timeout=30_000)
    page.locator("#lesson-ex1").wait_for(state="hidden", timeout=10_000)
    page.locator("#lessons-previous").click()
    page.locator("#lesson-ex1").wait_for(state="visible", timeout=10_000)
    save_screenshot(page, f"lessons-{lang}")
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
