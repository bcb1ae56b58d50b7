"""Classroom layouts in Chromium, checked on the boxes Plotly drew (tests/e2e/plot_layout.js), with screenshots.

- Phone (390x844): every tab after a run (a lesson's link, which restores and runs the view). Per plot, the title,
  axis titles, tick labels, legend and notes do not overlap each other and stay inside the plot; nothing widens the
  page, and tables scroll inside their box.
- Lessons' try-it, on the same phone pages: for one lesson per target tab, the button opens that tab with the
  lesson's inputs (read back through the tab's own share button) and its result (the view's plot, drawn with data,
  its words in the page's language); exercise 2's links show its samples (zh) and its three temperatures (en).
- Projector mode: plot text at 16 px or more (titles larger), laid out again by Plotly (assets/plot_fit.js), so
  nothing overflows or overlaps; switching the mode off restores the figure's own sizes.

Each page load costs seconds of the tier's budget, so a test is a journey: one page opens the first view from its
share link (a fresh restore) and every other view in place, the way a teacher does, through the lesson's try-it
button (it switches tab, fills the inputs and runs the view without reloading the page). Every assertion names the
view it was checking.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlparse

import app
from playground.lessons import LESSONS
from playground.ui.common.i18n import t
from playground.lessons import pages as lesson_pages
from tests.e2e.helpers import checkpoint, lesson_card, recording_page, wait_for_tab, wait_opened
from tests.e2e.plot_layout import FITTED_JS, MARK_DRAWN_JS, NEW_PLOT_JS, PLOT_LAYOUT_JS, result_plot, wait_for_plot_words

SHARE = {"en": "Link to this view", "zh": "本视图的链接"}  # the widgets are relabelled in the link's language
LINKS = lesson_pages.lesson_links([tab_id for tab_id, _, _ in app.TABS])  # offline, as the served app


def _link(lesson: str, index: int = 0):
    link = LINKS[lesson][index]
    assert link.query, f"{lesson}: no runnable link offline"
    return link


# The lessons whose try-it is checked (TRY_IT): one per target tab, the first in course order, each in one language
# (both languages across the lessons). What the browser adds is that a try-it button opens that tab and its share link
# restores the inputs and runs the view. That every lesson's link names the target tab's own share parameters with
# values its decoder accepts, offline and with every model available, is tests/integration/test_lessons_links.py; the
# course order and link choice are tests/unit/lessons/test_lessons.py.
# The forward-pass and text-to-text tabs draw no Plotly figure (their page scripts draw HTML): their lessons' links
# are checked on a phone in Chinese by tests/e2e/test_forward.py::test_the_block_lessons_link_on_a_phone_in_chinese
# and tests/e2e/test_t5.py::test_the_encoder_decoder_lesson_on_a_phone_in_chinese.
OWN_PHONE_TEST = {"forward", "t5"}
_RUNNABLE = [
    (lesson.key, links[0])
    for lesson in LESSONS
    if (links := [link for link in LINKS[lesson.key] if link.query]) and links[0].tab not in OWN_PHONE_TEST
]
TRY_IT = {key for i, (key, link) in enumerate(_RUNNABLE) if link.tab not in {other.tab for _, other in _RUNNABLE[:i]}}
CJK = re.compile(r"[\u4e00-\u9fff]")

# One run per tab (Inside BERT: each view), plus the figures with the most labels: lesson key, link index. Two pages,
# one per language; each opens its first view fresh from the share link (never a TRY_IT lesson: their checks are of
# the in-place path), the others in place. Every TRY_IT lesson's first link is here once, in one of the languages.
PHONE_VIEWS = {
    "zh": {
        "inside-params": ("albert", 0),
        "masking-bert": ("mlm", 0),
        "attention-compare": ("causal", 0),
        "sampling": ("sampling", 0),
        "fill_mask-zh": ("ex3", 1),  # the Chinese e5 example: its table's Chinese headers (HEADER_VIEWS)
    },
    "en": {
        "inside-nsp": ("nsp", 0),
        "polysemy": ("static", 0),
        "elmo": ("elmo", 0),
        "inside-embeddings": ("embeddings", 0),
        "inside-heads": ("finetune", 0),
        "masking-permutation": ("xlnet", 0),
        "attention-head": ("attention", 1),
        "fill_mask": ("ex3", 0),
        "mlm_lab": ("ex5", 0),
    },
}

# What no element may do on a phone: widen the page; a table wider than its box must scroll inside it.
PAGE_JS = """() => {
  const tables = [...document.querySelectorAll('table')].filter(t => t.offsetParent !== null);
  const unboxed = tables.filter((t) => {
    if (t.getBoundingClientRect().right <= window.innerWidth + 1) return false;
    for (let el = t.parentElement; el; el = el.parentElement) {
      const o = getComputedStyle(el).overflowX;
      const scrolls = o === 'auto' || o === 'scroll' || o === 'hidden';
      if (scrolls && el.getBoundingClientRect().right <= window.innerWidth + 1) return false;
    }
    return true;
  });
  const names = unboxed.map((t) => t.innerText.slice(0, 60));
  return {width: document.documentElement.scrollWidth, tables: tables.length, unboxed: names};
}"""

# Where the open tab is in the tab row, which scrolls sideways on a phone: inside the row's visible part or not.
TAB_IN_ROW_JS = """() => {
  const row = document.querySelector('.tab-wrapper');
  const tab = row && row.querySelector('button[role=tab][aria-selected=true]');
  if (!tab) return null;
  const box = row.getBoundingClientRect(), at = tab.getBoundingClientRect();
  return {tab: tab.innerText, shown: at.left >= box.left - 1 && at.right <= box.right + 1};
}"""
IDLE_JS = "() => !document.querySelector('.pending')"  # the link's event has sent its last update

# The words of every visible table header that the browser laid out over more than one line ("ma/sk", "名/次",
# "num_paramete rs()"). A word: a run of characters without a space (a CJK run counts as one: keep-all).
BROKEN_HEADER_WORDS_JS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll('th')) {
    if (th.offsetParent === null) continue;
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""
# The fill-mask views whose table headers are checked on a phone (an issue 19 finding): view -> a header's text.
HEADER_VIEWS = {"fill_mask": "rank", "fill_mask-zh": "名次"}
PROJECTOR_ON = "() => document.body.classList.contains('tp-projector')"


def _plots_fine(page, view: str, root: str | None = None) -> list[dict]:
    page.wait_for_function(FITTED_JS, timeout=60_000)
    plots = page.evaluate(PLOT_LAYOUT_JS, root)
    assert plots, f"{view}: no plot drawn"
    bad = {p["id"]: p["problems"] for p in plots if p["problems"]}
    assert not bad, (view, bad)
    return plots


def _shown(page, link, lang: str, view: str) -> str | None:
    """Wait until `link`'s tab is selected in `lang` and its result drawn (a new drawing); its plot's selector."""
    wait_for_tab(page, link.tab)
    page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
    plot = result_plot(link.tab, link.params)
    if plot is None:  # the MLM lab: its link restores the settings and starts nothing
        page.locator("#mlm-lab-train").wait_for(state="visible", timeout=30_000)
    else:
        try:
            page.wait_for_function(NEW_PLOT_JS, arg=plot, timeout=240_000)
        except Exception as err:
            raise AssertionError(f"{view}: {plot} was not drawn") from err
        wait_for_plot_words(page, plot)
    page.wait_for_function(IDLE_JS, timeout=240_000)
    return plot


def _open_fresh(page, link, lang: str, view: str) -> str | None:
    """Open `link` as a fresh share link (the page restores the inputs and runs the view)."""
    page.goto(f"{page.app_url}?{link.query}&lang={lang}")
    wait_opened(page)
    return _shown(page, link, lang, view)


def _click_try_it(page, lesson: str, index: int, lang: str) -> str:
    """Click a lesson's try-it button on this page (the Lessons tab, the lesson, its button); no reload. The lesson's
    text as it was shown before the click."""
    page.locator("button[role=tab][data-tab-id=lessons]").click()
    wait_for_tab(page, "lessons")
    page.locator(f"#lessons-picker input[value={lesson}]").check()
    text = lesson_card(page, lesson, lang).inner_text()
    page.evaluate(MARK_DRAWN_JS)
    page.locator(f"#lesson-{lesson}-try-{index}").click()
    return text


def _open_in_place(page, lesson: str, index: int, lang: str, view: str) -> tuple[str | None, str]:
    """Open a lesson's try-it link on this page; its plot's selector and the lesson's text shown before the click."""
    text = _click_try_it(page, lesson, index, lang)
    return _shown(page, _link(lesson, index), lang, view), text


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


