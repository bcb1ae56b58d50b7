"""Attention results -> Plotly figures (and the overview as an image); numpy in, no torch.

Long inputs stay readable and light: query rows are shown in windows of MAX_ROWS, tick labels
are thinned, and small multiples are block-averaged, so each figure stays well under 1 MB.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw  # Pillow comes with Gradio: the overview's layer and head numbers
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import MUTED, PALETTE, SEQUENTIAL, base_layout

MAX_ROWS = 256  # query rows per heatmap (a 512-token map is shown as two windows)
MAX_LABELS = 40  # tick labels per axis before thinning
THUMB_CELLS = 48  # small multiples are block-averaged to at most this many cells per side


def token_labels(tokens: list[str], token_types: list[int] | None = None) -> list[str]:
    """Unique axis labels ("3·cat"); segment B tokens are marked, as BERT's token_type_ids = 1."""
    types = token_types or [0] * len(tokens)
    return [f"{i}·{tok}" + (" ᴮ" if seg else "") for i, (tok, seg) in enumerate(zip(tokens, types))]


def _thin(n: int) -> int:
    return max(1, math.ceil(n / MAX_LABELS))


def heatmap_figure(
    tokens: list[str],
    matrix: np.ndarray,
    title: str,
    row_start: int = 0,
    token_types: list[int] | None = None,
    x_title: str = "key (attended to)",
    y_title: str = "query (attending)",
    zmax: float | None = None,
) -> go.Figure:
    """One (T, T) map, queries down, keys across; rows [row_start, row_start + MAX_ROWS)."""
    labels = token_labels(tokens, token_types)
    stop = min(len(tokens), row_start + MAX_ROWS)
    rows = np.asarray(matrix[row_start:stop], dtype=np.float32)
    fig = go.Figure(
        go.Heatmap(
            z=rows,
            x=labels,
            y=labels[row_start:stop],
            colorscale=SEQUENTIAL,
            zmin=0,
            zmax=zmax,
            hovertemplate="%{y} → %{x}<br>%{z:.4f}<extra></extra>",
        )
    )
    size = max(360, min(900, 18 * len(rows) + 120))
    base_layout(fig, title, height=size)
    fig.update_xaxes(title=x_title, dtick=_thin(len(tokens)), tickangle=-60, side="top")
    fig.update_yaxes(title=y_title, dtick=_thin(len(rows)), autorange="reversed")
    return fig


def pool(matrix: np.ndarray, cells: int = THUMB_CELLS) -> np.ndarray:
    """Block-average the last two axes down to at most `cells` x `cells`."""
    edges = [np.linspace(0, n, min(n, cells) + 1).astype(int)[:-1] for n in matrix.shape[-2:]]
    summed = np.add.reduceat(np.add.reduceat(matrix.astype(np.float32), edges[0], axis=-2), edges[1], axis=-1)
    sizes = np.outer(np.diff(np.append(edges[0], matrix.shape[-2])), np.diff(np.append(edges[1], matrix.shape[-1])))
    return summed / sizes


def layer_heads_figure(tokens: list[str], maps: np.ndarray, title: str, head_title: str = "head {head}") -> go.Figure:
    """All heads of one layer as small multiples; (heads, T, T), averaged in blocks for long inputs."""
    heads = maps.shape[0]
    cols = min(heads, 6 if heads % 6 == 0 or heads > 9 else (3 if heads == 9 else 4))
    rows = math.ceil(heads / cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=[head_title.format(head=h) for h in range(heads)],
        horizontal_spacing=0.02,
        vertical_spacing=0.06,
    )
    pooled = pool(maps)
    for h in range(heads):
        fig.add_trace(
            go.Heatmap(
                z=pooled[h],
                colorscale=SEQUENTIAL,
                zmin=0,
                showscale=h == 0,
                hovertemplate=f"{head_title.format(head=h)}<br>%{{z:.3f}}<extra></extra>",
            ),
            row=h // cols + 1,
            col=h % cols + 1,
        )
    fig.update_xaxes(showticklabels=False)
    fig.update_yaxes(showticklabels=False, autorange="reversed")
    return base_layout(fig, title, height=170 * rows + 80)


def _blues(x: np.ndarray) -> np.ndarray:
    """Values in [0, 1] -> RGB uint8 along a white-to-dark-blue ramp (the heatmaps' colours)."""
    stops = np.array([[247, 251, 255], [198, 219, 239], [107, 174, 214], [33, 113, 181], [8, 48, 107]], dtype=np.float32)
    pos = np.clip(x, 0, 1) * (len(stops) - 1)
    low = np.floor(pos).astype(int).clip(0, len(stops) - 2)
    frac = (pos - low)[..., None]
    return (stops[low] * (1 - frac) + stops[low + 1] * frac).astype(np.uint8)


# The overview's margins: layer numbers down the left, head numbers along the top (a grid of bare thumbnails left
# a student counting rows and columns to find "layer 3, head 1").
OVERVIEW_LEFT, OVERVIEW_TOP = 22, 14


