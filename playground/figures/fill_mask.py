"""Fill-mask readings as side-by-side horizontal probability bars: one column per reading, one row per mask."""

from __future__ import annotations

import html

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import PALETTE, base_layout
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types only: importing the fill_mask package would pull in torch
    from playground.fill_mask.data import Reading


def fill_mask_figure(results: list[Reading], titles: list[str], x_title: str, mask_title: str) -> go.Figure:
    """Bars of top-k probabilities; hover shows the raw vocabulary token.

    Plotly reads labels as a little HTML (`<s>` would strike the text through, `<br>` breaks
    it), so every word and token is escaped here: `<s>` and `<|endoftext|>` show as written.

    Args:
        titles: one column title per reading (model id and method, already translated and escaped).
        x_title: axis title for probabilities; mask_title: row label with a `{n}` slot for the mask number.
    """
    n_masks = max(len(r.predictions) for r in results)
    fig = make_subplots(
        rows=n_masks,
        cols=len(results),
        column_titles=titles,
        row_titles=[mask_title.format(n=i + 1) for i in range(n_masks)] if n_masks > 1 else None,
        horizontal_spacing=0.08,
        vertical_spacing=0.12 / max(1, n_masks - 1) if n_masks > 1 else 0.0,
    )
    for col, result in enumerate(results, start=1):
        for row, preds in enumerate(result.predictions, start=1):
            # most probable on top
            # a lone byte (`<0xE5>`) shows as its byte, never as "�"; the notes say what a byte piece is
            label = [(p.piece if p.byte else p.word) or p.raw for p in preds]
            ranked = [(f"{rank}. {html.escape(w)}", p) for rank, (w, p) in enumerate(zip(label, preds), start=1)][::-1]
            labels, preds = [lab for lab, _ in ranked], [p for _, p in ranked]
            fig.add_trace(
                go.Bar(
                    x=[p.probability for p in preds],
                    y=labels,  # ranked, so two tokens that read alike stay two bars
                    customdata=[[html.escape(p.piece or p.raw), p.token_id] for p in preds],
                    orientation="h",
                    marker_color=PALETTE[(col - 1) % len(PALETTE)],
                    text=[f"{p.probability:.1%}" for p in preds],
                    textposition="auto",
                    hovertemplate="%{y}<br>token: %{customdata[0]} (id %{customdata[1]})<br>p = %{x:.4f}<extra></extra>",
                    showlegend=False,
                ),
                row=row,
                col=col,
            )
            fig.update_xaxes(range=[0, 1], tickformat=".0%", title_text=x_title if row == n_masks else None, row=row, col=col)
    top_k = max(len(p) for r in results for p in r.predictions)
    return base_layout(fig, height=max(260, n_masks * (60 + 24 * top_k)))