def _check_try_it(page, lesson: str, lang: str, text: str, plot: str | None) -> None:
    """A lesson's first try-it, opened in place and run (_open_in_place waited for its new drawing and the end of the
    link's event, so the inputs are restored): its tab, its inputs read back through the tab's share button, its
    result's words in the page's language (the MLM lab: no training started, and the lesson said why)."""
    link = _link(lesson)
    note_shown = not link.note or _plain(t(link.note, lang))[:40] in _plain(text)
    page.wait_for_url(lambda url: f"tab={link.tab}" in url, timeout=30_000)
    shared = _shared_inputs(page, lang)
    assert shared.get("tab") == link.tab and shared.get("lang") == lang, (lesson, shared)
    for name, value in link.params.items():
        assert name in shared and _same(value, shared[name]), (lesson, name, value, shared.get(name))
    if plot is None:  # the MLM lab: a link restores its settings and never starts a training; the lesson says so
        assert page.locator("#mlm-lab-curve .scatterlayer .trace").count() == 0, lesson  # no training curve
        assert link.note == "lessons.note.mlm_lab" and note_shown, lesson  # and the lesson said why
        return
    words = wait_for_plot_words(page, plot)
    inputs = " ".join(str(v) for v in link.params.values())
    if lang == "zh":
        assert CJK.search(words), (lesson, words)  # the figure's own words are Chinese
    else:
        assert re.search(r"[A-Za-z]{3,}", words), (lesson, words)
        if not CJK.search(inputs):
            assert not CJK.search(words), (lesson, words)