def overview_image(attentions: np.ndarray, thumb: int = 32, gap: int = 4) -> np.ndarray:
    """Layers (rows) x heads (columns) thumbnails as one RGB image, each map scaled to its own maximum; each row is
    numbered by its layer at the left, each column by its head at the top (digits: the same in both languages)."""
    layers, heads, length, _ = attentions.shape
    step = thumb + gap
    image = np.full((OVERVIEW_TOP + layers * step - gap, OVERVIEW_LEFT + heads * step - gap, 3), 255, dtype=np.uint8)
    pooled = pool(attentions, thumb)
    pooled = pooled / np.maximum(pooled.max(axis=(-2, -1), keepdims=True), 1e-9)
    idx = np.arange(thumb) * pooled.shape[-1] // thumb  # nearest-neighbour up to thumb x thumb
    for layer in range(layers):
        for head in range(heads):
            y, x = OVERVIEW_TOP + layer * step, OVERVIEW_LEFT + head * step
            image[y : y + thumb, x : x + thumb] = _blues(pooled[layer, head][np.ix_(idx, idx)])
    canvas = Image.fromarray(image)
    draw = ImageDraw.Draw(canvas)
    for layer in range(layers):
        draw.text((OVERVIEW_LEFT - 3, OVERVIEW_TOP + layer * step + thumb // 2), str(layer), fill=(60, 60, 60), anchor="rm")
    for head in range(heads):
        draw.text((OVERVIEW_LEFT + head * step + thumb // 2, OVERVIEW_TOP - 2), str(head), fill=(60, 60, 60), anchor="mb")
    return np.asarray(canvas)


def overview_cell(x: int, y: int, layers: int, heads: int, thumb: int = 32, gap: int = 4) -> tuple[int, int] | None:
    """(layer, head) of the thumbnail at pixel (x, y) (a gap counts for the thumbnail before it), None outside
    (the number margins included)."""
    x, y = x - OVERVIEW_LEFT, y - OVERVIEW_TOP
    layer, head = y // (thumb + gap), x // (thumb + gap)
    return (layer, head) if 0 <= layer < layers and 0 <= head < heads and x >= 0 and y >= 0 else None


def token_lines(matrix: np.ndarray, query: int | None, min_weight: float = 0.02, levels: int = 6) -> list[dict]:
    """One head's lines (query i on the left -> key j on the right), in `levels` opacity bands: a trace per band keeps
    the figure small. assets/attention_redraw.js draws the same bands in the browser (tested equal in e2e)."""
    length = matrix.shape[0]
    queries = range(length) if query is None else [query]
    edges = [(i, j, float(matrix[i, j])) for i in queries for j in range(length) if matrix[i, j] >= min_weight]
    top = max((w for _, _, w in edges), default=1.0)
    bands = []
    for level in range(levels):
        low, high = top * level / levels, top * (level + 1) / levels
        xs, ys = [], []
        for i, j, w in edges:
            if low < w <= high or (level == 0 and w <= high):
                xs += [0, 1, None]
                ys += [-i, -j, None]
        bands.append({"x": xs, "y": ys, "width": 1 + 3 * (level + 1) / levels, "opacity": 0.15 + 0.85 * (level + 1) / levels})
    return bands


def token_view_figure(
    tokens: list[str], maps: np.ndarray, head: int, title: str, query: int | None = None, head_name: str = "head {head}"
) -> go.Figure:
    """bertviz's head view: tokens on the left attend to tokens on the right, every head of the layer in its own colour
    (`maps`: (heads, T, T)); line opacity = weight. The chosen head is drawn, the others wait in the legend: a click on
    a head's colour adds or removes it."""
    length = len(tokens)
    fig = go.Figure()
    for h in range(maps.shape[0]):
        for band_index, band in enumerate(token_lines(maps[h], query)):
            fig.add_trace(
                go.Scatter(
                    x=band["x"] or [None],
                    y=band["y"] or [None],
                    mode="lines",
                    hoverinfo="skip",
                    name=head_name.format(head=h),
                    legendgroup=f"head{h}",
                    showlegend=band_index == 0,
                    visible=True if h == head else "legendonly",
                    line=dict(color=PALETTE[h % len(PALETTE)], width=band["width"]),
                    opacity=band["opacity"],
                )
            )
    colors = [PALETTE[3] if query == i else ("black" if query is None else MUTED) for i in range(length)]
    for x, anchor, col in ((0, "left", colors), (1, "right", ["black"] * length)):
        fig.add_trace(
            go.Scatter(
                x=[x] * length,
                y=[-i for i in range(length)],
                mode="text",
                text=tokens,
                textposition=f"middle {anchor}",
                textfont=dict(color=col),
                showlegend=False,
                hovertemplate="%{text}<extra></extra>",
            )
        )
    fig.update_xaxes(visible=False, range=[-0.6, 1.6])
    fig.update_yaxes(visible=False, range=[-length + 0.5, 0.5])
    return base_layout(fig, title, height=max(300, 20 * length + 80))


def share_figure(
    first_share: np.ndarray,
    special_share: np.ndarray,
    title: str,
    first_name: str,
    special_name: str,
    x_title: str = "layer",
    y_title: str = "share of attention",
) -> go.Figure:
    """Per layer, the mean attention mass on the first token and on the other special tokens."""
    layers = list(range(len(first_share)))
    fig = go.Figure(
        [
            go.Scatter(x=layers, y=first_share, mode="lines+markers", name=first_name, line=dict(color=PALETTE[0])),
            go.Scatter(x=layers, y=special_share, mode="lines+markers", name=special_name, line=dict(color=PALETTE[1])),
        ]
    )
    fig.update_xaxes(title=x_title, dtick=1 if len(layers) <= 12 else None)
    fig.update_yaxes(title=y_title, range=[0, 1])
    return base_layout(fig, title, height=380)


def entropy_figure(entropy: np.ndarray, title: str, x_title: str = "head", y_title: str = "layer") -> go.Figure:
    """(layers, heads) mean row entropy in bits: low = focused heads, high = broad ones."""
    fig = go.Figure(
        go.Heatmap(
            z=entropy,
            colorscale="Viridis",
            colorbar=dict(title="bits"),
            hovertemplate="layer %{y} · head %{x}<br>%{z:.2f} bits<extra></extra>",
        )
    )
    fig.update_xaxes(title=x_title, dtick=1)
    fig.update_yaxes(title=y_title, autorange="reversed")
    return base_layout(fig, title, height=max(320, 18 * entropy.shape[0] + 120))


def compare_figure(panels: list[tuple[str, list[str], np.ndarray]], title: str) -> go.Figure:
    """Maps of several models side by side, e.g. bidirectional vs causal, each (title, tokens, (T, T))."""
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[p[0] for p in panels], horizontal_spacing=0.12)
    for col, (_, tokens, matrix) in enumerate(panels, start=1):
        labels = token_labels(tokens)
        rows = min(len(tokens), MAX_ROWS)
        fig.add_trace(
            go.Heatmap(
                z=np.asarray(matrix[:rows], dtype=np.float32),
                x=labels,
                y=labels[:rows],
                colorscale=SEQUENTIAL,
                zmin=0,
                zmax=1,
                showscale=col == 1,
                hovertemplate="%{y} → %{x}<br>%{z:.4f}<extra></extra>",
            ),
            row=1,
            col=col,
        )
        fig.update_xaxes(dtick=_thin(len(tokens)), tickangle=-60, row=1, col=col)
        fig.update_yaxes(dtick=_thin(rows), autorange="reversed", row=1, col=col)
    return base_layout(fig, title, height=max(420, min(900, 14 * max(len(p[1]) for p in panels) + 160)))


def step_figure(
    tokens: list[str],
    scores: np.ndarray,
    weights: np.ndarray,
    model_weights: np.ndarray,
    title: str,
    names: tuple[str, str, str] = ("q·k/√d", "softmax", "model's attention"),
) -> go.Figure:
    """Scores of one query against every key, their softmax, and the model's own weights on top."""
    labels = token_labels(tokens)
    shown = [None if not np.isfinite(s) else float(s) for s in scores]  # masked (future) keys: no bar
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, subplot_titles=names[:2], vertical_spacing=0.1)
    fig.add_trace(go.Bar(x=labels, y=shown, name=names[0], marker_color=PALETTE[1]), row=1, col=1)
    fig.add_trace(go.Bar(x=labels, y=weights, name=names[1], marker_color=PALETTE[0]), row=2, col=1)
    fig.add_trace(
        go.Scatter(x=labels, y=model_weights, mode="markers", name=names[2], marker=dict(color=PALETTE[3], symbol="x", size=9)),
        row=2,
        col=1,
    )
    fig.update_xaxes(dtick=_thin(len(tokens)), tickangle=-60, row=2, col=1)
    return base_layout(fig, title, height=520)


def positional_figure(encoding: np.ndarray, title: str, x_title: str = "dimension", y_title: str = "position") -> go.Figure:
    """The sinusoidal encoding, positions down, dimensions across, values in [-1, 1]."""
    fig = go.Figure(
        go.Heatmap(
            z=encoding, colorscale="RdBu", zmin=-1, zmax=1, hovertemplate="position %{y} · dim %{x}<br>%{z:.3f}<extra></extra>"
        )
    )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, autorange="reversed")
    return base_layout(fig, title, height=460)


def similarity_figure(similarity: np.ndarray, title: str, axis_title: str = "position") -> go.Figure:
    """Cosine similarity between position vectors: a bright band near the diagonal = nearby positions alike."""
    fig = go.Figure(
        go.Heatmap(z=similarity, colorscale="RdBu", zmin=-1, zmax=1, hovertemplate="%{y} vs %{x}<br>cos %{z:.3f}<extra></extra>")
    )
    fig.update_xaxes(title=axis_title)
    fig.update_yaxes(title=axis_title, autorange="reversed")
    return base_layout(fig, title, height=460)
