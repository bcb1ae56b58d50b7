"""Plot layout checks for browser tests: what Plotly drew, as boxes, and where labels collide or leave the plot."""

from __future__ import annotations

from pathlib import Path

# page.evaluate(PLOT_LAYOUT_JS, selector or None) -> [{id, width, height, problems, fonts, count}], one per visible plot
PLOT_LAYOUT_JS = (Path(__file__).parent / "plot_layout.js").read_text()
# true once assets/plot_fit.js has laid every visible plot out for the current mode (projector, phone)
FITTED_JS = "() => typeof window.tpPlotsFitted === 'function' && window.tpPlotsFitted()"
# Every plot drawn so far, by its layout object (Gradio gives a newly drawn figure a new one): after MARK_DRAWN_JS,
# NEW_PLOT_JS(selector) is true once that plot is drawn anew, so a view opened in place is checked on the drawing its
# link made, not on one already there.
MARK_DRAWN_JS = """() => { window.__tpDrawn = new WeakSet(
  [...document.querySelectorAll('.js-plotly-plot')].map((gd) => gd.layout).filter(Boolean)); }"""
NEW_PLOT_JS = """(sel) => { const gd = document.querySelector(sel + ' .js-plotly-plot');
  return !!(gd && gd.layout && !(window.__tpDrawn && window.__tpDrawn.has(gd.layout))); }"""
# [words, gone] -> true once some plot on the page shows `words` and none shows `gone` (null: no such check): a result
# redrawn by a language switch says the new language's words and none of the old one's.
PLOTS_SAY_JS = """([words, gone]) => { const plots = [...document.querySelectorAll('.js-plotly-plot')];
  return plots.some(p => p.innerText.includes(words)) && !(gone && plots.some(p => p.innerText.includes(gone))); }"""

# The plot that shows a view's result, by tab (and by view for Inside BERT). The MLM lab has none: its link never
# starts a training (the lesson says so), see tests/e2e/test_lessons.py.
RESULT_PLOT = {
    "polysemy": "#polysemy-scatter",
    "elmo": "#elmo-mix-plot",
    "masking": "#masking-grid",
    "attention": "#attention-plot",
    "sampling": "#sampling-next-plot",
    "fill_mask": "#fill-mask-plot",
}
INSIDE_PLOT = {
    "embeddings": "#inside-emb-plot",
    "nsp": "#inside-nsp-layout",
    "params": "#inside-params-plot",
    "heads": "#inside-heads-plot",
}


def result_plot(tab: str, params: dict) -> str | None:
    """CSS selector of the element holding the plot a restored link of `tab` draws (None: the tab draws none)."""
    if tab == "inside":
        return INSIDE_PLOT[params.get("view", "embeddings")]
    return RESULT_PLOT.get(tab)


# A plot with something drawn in it (traces, or a diagram's shapes and notes), in view, and its words (title, axis
# titles, legend, notes; not the tick labels, which are the user's tokens) as one string.
PLOT_WORDS_JS = """(sel) => {
  const gd = document.querySelector(sel + ' .js-plotly-plot');
  if (!gd || gd.offsetParent === null || !gd.layout) return null;
  const drawn = (gd.data || []).length + (gd.layout.shapes || []).length + (gd.layout.annotations || []).length;
  if (!drawn) return null;  // traces, or a diagram's shapes and notes
  const parts = [...gd.querySelectorAll('.gtitle, .g-xtitle, .g-ytitle, .legendtext, .annotation-text, [class$="title"] text')];
  return parts.map((el) => el.textContent).join(' | ') || ' ';
}"""


def wait_for_plot_words(page, selector: str, timeout: float = 240_000) -> str:
    """Wait until the plot under `selector` is drawn with data; its words (see PLOT_WORDS_JS)."""
    handle = page.wait_for_function(PLOT_WORDS_JS, arg=selector, timeout=timeout)
    return handle.json_value()
