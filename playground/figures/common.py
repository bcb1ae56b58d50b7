"""Shared look: colours and layout defaults, so every demo's figures read alike."""

from __future__ import annotations

import html
import re

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


# What the page does to a figure's text (assets/plot_fit.js): subplot titles wrap to their panel's width, and in
# projector mode no text is smaller than 16 px. A figure whose panels sit in rows has to leave room for that between
# the rows, in pixels, though plotly spaces rows by a fraction of the plot's height: these estimate the pixels.
PAGE_FONT = 16  # px: subplot titles as drawn; every tick label in projector mode
NARROWEST_PANEL = 220  # px: a panel of a 3-column grid at the narrowest the page lays one out (phones scroll at that)
LINE = 1.25  # line height, in font sizes
MARGINS = 100  # px: the house margins, and what plot_fit.js may add above the plot for a wrapped title
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def text_width(text: str, size: float = PAGE_FONT) -> float:
    """Width in px of one line at font `size`, per character as plot_fit.js estimates it (tags do not count)."""
    plain = re.sub(r"<[^>]*>", "", html.unescape(text))
    return sum(
        (1.0 if _CJK.match(c) else 0.68 if c.isdigit() or c in "ABCDEFGHIJKLMNOPQRSTUVWXYZmwMW@" else 0.52) * size for c in plain
    )


def title_height(title: str, width: float = NARROWEST_PANEL, size: float = PAGE_FONT) -> float:
    """Height in px of a subplot title wrapped at `width` (words, or CJK characters), a <sup> line at 70 %."""
    height = 0.0
    for line in re.split(r"<br\s*/?>", title or ""):
        small = line.strip().startswith("<sup>")
        px = size * (0.7 if small else 1.0)
        lines, current = 0, ""
        for word in re.findall(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|\S+\s*", re.sub(r"<[^>]*>", "", line)):
            if current and text_width(current + word.rstrip(), px) > width:
                lines, current = lines + 1, word
            else:
                current += word
        height += (lines + bool(current.strip())) * px * LINE
    return height


def row_spacing(titles: list[str], rows: int, height: float, below: float = 0.0, pad: float = 10.0) -> float:
    """plotly's vertical_spacing for `rows` rows in a figure `height` px high (its house margins taken off) that leaves
    room, under a row, for what hangs below its axes (`below` px: tick labels, an axis title) and the next row's
    tallest title, wrapped at the narrowest panel."""
    if rows < 2:
        return 0.1
    need = below + max((title_height(t) for t in titles), default=0.0) + pad
    return min(need / (height - MARGINS), 0.5 / (rows - 1))


def whole_step(span: float, most: int = 10) -> int:
    """A tick step for an axis of whole numbers (layers, training steps) spanning `span`: 1, 2, 5, 10, 20, 50, ...,
    the smallest giving at most `most` ticks. Plotly's own choice put ticks at 0.5 and 1.5 on a 3-layer axis (ELMo)
    and a 4-step curve, numbers that name no layer and no step."""
    step, factors = 1, (2, 2.5, 2)  # 1 -> 2 -> 5 -> 10 -> 20 -> 50 -> 100 ...
    i = 0
    while span / step > most:
        step, i = int(step * factors[i % 3]), i + 1
    return step
