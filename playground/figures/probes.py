"""The probes' figure: per layer, held-out accuracy of the part-of-speech and the sense probe, each beside its control
task (dashed), the word-alone guess for senses (dotted), and below, selectivity (accuracy - control). Plotly only;
every text arrives translated in `words`, layer names are escaped here (plotly's text is HTML)."""

from __future__ import annotations

import html

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import PALETTE, base_layout

COLOURS = {"pos": PALETTE[0], "sense": PALETTE[3]}


def probes(r, words: dict[str, str]) -> go.Figure:
    """`words`: title, accuracy, selectivity, layer, hover, and per task "<task>", "<task>_control", plus "alone"."""
    x = [html.escape(n) for n in r.layer_names]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.62, 0.38], vertical_spacing=0.08,
                        subplot_titles=(words["accuracy"], words["selectivity"]))  # fmt: skip
    for task in ("pos", "sense"):
        curve = r.curve(task)
        colour = COLOURS[task]
        common = dict(x=x, mode="lines+markers", legendgroup=task, hovertemplate=words["hover"] + "<extra></extra>")
        fig.add_trace(go.Scatter(y=[100 * a for a in curve.accuracy], name=words[task], line=dict(color=colour, width=3),
                                 **common), row=1, col=1)  # fmt: skip
        fig.add_trace(go.Scatter(y=[100 * a for a in curve.control], name=words[f"{task}_control"],
                                 line=dict(color=colour, dash="dash", width=2), marker=dict(symbol="x"), **common),
                      row=1, col=1)  # fmt: skip
        fig.add_trace(go.Bar(x=x, y=[100 * s for s in curve.selectivity], name=words[task], marker_color=colour,
                             legendgroup=task, showlegend=False, hovertemplate=words["hover"] + "<extra></extra>"),
                      row=2, col=1)  # fmt: skip
    fig.add_trace(go.Scatter(x=x, y=[100 * r.sense.word_alone] * len(x), mode="lines", name=words["alone"],
                             line=dict(color=COLOURS["sense"], dash="dot", width=1), hoverinfo="skip"), row=1, col=1)  # fmt: skip
    base_layout(fig, words["title"], height=560)
    fig.update_yaxes(title="%", range=[0, 102], row=1, col=1)
    fig.update_yaxes(title=words["points"], zeroline=True, zerolinecolor="#888", row=2, col=1)
    fig.update_xaxes(title=words["layer"], row=2, col=1)
    fig.update_layout(legend=dict(orientation="h", y=-0.18), barmode="group", margin=dict(t=90))  # title above subplot titles
    return fig
