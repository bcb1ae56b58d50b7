"""ELMo tab figures: the layer mix on fixed axes, and each biLM direction's probability of the actual word.

Plotly only (never torch); every string arrives translated; text from users is escaped (plotly hover is HTML).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go

from playground.figures.common import MUTED, PALETTE, base_layout

if TYPE_CHECKING:
    from playground.elmo.views import ElmoBilmResult, ElmoMixResult

LAYER_SYMBOLS = ("circle-open", "square-open", "diamond-open")


def _colours(labels) -> dict[str, str]:
    return {lab: PALETTE[i % len(PALETTE)] for i, lab in enumerate(dict.fromkeys(labels))}


def mix_figure(
    r: ElmoMixResult, title: str, layer_name: str, mix_name: str, x_title: str, y_title: str, layer0_note: str = ""
) -> go.Figure:
    """Hollow markers: each layer alone; filled: the mix; a faint line from each sentence's layer-0 point through
    layers 1 and 2, so one can see where between them the mix sits. The axes never change with the weights."""
    colours = _colours(r.labels)
    fig = go.Figure()
    hover = [html.escape(s[:120]) for s in r.sentences]
    for i, lab in enumerate(r.labels):
        path = r.layer_points[:, i]
        fig.add_trace(
            go.Scatter(
                x=path[:, 0], y=path[:, 1], mode="lines", line=dict(color=MUTED, width=1), showlegend=False, hoverinfo="skip"
            )
        )
    for k in range(r.layer_points.shape[0]):
        for lab, colour in colours.items():
            idx = [i for i, x in enumerate(r.labels) if x == lab]
            fig.add_trace(
                go.Scatter(
                    x=r.layer_points[k, idx, 0],
                    y=r.layer_points[k, idx, 1],
                    mode="markers",
                    marker=dict(symbol=LAYER_SYMBOLS[k % 3], size=9, color=colour, opacity=0.55),
                    name=f"{html.escape(lab)} · {layer_name.format(k=k)}",
                    legendgroup=f"layer{k}",
                    text=[hover[i] for i in idx],
                    hovertemplate="%{text}<extra></extra>",
                )
            )
    for lab, colour in colours.items():
        idx = [i for i, x in enumerate(r.labels) if x == lab]
        fig.add_trace(
            go.Scatter(
                x=r.points[idx, 0],
                y=r.points[idx, 1],
                mode="markers",
                marker=dict(symbol="circle", size=15, color=colour, line=dict(color="black", width=1)),
                name=f"{html.escape(lab)} · {mix_name}",
                text=[hover[i] for i in idx],
                hovertemplate="%{text}<extra></extra>",
            )
        )
    l0 = r.layer_points[0]
    if layer0_note and len(l0) > 1 and np.allclose(l0, l0[0], atol=1e-4):  # context-free: all sentences coincide
        fig.add_annotation(x=l0[0, 0], y=l0[0, 1], text=layer0_note, showarrow=True, arrowhead=2, ax=90, ay=-45, bgcolor="white")
    # Fixed ranges: all layers and any mix with gamma <= the current one fit; the view does not rescale per slider.
    allpts = np.concatenate([r.layer_points.reshape(-1, 2), r.points])
    lo, hi = allpts.min(axis=0), allpts.max(axis=0)
    pad = 0.1 * (hi - lo + 1e-6)
    fig.update_xaxes(title=x_title, range=[lo[0] - pad[0], hi[0] + pad[0]], zeroline=False)
    fig.update_yaxes(title=y_title, range=[lo[1] - pad[1], hi[1] + pad[1]], zeroline=False)
    return base_layout(fig, title, height=480)


def bilm_figure(r: ElmoBilmResult, title: str, forward: str, backward: str) -> go.Figure:
    """Per position, the probability each direction gave the word actually there (log scale)."""
    fig = go.Figure()
    if r.predictions is None:
        return base_layout(fig, title, height=320)
    pos = r.predictions.positions
    x = [f"{i + 1}. {html.escape(p.token)}" for i, p in enumerate(pos)]
    fig.add_trace(go.Bar(x=x, y=[p.forward.actual_prob for p in pos], name=forward, marker_color=PALETTE[0]))
    fig.add_trace(go.Bar(x=x, y=[p.backward.actual_prob for p in pos], name=backward, marker_color=PALETTE[1]))
    fig.update_yaxes(type="log", title="P")
    fig.update_layout(barmode="group")
    return base_layout(fig, title, height=360)
