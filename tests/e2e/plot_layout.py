"""Plot layout checks for browser tests: what Plotly drew, as boxes, and where labels collide or leave the plot."""

from __future__ import annotations

from pathlib import Path

# page.evaluate(PLOT_LAYOUT_JS, selector or None) -> [{id, width, height, problems, fonts, count}], one per visible plot
PLOT_LAYOUT_JS = (Path(__file__).parent / "plot_layout.js").read_text()
# true once assets/plot_fit.js has laid every visible plot out for the current mode (projector, phone)
FITTED_JS = "() => typeof window.tpPlotsFitted === 'function' && window.tpPlotsFitted()"
