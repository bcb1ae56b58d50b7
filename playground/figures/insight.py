"""Figures of "Look inside a prediction": Result -> plotly Figure. Plotly only (never torch); every title arrives
translated (`words`: the texts by short name); tokens are escaped here (plotly's text is HTML)."""

from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import DIVERGING, MUTED, PALETTE, SEQUENTIAL, base_layout


def labels(tokens: list[str], display: list[str]) -> list[str]:
    """Unique, escaped axis labels: "3 bank" (a category axis merges repeated words otherwise)."""
    return [f"{i} {html.escape(d or t)}" for i, (t, d) in enumerate(zip(tokens, display))]


def lens(r, words: dict[str, str]) -> go.Figure:
    """Per layer: p(final answer) as a line, the layer's own top-1 written at each point (green when it is the answer)."""
    x = [row.layer for row in r.readouts]
    top1 = [html.escape(row.tokens[0]) for row in r.readouts]
    hit = [row.answer_rank == 0 for row in r.readouts]
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=x, y=[row.answer_prob for row in r.readouts], mode="lines+markers+text", name=words["answer_p"],
            text=top1, textposition="top center", line=dict(color=PALETTE[0]),
            marker=dict(size=11, color=[PALETTE[2] if h else PALETTE[3] for h in hit]),
            customdata=[[row.answer_rank + 1, row.probs[0]] for row in r.readouts],
            hovertemplate=words["hover"] + "<extra></extra>",
        )
    )  # fmt: skip
    fig.add_trace(go.Bar(x=x, y=[row.probs[0] for row in r.readouts], name=words["top1_p"], marker_color=MUTED, opacity=0.5))
    fig.add_vline(x=r.first_layer - 0.5, line_dash="dot", line_color=PALETTE[2])
    base_layout(fig, words["title"], height=420)
    fig.update_xaxes(title=words["layer"], dtick=1 if len(x) <= 16 else 2)
    # log scale: an answer climbing from p 0.0002 to 0.05 is the story, and a linear axis shows it as a flat line
    fig.update_yaxes(title=words["prob"], type="log", dtick=1, exponentformat="power")
    fig.update_layout(legend=dict(orientation="h", y=-0.2), barmode="overlay")
    return fig


def attribution(r, words: dict[str, str]) -> go.Figure:
    """Four rows over the tokens: IG, gradient × input (each scaled by its largest |value|, signed), the head's
    attention and the rollout (each scaled by its largest value); the hover gives the raw numbers. Blue is for
    (positive), red against, as the coloured tokens below the figure."""
    names = [words["ig"], words["gxi"], words["head"], words["rollout"]]
    raw = np.array([r.ig, r.grad_input, r.attention, r.rollout], dtype=np.float64)
    scaled = raw / np.maximum(np.abs(raw).max(axis=1, keepdims=True), 1e-12)
    fig = go.Figure(
        go.Heatmap(
            z=scaled, x=labels(r.tokens, r.display), y=names, customdata=raw, colorscale=DIVERGING, zmid=0, zmin=-1,
            zmax=1, text=np.round(raw, 3), texttemplate="%{text}", showscale=False,
            hovertemplate="%{y} · %{x}<br>%{customdata:.4f}<extra></extra>", xgap=2, ygap=2,
        )
    )  # fmt: skip
    base_layout(fig, words["title"], height=360)
    fig.update_xaxes(side="top", tickangle=-45 if len(r.tokens) > 8 else 0)
    fig.update_yaxes(autorange="reversed")
    return fig


def knockout(r, words: dict[str, str]) -> go.Figure:
    """Top: the top-k before (blue) and after (red) the chosen heads are silenced. Bottom: each head alone silenced,
    its change of p(answer) (red: the answer loses probability); × marks the heads silenced above. No legend: the
    titles name the colours (a phone has no room for both)."""
    fig = make_subplots(rows=2, cols=1, subplot_titles=(words["before_after"], words["grid"]), vertical_spacing=0.3,
                        row_heights=[0.4, 0.6])  # fmt: skip
    before = dict(zip(r.before_tokens, r.before_probs))
    after = dict(zip(r.after_tokens, r.after_probs))
    order = list(dict.fromkeys([*r.before_tokens, *r.after_tokens]))
    x = [html.escape(t) for t in order]
    fig.add_trace(go.Bar(x=x, y=[before.get(t, 0) for t in order], name=words["before"], marker_color=PALETTE[0]), 1, 1)
    fig.add_trace(go.Bar(x=x, y=[after.get(t, 0) for t in order], name=words["after"], marker_color=PALETTE[3]), 1, 1)
    limit = max(float(np.abs(r.effects).max()), 1e-9)
    fig.add_trace(
        go.Heatmap(
            z=r.effects, colorscale=DIVERGING, zmid=0, zmin=-limit, zmax=limit,
            colorbar=dict(len=0.55, y=0.28, thickness=10), hovertemplate=words["cell"] + "<extra></extra>",
        ),
        2, 1,
    )  # fmt: skip
    if r.knocked:
        fig.add_trace(go.Scatter(x=[h for _, h in r.knocked], y=[layer for layer, _ in r.knocked], mode="markers",
                                 marker=dict(symbol="x", color="black", size=8), hoverinfo="skip"), 2, 1)  # fmt: skip
    fig.update_xaxes(title=words["head_axis"], dtick=1 if r.heads <= 8 else 2, range=[-0.5, r.heads - 0.5], row=2, col=1)
    fig.update_yaxes(title=words["layer_axis"], autorange="reversed", dtick=1 if r.layers <= 12 else 2, row=2, col=1)
    fig.update_yaxes(title=words["prob"], row=1, col=1)
    base_layout(fig, "", height=max(680, 400 + 16 * r.layers))  # room for rotated tokens above the grid's title
    fig.update_layout(showlegend=False, barmode="group")
    return fig


def patching(r, words: dict[str, str]) -> go.Figure:
    """Per position of sentence B: how far its output distribution moved (total variation), coloured by side."""
    colour = [PALETTE[1] if i == r.position else PALETTE[0] if i < r.position else PALETTE[3] for i in range(len(r.tokens))]
    hover = [f"{html.escape(b)} → {html.escape(a)}" for b, a in zip(r.top_before, r.top_after)]
    fig = go.Figure(
        go.Bar(
            x=labels(r.tokens, r.display), y=r.change, marker_color=colour, customdata=np.array([hover, r.logit_change],
            dtype=object).T, hovertemplate=words["hover"] + "<extra></extra>",
        )
    )  # fmt: skip
    base_layout(fig, words["title"], height=380)
    # log scale from 1e-6: a bidirectional model's small changes far from the patch still show, a causal model's
    # exact zeros left of it show as no bar at all
    fig.update_yaxes(title=words["change"], type="log", range=[-6, 0.05], dtick=1, exponentformat="power")
    fig.update_xaxes(tickangle=-45 if len(r.tokens) > 8 else 0)
    return fig


__all__ = ["lens", "attribution", "knockout", "patching", "labels", "SEQUENTIAL"]