def _check_exercise_2(page, button: int, lang: str) -> None:
    """The exercise is about the samples: a temperature's link shows its three samples, the last one the comparison."""
    view = f"ex2 try-it {button}"
    _click_try_it(page, "ex2", button, lang)
    wait_for_tab(page, "sampling")
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
        page.wait_for_function(IDLE_JS, timeout=240_000)  # the samples have finished
        assert page.locator("#sampling-compare-plot .js-plotly-plot").count() == 0, (view, samples)  # only what it asked
    else:
        page.wait_for_function(NEW_PLOT_JS, arg="#sampling-compare-plot", timeout=240_000)
        words = wait_for_plot_words(page, "#sampling-compare-plot")
        assert "0.1" in words and "1.5" in words, (view, words)  # one panel per temperature
        page.wait_for_function(IDLE_JS, timeout=240_000)
    page.wait_for_function(FITTED_JS, timeout=30_000)
    checkpoint(page, f"lessons-ex2-try-{button}-{lang}")


def _phone_view_fine(page, view: str, lang: str, plot: str | None) -> None:
    if plot is not None:
        plots = _plots_fine(page, view)
        assert all(p["width"] > 0 for p in plots), (view, plots)
    layout = page.evaluate(PAGE_JS)
    assert layout["width"] <= 390, (view, layout)  # nothing widens the page
    assert not layout["unboxed"], (view, layout)  # wide tables scroll inside their box
    # the open tab is in sight in its row (assets/tab_row.js), so the student sees where the link went
    try:
        page.wait_for_function(f"() => ({TAB_IN_ROW_JS})()?.shown", timeout=10_000)
    except Exception as err:
        raise AssertionError(f"{view}: the open tab is out of sight: {page.evaluate(TAB_IN_ROW_JS)}") from err
    checkpoint(page, f"phone-{view}-{lang}")


