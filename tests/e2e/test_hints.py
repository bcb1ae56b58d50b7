"""Before a run a tab shows a "press <button> to see <what>" hint, not empty plot boxes, tables or download boxes.

In the browser on ONE tab (fill-mask): Gradio draws no hidden box, a run (a button, a link's run) hides the hint and
shows the result, a language switch relabels it. That every other tab and sub-view has its hint, starts with its
result boxes hidden and reveals them on a run is structure, proven on the app's config in
tests/unit/core/test_hints_everywhere.py; that a refused run keeps the hint (the reveal is chained on `.success`) and
that the MLM lab refuses an empty corpus before it queues is in tests/unit/core/test_result_hint.py.
"""

import re

import pytest

from tests.e2e.helpers import open_tab, save_screenshot

CASES = [("fill_mask", "en"), ("fill_mask", "zh")]

# Visible result boxes in the open tab: plots, tables, download boxes, and any empty placeholder box (Gradio's `.empty`:
# an empty plot or file box). Before a run there must be none.
BOXES = """() => {
  const panel = [...document.querySelectorAll('[role=tabpanel]')].find(p => p.offsetParent !== null);
  const seen = (e) => e.offsetParent !== null && e.getBoundingClientRect().height > 0;
  const pick = (sel) => [...panel.querySelectorAll(sel)].filter(seen).length;
  return {
    hints: [...panel.querySelectorAll('.tp-hint')].filter(seen).map(e => e.innerText.trim()),
    plots: pick('.gradio-plot, .js-plotly-plot, [data-testid="plot"]'),
    tables: pick('table'),
    files: pick('.tp-downloads, [data-testid="file"], .file-preview, input[type=file]'),
    empty: pick('.empty'),
  };
}"""
HINT_SAYS = "w => [...document.querySelectorAll('.tp-hint')].some(e => e.offsetParent !== null && e.innerText.includes(w))"
PRESS = {"en": "Press", "zh": "按"}


def open_fresh(page, query: str) -> None:
    page.goto(f"{page.app_url}?{query}")
    page.wait_for_selector(".gradio-container", timeout=30_000)
    page.locator("[role=tabpanel] .tp-hint").filter(visible=True).first.wait_for(timeout=30_000)


def no_boxes_but_hints(page, word: str) -> dict:
    found = page.evaluate(BOXES)
    assert found["hints"] and all(word.lower() in h.lower() for h in found["hints"]), found
    assert found["plots"] == 0 and found["tables"] == 0 and found["files"] == 0 and found["empty"] == 0, found
    return found


def wait_for_result(page, timeout: int = 180_000) -> None:
    """A drawn plot in the open tab (tables fill a moment earlier); then no hint left there."""
    page.locator("[role=tabpanel] .js-plotly-plot").first.wait_for(timeout=timeout)
    page.wait_for_function("() => ![...document.querySelectorAll('.tp-hint')].some(e => e.offsetParent !== null)")


@pytest.mark.parametrize("tab, lang", CASES)
def test_a_fresh_tab_shows_a_hint_and_no_empty_boxes(page, tab, lang):
    open_fresh(page, f"tab={tab}&lang={lang}")
    word = PRESS[lang]  # the hint is relabelled by the language switch the link asks for
    page.wait_for_function(HINT_SAYS, arg=word, timeout=30_000)
    no_boxes_but_hints(page, word)
    save_screenshot(page, f"hint-{tab}-{lang}")


def test_a_run_hides_the_hint_and_shows_the_result(page):
    open_tab(page, "fill_mask")
    page.get_by_role("button", name="Fill the blanks").click()
    # Gradio 6 draws a table's body as div[role=row] cells (its <table> holds the header and a 0-height sizing row).
    cell_with_text = page.locator("[role=tabpanel] [role=gridcell]").filter(has_text=re.compile(r"\S"))
    cell_with_text.first.wait_for(timeout=120_000)
    page.locator("[role=tabpanel] .js-plotly-plot").first.wait_for(timeout=60_000)  # drawn a moment after the table
    page.wait_for_function("() => ![...document.querySelectorAll('.tp-hint')].some(e => e.offsetParent !== null)")
    found = page.evaluate(BOXES)
    assert found["plots"] > 0 and found["tables"] > 0 and not found["hints"], found
    # The downloads: their button, and no file box until there are files (issue 19: no empty dashed box).
    assert page.locator("[role=tabpanel]:visible").get_by_role("button", name="Prepare downloads").is_visible()
    save_screenshot(page, "hint-after-run-fill_mask")


def test_a_language_switch_relabels_the_hint(page):
    open_fresh(page, "tab=fill_mask")
    page.wait_for_function(HINT_SAYS, arg="Press", timeout=30_000)
    page.get_by_label("中文").check()
    page.wait_for_function(HINT_SAYS, arg="按", timeout=30_000)
    no_boxes_but_hints(page, "按")


def test_a_link_that_runs_its_view_shows_the_result(page):
    query = "tab=fill_mask&text=Paris+is+the+capital+of+%5BMASK%5D."
    page.goto(f"{page.app_url}?{query}")
    page.wait_for_selector(".gradio-container", timeout=30_000)
    wait_for_result(page)
    found = page.evaluate(BOXES)
    assert found["plots"] > 0 and not found["hints"], found
    assert page.locator("[role=tabpanel]:visible").get_by_role("button", name="Prepare downloads").is_visible()
    save_screenshot(page, f"hint-link-{query.split('&')[0][4:]}")
