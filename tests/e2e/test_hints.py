"""Before a run a tab shows a "press <button> to see <what>" hint, not empty plot boxes, tables or download boxes.

In the browser on ONE tab (fill-mask), on one page: Gradio draws no hidden box, a run hides the hint and shows the
result, a language switch relabels it. A link's run hides it too: the fresh page of
tests/e2e/test_fill_mask.py::test_a_non_default_link_restores_the_inputs_and_the_same_result. That every other tab
and sub-view has its hint, starts with its result boxes hidden and reveals them on a run is structure, proven on the
app's config in tests/unit/core/test_hints_everywhere.py; that a refused run keeps the hint (the reveal is chained on
`.success`) and that the MLM lab refuses an empty corpus before it queues is in tests/unit/core/test_result_hint.py.
"""

import re

from tests.e2e.helpers import TABLE_TEXT_JS, checkpoint

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


E5_MLM = "multilingual-E5 small, first 6 layers + MLM head trained here (bundled)"
MINILM_MLM = "MiniLM + MLM head trained here (bundled)"


def test_the_fill_mask_tab_from_its_hint_to_a_result_in_both_languages(page):
    """One fill-mask page, from its first screen to two runs (each step once held its own page load):

    1. A fresh `?lang=zh` tab shows the hint relabelled by the link's language (按) and no empty plot, table or file box.
    2. English: the hint is relabelled ("Press") and there are still no boxes (a language switch relabels the hint).
    3. Offline, both masked LMs trained here are ticked by default.
    4. Fill the blanks: cells and a plot appear, the hint leaves, the downloads offer their button (no empty file box),
       and the result names the method ("masked LM").
    5. The course's Chinese example 我[MASK]自然语言处理。 is a preset a bundled model reads (no "needs a Chinese
       model" mark): clicked, with e5-mlm alone, it gives five rows of mostly Chinese characters, and its chart.
    """
    open_fresh(page, "tab=fill_mask&lang=zh")
    page.wait_for_function(HINT_SAYS, arg=PRESS["zh"], timeout=30_000)
    no_boxes_but_hints(page, PRESS["zh"])
    checkpoint(page, "hint-fill_mask-zh")

    page.get_by_label("English").check()
    page.get_by_role("tab", name="Fill-mask").wait_for(timeout=10_000)
    page.wait_for_function(HINT_SAYS, arg=PRESS["en"], timeout=30_000)
    no_boxes_but_hints(page, PRESS["en"])
    checkpoint(page, "hint-fill_mask-en")

    for label in (MINILM_MLM, E5_MLM):  # the offline default (the API's default: tests/e2e/test_mlm_lab.py)
        assert page.get_by_label(label, exact=False).first.is_checked(), label

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
    page.wait_for_function("() => document.body.innerText.includes('masked LM')", timeout=30_000)
    checkpoint(page, "hint-after-run-fill_mask")

    preset = page.get_by_text("我[MASK]自然语言处理。").first
    preset.wait_for(timeout=30_000)
    assert "needs a Chinese model" not in preset.inner_text()
    preset.click()
    page.wait_for_function("() => [...document.querySelectorAll('textarea')].some(t => t.value === '我[MASK]自然语言处理。')")
    page.get_by_label(MINILM_MLM).uncheck()
    page.get_by_label(E5_MLM).check()
    page.get_by_role("button", name="Fill the blanks", exact=True).click()
    # The first run's table had e5 rows too: wait for the new one, which has no MiniLM row.
    page.wait_for_function(
        f"() => {{ const t = ({TABLE_TEXT_JS})();"
        " return t.includes('e5-mlm') && !t.includes('minilm-mlm'); }",  # the table names a model by its key
        timeout=240_000,
    )
    table = page.evaluate(TABLE_TEXT_JS)
    rows = [line for line in table.splitlines() if "e5-mlm" in line]
    cells = [c.strip() for line in table.splitlines() for c in line.split("\t")]
    chinese = [c for c in cells if len(c) == 1 and "\u4e00" <= c <= "\u9fff"]  # the guessed characters
    assert len(rows) == 5 and len(chinese) >= 3, table
    # the chart too, redrawn for this run (the table comes first)
    page.wait_for_function(
        "() => { const p = document.querySelector('#fill-mask-plot .js-plotly-plot'); return p &&"
        " p.innerText.includes('multilingual-e5-small') && !p.innerText.includes('all-MiniLM-L6-v2'); }",
        timeout=60_000,
    )
    checkpoint(page, "fill_mask_chinese_e5_mlm")
