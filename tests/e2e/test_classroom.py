"""Classroom layouts in Chromium, checked on the boxes Plotly drew (tests/e2e/plot_layout.js), with screenshots.

- Phone (390x844): every tab after a run (a lesson's link, which restores and runs the view). Per plot, the title,
  axis titles, tick labels, legend and notes do not overlap each other and stay inside the plot; nothing widens the
  page, and tables scroll inside their box.
- Projector mode: plot text at 16 px or more (titles larger), laid out again by Plotly (assets/plot_fit.js), so
  nothing overflows or overlaps; switching the mode off restores the figure's own sizes.

Each page load costs seconds of the tier's budget, so a test is a journey: one page opens the first view from its
share link (a fresh restore) and every other view in place, the way a teacher does, through the lesson's try-it
button (it switches tab, fills the inputs and runs the view without reloading the page). Every assertion names the
view it was checking.
"""

from __future__ import annotations

import app
from playground.ui.lessons import tab as lessons_tab
from tests.e2e.helpers import recording_page, save_screenshot, wait_for_tab, wait_opened
from tests.e2e.plot_layout import FITTED_JS, MARK_DRAWN_JS, NEW_PLOT_JS, PLOT_LAYOUT_JS, result_plot, wait_for_plot_words

SHARE = {"en": "Link to this view", "zh": "本视图的链接"}  # the widgets are relabelled in the link's language
LINKS = lessons_tab.lesson_links([tab_id for tab_id, _, _ in app.TABS])  # offline, as the served app


def _link(lesson: str, index: int = 0):
    link = LINKS[lesson][index]
    assert link.query, f"{lesson}: no runnable link offline"
    return link


# One run per tab (Inside BERT: each view), plus the figures with the most labels: lesson key, link index. Two pages,
# one per language; each opens its first view fresh from the share link, the others in place.
PHONE_VIEWS = {
    "zh": {
        "inside-params": ("albert", 0),
        "masking-bert": ("mlm", 0),
        "attention-compare": ("causal", 0),
        "sampling": ("sampling", 0),
    },
    "en": {
        "polysemy": ("static", 0),
        "elmo": ("elmo", 0),
        "inside-embeddings": ("embeddings", 0),
        "inside-nsp": ("nsp", 0),
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


def _open_in_place(page, lesson: str, index: int, lang: str, view: str) -> str | None:
    """Open a lesson's try-it link on this page: the Lessons tab, the lesson, its button; no reload."""
    page.locator("button[role=tab][data-tab-id=lessons]").click()
    wait_for_tab(page, "lessons")
    page.locator(f"#lessons-picker input[value={lesson}]").check()
    page.locator(f"#lesson-{lesson}").wait_for(state="visible", timeout=30_000)
    page.evaluate(MARK_DRAWN_JS)
    page.locator(f"#lesson-{lesson}-try-{index}").click()
    return _shown(page, _link(lesson, index), lang, view)


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
    save_screenshot(page, f"phone-{view}-{lang}")


def _phone_journey(browser, app_url, lang: str) -> None:
    context, page, outside = recording_page(browser, app_url, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        views = list(PHONE_VIEWS[lang].items())
        (first, (lesson, index)), rest = views[0], views[1:]
        _phone_view_fine(page, first, lang, _open_fresh(page, _link(lesson, index), lang, first))
        for view, (lesson, index) in rest:
            _phone_view_fine(page, view, lang, _open_in_place(page, lesson, index, lang, view))
    finally:
        context.close()
    assert not outside, outside[:5]


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
                plots[view] = _open_in_place(page, lesson, index, lang, view)
            before[view] = _fonts(page, view, plots[view])
            assert min(before[view].values()) < 16, (view, before[view])  # what projector mode has to raise
        address = page.url  # the last view's share link

        _switch_projector(page, True)  # on, over a plot already drawn
        for view in reversed(views):  # the last view's tab is selected; the others' plots are laid out when shown
            _show_tab(page, view, plots[view])
            _projector_fine(page, view, plots[view])
            save_screenshot(page, f"projector-{view}-{lang}")
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
        save_screenshot(page, f"projector-{view}-{lang}")
        _switch_projector(page, False)
        assert _fonts(page, view, plot) == before, view
    finally:
        context.close()
    assert not outside, outside[:5]