def _headers_unbroken(page, view: str, header: str) -> None:
    """The fill-mask table's headers do not break inside a word on a phone; and the check sees a break where there is
    one: the same table with words allowed to break (the style is removed again, for the views after this one)."""
    page.locator("th:visible").filter(has_text=header).first.wait_for(timeout=60_000)
    assert page.evaluate(BROKEN_HEADER_WORDS_JS) == [], view
    style = page.add_style_tag(content="th, th * { word-break: break-all !important; min-width: 0 !important; width: 1px; }")
    try:
        assert page.evaluate(BROKEN_HEADER_WORDS_JS) != [], f"{view}: the header check cannot see a break"
    finally:
        style.evaluate("(el) => el.remove()")


# Exercise 2's link per journey: the T=0.1 samples in Chinese, the three temperatures in English.
EXERCISE_2 = {"zh": 0, "en": 3}


def _phone_journey(browser, app_url, lang: str) -> None:
    """One phone page in `lang`: the first view fresh from its share link, then every other view in place through its
    lesson's try-it button. Each view: its plots laid out with no overlap, nothing widens the page, tables scroll, the
    open tab in sight (_phone_view_fine); at a fill-mask view, table headers that do not break inside a word
    (_headers_unbroken); for a TRY_IT lesson also its inputs and result (_check_try_it, after the
    layout checks: its share box is not part of the view a student sees). Last, exercise 2's link (its samples or
    its comparison; the layout of that tab is the sampling view's, checked already)."""
    context, page, outside = recording_page(browser, app_url, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        views = list(PHONE_VIEWS[lang].items())
        (first, (lesson, index)), rest = views[0], views[1:]
        assert lesson not in TRY_IT, first  # the try-it checks are of the in-place path
        _phone_view_fine(page, first, lang, _open_fresh(page, _link(lesson, index), lang, first))
        for view, (lesson, index) in rest:
            plot, text = _open_in_place(page, lesson, index, lang, view)
            _phone_view_fine(page, view, lang, plot)
            if view in HEADER_VIEWS:
                _headers_unbroken(page, view, HEADER_VIEWS[view])
            if lesson in TRY_IT and index == 0:
                _check_try_it(page, lesson, lang, text, plot)
        _check_exercise_2(page, EXERCISE_2[lang], lang)
    finally:
        context.close()
    assert not outside, outside[:5]


def test_every_try_it_lesson_is_in_a_phone_journey():
    """Each TRY_IT lesson's first link is opened in place by one of the two journeys (so none goes unchecked)."""
    in_place = [lesson for views in PHONE_VIEWS.values() for lesson, index in list(views.values())[1:] if index == 0]
    assert sorted(lesson for lesson in in_place if lesson in TRY_IT) == sorted(TRY_IT)


def test_phone_every_tab_after_a_run_in_chinese(browser, app_url):
    _phone_journey(browser, app_url, "zh")


def test_phone_every_tab_after_a_run_in_english(browser, app_url):
    _phone_journey(browser, app_url, "en")


# The figures with the longest legends and labels: view -> lesson key, link index.
PROJECTOR_VIEWS = {
    "albert": ("albert", 0),
    "attention-head": ("attention", 1),
    "sampling": ("sampling", 0),  # four panels side by side on one probability scale: 100% met the next panel's 0%
}


def _fonts(page, view: str, plot: str) -> dict[str, float]:
    return _plots_fine(page, view, plot)[0]["fonts"]


def _projector_fine(page, view: str, plot: str) -> None:
    fonts = _fonts(page, view, plot)
    assert min(size for kind, size in fonts.items() if kind != "title") >= 16, (view, fonts)
    assert fonts.get("title", 22) >= 20, (view, fonts)


def _switch_projector(page, on: bool) -> None:
    box = page.locator("#tp-projector input")
    if on:
        box.check()
    else:
        box.uncheck()
    page.wait_for_function(PROJECTOR_ON if on else f"() => !({PROJECTOR_ON})()", timeout=30_000)


def _show_tab(page, view: str, plot: str) -> None:
    """Select `view`'s tab by its button (no run: the plot drawn there before is shown again)."""
    page.locator(f"button[role=tab][data-tab-id={_link(*PROJECTOR_VIEWS[view]).tab}]").click()
    page.locator(plot).first.wait_for(state="visible", timeout=60_000)


def test_projector_mode_lays_plots_out_again(browser, app_url):
    """One page, three views. Each drawn with the mode off (the figure's own sizes); on over the last one drawn, and
    over the others when their tabs are shown; off again (each its own sizes); on and a reload (remembered): the view
    the address names, then the others opened in place, drawn while the mode is on; off (each its own sizes).
    A view opened again in place with the same inputs is not drawn again, so the reload comes before the second runs."""
    context, page, outside = recording_page(browser, app_url, viewport={"width": 1400, "height": 1000})
    try:
        lang, views = "en", list(PROJECTOR_VIEWS)
        plots, before = {}, {}
        for view in views:
            lesson, index = PROJECTOR_VIEWS[view]
            if view == views[0]:
                plots[view] = _open_fresh(page, _link(lesson, index), lang, view)
            else:
                plots[view], _ = _open_in_place(page, lesson, index, lang, view)
            before[view] = _fonts(page, view, plots[view])
            assert min(before[view].values()) < 16, (view, before[view])  # what projector mode has to raise
        address = page.url  # the last view's share link

        _switch_projector(page, True)  # on, over a plot already drawn
        for view in reversed(views):  # the last view's tab is selected; the others' plots are laid out when shown
            _show_tab(page, view, plots[view])
            _projector_fine(page, view, plots[view])
            checkpoint(page, f"projector-{view}-{lang}")
        _switch_projector(page, False)  # off: each figure's own sizes again, the hidden ones when shown
        for view in views:
            _show_tab(page, view, plots[view])
            assert _fonts(page, view, plots[view]) == before[view], view

        _switch_projector(page, True)
        page.reload()  # remembered; the view the address names is drawn for it
        wait_opened(page)
        page.wait_for_function(PROJECTOR_ON, timeout=60_000)
        assert page.url == address, f"the address changed from {address} to {page.url}"
        last = views[-1]
        _shown(page, _link(*PROJECTOR_VIEWS[last]), lang, last)
        _projector_fine(page, f"{last} after a reload", plots[last])
        for view in views[:-1]:  # a plot drawn while the mode is on
            _open_in_place(page, *PROJECTOR_VIEWS[view], lang, view)
            _projector_fine(page, f"{view} drawn in projector mode", plots[view])
        _switch_projector(page, False)
        for view in reversed(views):
            _show_tab(page, view, plots[view])
            assert _fonts(page, view, plots[view]) == before[view], f"{view} drawn in projector mode, then off"
    finally:
        context.close()
    assert not outside, outside[:5]


def test_projector_mode_lays_a_chinese_plot_out_again(browser, app_url):
    """The fill-mask figure in Chinese: on over the drawn plot, then off (the figure's own sizes again)."""
    context, page, outside = recording_page(browser, app_url, viewport={"width": 1400, "height": 1000})
    try:
        view, lang = "fill_mask", "zh"
        plot = _open_fresh(page, _link("ex3", 0), lang, view)
        before = _fonts(page, view, plot)
        assert min(before.values()) < 16, (view, before)
        _switch_projector(page, True)
        _projector_fine(page, view, plot)
        checkpoint(page, f"projector-{view}-{lang}")
        _switch_projector(page, False)
        assert _fonts(page, view, plot) == before, view
    finally:
        context.close()
    assert not outside, outside[:5]
