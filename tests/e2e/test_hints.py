"""Before a run every tab shows a "press <button> to see <what>" hint, not empty plot boxes, tables or download boxes."""

import pytest

from tests.e2e.helpers import open_tab, save_screenshot

TABS = ["fill_mask", "polysemy", "masking", "sampling", "attention", "inside"]

# Visible result boxes in the open tab: plots (empty or not), tables, file boxes. Before a run there must be none.
BOXES = """(tab) => {
  const panel = [...document.querySelectorAll('[role=tabpanel]')].find(p => p.offsetParent !== null);
  const seen = (e) => e.offsetParent !== null && e.getBoundingClientRect().height > 0;
  const pick = (sel) => [...panel.querySelectorAll(sel)].filter(seen).length;
  return {
    hints: [...panel.querySelectorAll('.tp-hint')].filter(seen).map(e => e.innerText.trim()),
    plots: pick('.gradio-plot, .js-plotly-plot, [data-testid="plot"]'),
    tables: pick('table'),
    files: pick('[data-testid="file"], .file-preview, input[type=file]'),
  };
}"""


@pytest.mark.parametrize("tab", TABS)
def test_a_fresh_tab_shows_a_hint_and_no_empty_boxes(page, tab):
    lang = "zh" if tab == "masking" else "en"
    page.goto(f"{page.app_url}?tab={tab}&lang={lang}")
    page.wait_for_selector(".gradio-container", timeout=30_000)
    page.locator("[role=tabpanel] .tp-hint").filter(visible=True).first.wait_for(timeout=30_000)
    word = "按" if lang == "zh" else "Press"  # the hint is relabelled by the language switch
    page.wait_for_function(
        "w => [...document.querySelectorAll('.tp-hint')].some(e => e.offsetParent !== null && e.innerText.includes(w))",
        arg=word,
        timeout=30_000,
    )
    found = page.evaluate(BOXES, tab)
    assert found["hints"] and all(word in h for h in found["hints"]), found
    assert found["plots"] == 0 and found["tables"] == 0 and found["files"] == 0, found
    if tab in ("fill_mask", "masking"):
        save_screenshot(page, f"hint-{tab}-{lang}")


def test_a_run_hides_the_hint_and_shows_the_result(page):
    open_tab(page, "fill_mask")
    page.get_by_role("button", name="Fill the blanks").click()
    page.locator("[role=tabpanel] table tbody tr").first.wait_for(timeout=120_000)
    page.wait_for_function("() => ![...document.querySelectorAll('.tp-hint')].some(e => e.offsetParent !== null)")
    found = page.evaluate(BOXES, "fill_mask")
    assert found["plots"] > 0 and found["tables"] > 0 and found["files"] > 0 and not found["hints"], found
