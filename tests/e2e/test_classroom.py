"""Classroom layouts in Chromium, checked on the boxes Plotly drew (tests/e2e/plot_layout.js), with screenshots.

- Phone (390x844): every tab after a run (a lesson's link, which restores and runs the view). Per plot, the title,
  axis titles, tick labels, legend and notes do not overlap each other and stay inside the plot; nothing widens the
  page, and tables scroll inside their box.
- Projector mode: plot text at 16 px or more (titles larger), laid out again by Plotly (assets/plot_fit.js), so
  nothing overflows or overlaps; switching the mode off restores the figure's own sizes.
"""

from __future__ import annotations


import pytest

import app
from playground.ui.lessons import tab as lessons_tab
from tests.e2e.helpers import recording_page, save_screenshot
from tests.e2e.plot_layout import FITTED_JS, PLOT_LAYOUT_JS, result_plot, wait_for_plot_words

SHARE = {"en": "Link to this view", "zh": "本视图的链接"}  # the widgets are relabelled in the link's language
LINKS = lessons_tab.lesson_links([tab_id for tab_id, _, _ in app.TABS])  # offline, as the served app


def _link(lesson: str, index: int = 0):
    link = LINKS[lesson][index]
    assert link.query, f"{lesson}: no runnable link offline"
    return link


# One run per tab (Inside BERT: each view), plus the figures with the most labels: lesson key, link index.
PHONE_VIEWS = {
    "polysemy": ("static", 0),
    "elmo": ("elmo", 0),
    "inside-embeddings": ("embeddings", 0),
    "inside-params": ("albert", 0),
    "inside-nsp": ("nsp", 0),
    "inside-heads": ("finetune", 0),
    "masking-bert": ("mlm", 0),
    "masking-permutation": ("xlnet", 0),
    "attention-compare": ("causal", 0),
    "attention-head": ("attention", 1),
    "fill_mask": ("ex3", 0),
    "sampling": ("sampling", 0),
    "mlm_lab": ("ex5", 0),
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


def _plots_fine(page, root: str | None = None) -> list[dict]:
    page.wait_for_function(FITTED_JS, timeout=60_000)
    plots = page.evaluate(PLOT_LAYOUT_JS, root)
    assert plots, "no plot drawn"
    bad = {p["id"]: p["problems"] for p in plots if p["problems"]}
    assert not bad, bad
    return plots


@pytest.mark.parametrize("name", list(PHONE_VIEWS))
def test_phone_every_tab_after_a_run(browser, app_url, name):
    lesson, index = PHONE_VIEWS[name]
    link = _link(lesson, index)
    context, page, outside = recording_page(browser, app_url, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        lang = "zh" if name in ("inside-params", "attention-compare", "sampling", "masking-bert") else "en"
        page.goto(f"{app_url}?{link.query}&lang={lang}")
        page.locator(f"button[role=tab][data-tab-id={link.tab}][aria-selected=true]").wait_for(timeout=60_000)
        page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
        plot = result_plot(link.tab, link.params)
        if plot is not None:
            wait_for_plot_words(page, plot)
            plots = _plots_fine(page)
            assert all(p["width"] > 0 for p in plots)
        layout = page.evaluate(PAGE_JS)
        assert layout["width"] <= 390, layout  # nothing widens the page
        assert not layout["unboxed"], layout  # wide tables scroll inside their box
        save_screenshot(page, f"phone-{name}-{lang}")
    finally:
        context.close()
    assert not outside, outside[:5]


PROJECTOR_VIEWS = {  # the figures with the longest legends and labels
    "albert": ("albert", 0),
    "fill_mask": ("ex3", 0),
    "attention-head": ("attention", 1),
    "sampling": ("sampling", 0),  # four panels side by side on one probability scale: 100% met the next panel's 0%
}


@pytest.mark.parametrize("name", list(PROJECTOR_VIEWS))
def test_projector_mode_lays_plots_out_again(browser, app_url, name):
    lesson, index = PROJECTOR_VIEWS[name]
    link = _link(lesson, index)
    context, page, outside = recording_page(browser, app_url, viewport={"width": 1400, "height": 1000})
    try:
        lang = "zh" if name == "fill_mask" else "en"
        page.goto(f"{app_url}?{link.query}&lang={lang}")
        page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)
        plot = result_plot(link.tab, link.params)
        wait_for_plot_words(page, plot)
        before = _plots_fine(page, plot)[0]["fonts"]
        assert min(before.values()) < 16, before  # the figure's own sizes: what projector mode has to raise

        page.locator("#tp-projector input").check()  # on, over a plot already drawn
        page.wait_for_function("() => document.body.classList.contains('tp-projector')")
        fonts = _plots_fine(page, plot)[0]["fonts"]
        assert min(size for kind, size in fonts.items() if kind != "title") >= 16, fonts
        assert fonts.get("title", 22) >= 20, fonts
        save_screenshot(page, f"projector-{name}-{lang}")

        page.reload()  # remembered; a plot drawn while the mode is on is laid out for it too
        page.wait_for_function("() => document.body.classList.contains('tp-projector')", timeout=60_000)
        wait_for_plot_words(page, plot)
        fonts = _plots_fine(page, plot)[0]["fonts"]
        assert min(size for kind, size in fonts.items() if kind != "title") >= 16, fonts

        page.locator("#tp-projector input").uncheck()  # off: the figure's own sizes again
        page.wait_for_function("() => !document.body.classList.contains('tp-projector')")
        assert _plots_fine(page, plot)[0]["fonts"] == before
    finally:
        context.close()
    assert not outside, outside[:5]
