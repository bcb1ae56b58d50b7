"""Shared look: colours and layout defaults, so every demo's figures read alike."""

from __future__ import annotations

import plotly.graph_objects as go

# Colour-blind-safe (Okabe-Ito) for categories: senses, models, token roles.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
MUTED = "#c7c7c7"  # tokens filtered out, inactive cells
SEQUENTIAL = "Blues"  # probabilities, attention weights, similarities in [0, 1]
DIVERGING = "RdBu"  # signed values (cosines in [-1, 1])

FONT = dict(family="system-ui, 'Noto Sans CJK SC', 'Microsoft YaHei', sans-serif", size=13)


def base_layout(fig: go.Figure, title: str = "", height: int | None = None) -> go.Figure:
    """Apply the house layout: readable CJK-capable fonts, tight margins, white background."""
    fig.update_layout(
        title=dict(text=title, x=0.01, xanchor="left") if title else None,
        font=FONT,
        template="plotly_white",
        margin=dict(l=10, r=10, t=50 if title else 20, b=10),
        **({"height": height} if height else {}),
    )
    return fig
