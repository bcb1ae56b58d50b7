"""Before a run every tab shows a "press <button> to see <what>" hint, not empty plot boxes, tables or download boxes.

A run (a button, a link's run) hides the hint and shows the result; a refused run keeps the hint; a language switch
relabels it.
"""

import re

import pytest

from playground.ui.i18n import t
from tests.e2e.helpers import open_tab, save_screenshot

TABS = ["fill_mask", "polysemy", "masking", "sampling", "attention", "inside", "elmo", "mlm_lab"]
CASES = [(tab, "en") for tab in TABS] + [(tab, "zh") for tab in ("fill_mask", "masking", "elmo", "mlm_lab")]
SCREENSHOTS = ("fill_mask", "masking", "elmo", "mlm_lab")

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
    if tab in SCREENSHOTS:
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
    assert found["plots"] > 0 and found["tables"] > 0 and found["files"] > 0 and not found["hints"], found
    save_screenshot(page, "hint-after-run-fill_mask")


def test_a_language_switch_relabels_the_hint(page):
    open_fresh(page, "tab=elmo")
    page.wait_for_function(HINT_SAYS, arg="Press Embed", timeout=30_000)
    page.get_by_label("中文").check()
    page.wait_for_function(HINT_SAYS, arg="按 计算向量", timeout=30_000)
    no_boxes_but_hints(page, "按")


def test_a_refused_run_keeps_the_hint(page):
    open_fresh(page, "tab=mlm_lab")
    page.get_by_label("Paste text").check()  # an empty corpus: refused before anything is queued
    page.locator("#mlm-lab-train").click()
    page.locator(".toast-body.error").first.wait_for(timeout=60_000)
    assert "empty" in page.locator(".toast-body.error").first.inner_text()
    no_boxes_but_hints(page, "Press")
    save_screenshot(page, "hint-refused-mlm_lab")


@pytest.mark.parametrize(
    "query",
    [
        "tab=fill_mask&text=Paris+is+the+capital+of+%5BMASK%5D.",
        "tab=elmo&model=elmo-small&s2=2",  # what a lesson's "try it" button opens
    ],
)
def test_a_link_that_runs_its_view_shows_the_result(page, query):
    page.goto(f"{page.app_url}?{query}")
    page.wait_for_selector(".gradio-container", timeout=30_000)
    wait_for_result(page)
    found = page.evaluate(BOXES)
    assert found["plots"] > 0 and found["files"] > 0 and not found["hints"], found
    save_screenshot(page, f"hint-link-{query.split('&')[0][4:]}")


def test_every_sub_view_has_its_hint(page):
    """ELMo's three views and Inside BERT's four each show their own hint before their first run."""
    open_fresh(page, "tab=elmo")
    for view in ("bilm", "oov", "mix"):
        page.get_by_role("tab", name=t(f"elmo.view.{view}", "en")).click()
        page.locator(f"#elmo-{view}-press").wait_for(timeout=30_000)
        no_boxes_but_hints(page, "Press")
    open_fresh(page, "tab=inside")
    for view in ("params", "nsp", "heads", "embeddings"):
        page.locator(f"#inside-view input[value={view}]").check()
        page.locator(f"#inside-{view} .tp-hint").filter(visible=True).first.wait_for(timeout=30_000)
        no_boxes_but_hints(page, "Press")
