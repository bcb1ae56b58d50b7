"""Polysemy figures (a PolysemyRun in, plotly out): where the vectors land, how alike they are, layer by layer."""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import (
    whole_step,
    LINE,
    MUTED,
    NARROWEST_PANEL,
    PAGE_FONT,
    PALETTE,
    SEQUENTIAL,
    base_layout,
    row_spacing,
    text_width,
)

if TYPE_CHECKING:  # types only: the backend module loads models, and figures never import torch
    from playground.polysemy import PolysemyRun, Sentence

COLS = 3
# The 3-D camera: plotly's default eye (1.25, 1.25, 1.25) looking at the centre showed the cube too close and low in
# its panel (corners and labels cut at the bottom); from farther, aimed a little below the centre, the cube keeps
# 17 px or more to every edge of a 244 x 282 px panel (measured in Chromium, tests/e2e/test_polysemy.py).
SCENE_CAMERA = dict(eye=dict(x=1.6, y=1.6, z=1.2), center=dict(x=0, y=0, z=-0.1))


def highlighted(target: Sentence) -> str:
    """The sentence as HTML with the target word in bold (plotly hover text)."""
    if target.span is None:
        return html.escape(target.text)
    a, b = target.span
    t = target.text
    return f"{html.escape(t[:a])}<b>{html.escape(t[a:b])}</b>{html.escape(t[b:])}"


def sense_colours(targets: list[Sentence]) -> dict[str, str]:
    labels = list(dict.fromkeys(t.label for t in targets))
    named = [label for label in labels if label]
    return {label: (PALETTE[named.index(label) % len(PALETTE)] if label else MUTED) for label in labels}


def _grid(n: int) -> tuple[int, int]:
    cols = min(COLS, max(n, 1))
    return math.ceil(max(n, 1) / cols), cols


def _title(view) -> str:
    label = html.escape(view.label)
    return f"{label}<br><sup>layer {view.layer}</sup>" if view.source == "contextual" else label


def coincident(coords: np.ndarray) -> list[list[int]]:
    """Groups (2 or more) of points drawn at the same place: one dot on screen stands for all of them."""
    scale = max(float(np.abs(coords).max()) if coords.size else 0.0, 1.0)
    groups: dict[tuple, list[int]] = {}
    for k, point in enumerate(np.round(np.asarray(coords) / scale, 6)):
        groups.setdefault(tuple(point.tolist()), []).append(k)
    return [g for g in groups.values() if len(g) > 1]


def note_place(coords: np.ndarray, point: list[float]) -> dict:
    """Where a "n sentences, one point" note goes beside its point so the panel does not cut it (the 银行 preset's
    MiniLM note lost its "2" at the left edge, and one at the top sat on the panel's subtitle): anchored on the side
    away from the nearer edge, and below a point in the top fifth."""
    spans = [(float(coords[:, d].min()), float(coords[:, d].max())) if len(coords) else (0.0, 1.0) for d in (0, 1)]
    where = [(p - low) / (high - low) if high - low > 1e-9 else 0.5 for p, (low, high) in zip(point[:2], spans)]
    anchor = "left" if where[0] < 0.3 else "right" if where[0] > 0.7 else "center"
    return dict(xanchor=anchor, ay=28 if where[1] > 0.8 else -28)


def scatter_traces(result: PolysemyRun) -> list[tuple[int, str, list[int]]]:
    """The scatter's traces in drawing order: (panel, sense label, the panel's rows in it); one source for the
    figure and for the browser's redraw of another layer (playground/ui/polysemy/render.py `browser_data`)."""
    colours = sense_colours(result.sentences)
    out = []
    for n, v in enumerate(result.models):
        for label in colours:
            idx = [k for k, i in enumerate(v.rows) if result.sentences[i].label == label]
            if idx:
                out.append((n, label, idx))
    return out


def scatter_figure(
    result: PolysemyRun,
    no_label: str = "(no label)",
    title: str = "",
    titles: list[str] | None = None,
    one_point: str = "{n} sentences, one point",
) -> go.Figure:
    """One projected scatter per model (2-D or 3-D), points coloured by sense.

    Points that coincide (a static table's one vector, identical inputs) are one dot on screen, in the colour
    of whichever sense was drawn last: an annotation says how many sentences it stands for (`one_point`).
    `titles` are the panel titles (already HTML-escaped); English ones are made when absent.
    """
    rows, cols = _grid(len(result.models))
    kind = "scene" if result.dims == 3 else "xy"
    titles = titles or [_title(v) for v in result.models]
    height = 360 * rows
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=titles,
        specs=[[{"type": kind}] * cols for _ in range(rows)],
        horizontal_spacing=0.06,
        vertical_spacing=row_spacing(titles, rows, height),  # the axes show no ticks: only the next row's titles
    )
    colours, shown = sense_colours(result.sentences), set()
    traces = scatter_traces(result)
    for n, v in enumerate(result.models):
        r, c = divmod(n, cols)
        for label, idx in ((label, idx) for m, label, idx in traces if m == n):
            colour = colours[label]
            hover = [f"{highlighted(result.sentences[v.rows[k]])}<br>{html.escape(' '.join(v.pieces[k]))}" for k in idx]
            xyz = dict(zip("xyz", v.coords[idx].T.tolist()))
            common = dict(
                name=html.escape(label or no_label),
                legendgroup=label,
                showlegend=label not in shown,
                text=hover,
                hovertemplate="%{text}<extra>" + html.escape(label or no_label) + "</extra>",
                mode="markers",
            )
            marker = dict(color=colour, size=6 if kind == "scene" else 10, line=dict(width=1, color="white"))
            trace = (
                go.Scatter3d(marker=marker, **xyz, **common) if kind == "scene" else go.Scatter(marker=marker, **xyz, **common)
            )
            fig.add_trace(trace, row=r + 1, col=c + 1)
            shown.add(label)
        for group in coincident(v.coords):  # (the browser's redraw places these notes by the same rule)
            point = v.coords[group[0]].tolist()
            note = dict(text=html.escape(one_point.format(n=len(group))), showarrow=True, arrowhead=0, ax=0, ay=-28)
            if kind != "scene":
                note.update(note_place(v.coords, point))
            if kind == "scene":
                scene = fig.layout[f"scene{n + 1 if n else ''}"]
                scene.annotations = [*scene.annotations, dict(x=point[0], y=point[1], z=point[2], **note)]
            else:
                fig.add_annotation(x=point[0], y=point[1], row=r + 1, col=c + 1, **note)
    if kind == "xy":  # room around the points: a marker on the axis' edge was drawn half outside the panel
        for n, v in enumerate(result.models):
            r, c = divmod(n, cols)
            for axis, values in (("x", v.coords[:, 0]), ("y", v.coords[:, 1])):
                low, high = (float(values.min()), float(values.max())) if len(values) else (-1.0, 1.0)
                pad = max(high - low, 1e-6) * 0.15
                update = fig.update_xaxes if axis == "x" else fig.update_yaxes
                update(range=[low - pad, high + pad], row=r + 1, col=c + 1)
    fig.update_xaxes(showticklabels=False, zeroline=False)
    fig.update_yaxes(showticklabels=False, zeroline=False)
    if kind == "scene":
        # As in 2-D, a projection's coordinates mean nothing: no tick labels (they were what the panel edge cut)
        axis = dict(showticklabels=False, title=dict(text=""), showspikes=False)
        fig.update_scenes(xaxis=axis, yaxis=axis, zaxis=axis, aspectmode="cube", camera=SCENE_CAMERA)
    return base_layout(fig, title, height=height)


def pair_cosine_figure(
    result: PolysemyRun,
    title: str = "",
    pair_title: str = "cos(#{a}, #{b})",
    layer: str = "layer",
    names: list[str] | None = None,
    reference: str = "{model}: vs the other words (reference)",
    cos: str = "cos",
) -> go.Figure:
    """With few sentences: the cosine between each pair of uses at every layer, one panel per pair, one line per model.

    The y axis is fixed (0 to 1, lower only if a cosine is negative) so 0.89 and 0.99 look as different as they are;
    a single-vector baseline (a static table, input embeddings) is a dashed line at its one value. A contextual
    model's reference is a dotted line of its colour: the word against the other sentence's other words, the cosine
    of unrelated tokens at that layer (`reference`: its legend entry, with a `{model}` slot, already escaped).

    On a phone (390 px) a long title, the pair's panel title, the mode bar and a wrapped axis title took the figure's
    height and left a plot ~150 px high (issue 37 item 7): one pair gets no panel title (the figure is about it), the
    titles are short, and the legend sits under the plot with room reserved for it (`height` grows with it).
    """
    names = names or [html.escape(v.label) for v in result.models]
    pairs = list(dict.fromkeys(tuple(p["pair"]) for v in result.models for p in v.pair_cosines))
    cols = min(len(pairs), COLS) or 1
    rows = math.ceil(max(len(pairs), 1) / cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=[html.escape(pair_title.format(a=a, b=b)) for a, b in pairs] if len(pairs) > 1 else None,
        horizontal_spacing=0.08,
        vertical_spacing=0.18,
    )
    depth = max((v.num_layers for v in result.models), default=0)
    lowest = min(
        (x for v in result.models for p in v.pair_cosines for x in [*p["by_layer"], *p.get("reference_by_layer", [])]),
        default=0.0,
    )
    for n, v in enumerate(result.models):
        colour = PALETTE[n % len(PALETTE)]
        for p in v.pair_cosines:
            k = pairs.index(tuple(p["pair"]))
            values = p["by_layer"]
            if len(values) > 1:
                trace = go.Scatter(x=list(range(len(values))), y=values, mode="lines+markers", line=dict(color=colour))
            else:
                trace = go.Scatter(x=[0, max(depth, 1)], y=values * 2, mode="lines", line=dict(color=colour, dash="dash"))
            trace.update(
                name=names[n], legendgroup=v.key, showlegend=k == 0, hovertemplate=f"{names[n]}: %{{y:.3f}}<extra></extra>"
            )
            fig.add_trace(trace, row=k // cols + 1, col=k % cols + 1)
            if p.get("reference_by_layer"):
                other = p["reference_by_layer"]
                name = reference.format(model=names[n])
                fig.add_trace(
                    go.Scatter(
                        x=list(range(len(other))),
                        y=other,
                        mode="lines",
                        line=dict(color=colour, dash="dot", width=1.5),
                        name=name,
                        legendgroup=f"{v.key}:reference",
                        showlegend=k == 0,
                        hovertemplate=f"{name}: %{{y:.3f}}<extra></extra>",
                    ),
                    row=k // cols + 1,
                    col=k % cols + 1,
                )
    fig.update_xaxes(title_text=layer, dtick=1 if depth <= 12 else 2)
    fig.update_yaxes(range=[min(0.0, lowest) - 0.02, 1.02], title_text=cos)
    entries = sum(1 for trace in fig.data if trace.showlegend)
    fig = base_layout(fig, title, height=380 * rows + 22 * entries)
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.18, x=0, xanchor="left"))
    fig.update_layout(modebar=dict(orientation="v"))  # upright at the right edge: across the top it covered the title
    return fig


def colour_range(result: PolysemyRun, least: float = 0.05) -> tuple[float, float]:
    """The cosines' own range over every panel (one scale for all), at least `least` wide.

    A fixed -1..1 scale washes out contextual vectors, whose cosines mostly lie between 0.3 and 1.
    """
    values = np.concatenate([np.ravel(v.similarity) for v in result.models] or [np.ones(1)])
    values = values[np.isfinite(values)] if values.size else np.ones(1)
    low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
    return (min(low, high - least), high)


def similarity_figure(
    result: PolysemyRun,
    title: str = "",
    titles: list[str] | None = None,
    colourbar: str = "cos (colours: the data's range)",
    fixed: bool = False,
) -> go.Figure:
    """Cosine similarity between the sentences' vectors, per model; rows and columns ordered by sense.

    Colours span the data's range (the same in every panel; the ticks show it), and the colour bar's title says so.
    `fixed` (few sentences): 0 to 1 instead, since the data's range of two sentences is one value and 1, which drew
    0.89 white; small matrices print each cosine in its cell.
    """
    rows, cols = _grid(len(result.models))
    titles = titles or [_title(v) for v in result.models]
    height = 380 * rows
    # Columns are numbered (#3), in the rows' order: upright while the numbers fit the narrowest panel at projector
    # size, else upright-turned (-90°). Under a row sit its numbers, then the next row's titles (they overlapped the
    # slanted "sense #n" labels there were before).
    last = f"#{max((max(v.rows, default=0) for v in result.models), default=0) + 1}"
    count = max((len(v.rows) for v in result.models), default=0)
    upright = count * (text_width(last) + 8) <= NARROWEST_PANEL
    below = (PAGE_FONT * LINE if upright else text_width(last)) + 6
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=titles,
        horizontal_spacing=0.08,
        vertical_spacing=row_spacing(titles, rows, height, below=below),
    )
    low, high = colour_range(result)
    if fixed:
        low, high = min(0.0, low), 1.0
    for n, v in enumerate(result.models):
        r, c = divmod(n, cols)
        ticks = [f"{html.escape(result.sentences[i].label) or '·'} #{i + 1}" for i in v.rows]
        columns = [f"#{i + 1}" for i in v.rows]  # the rows' labels name the senses; the columns are in the same order
        hover = [highlighted(result.sentences[i]) for i in v.rows]
        text = [[f"{hover[a]}<br>{hover[b]}" for b in range(len(hover))] for a in range(len(hover))]
        fig.add_trace(
            go.Heatmap(
                z=np.round(v.similarity, 3).tolist(),
                x=columns,
                y=ticks,
                zmin=low,
                zmax=high,
                colorscale=SEQUENTIAL,
                text=text,
                hovertemplate="%{text}<br>cos = %{z}<extra></extra>",
                texttemplate="%{z:.2f}" if len(v.rows) <= 8 else None,
                showscale=n == 0,
                colorbar=dict(title=dict(text=colourbar.format(low=low, high=high), side="right"), len=0.9),
            ),
            row=r + 1,
            col=c + 1,
        )
        fig.update_yaxes(autorange="reversed", row=r + 1, col=c + 1)
    fig.update_xaxes(tickangle=0 if upright else -90, tickfont=dict(size=9))
    fig.update_yaxes(tickfont=dict(size=9))
    return base_layout(fig, title, height=height)


def layer_curve_figure(
    result: PolysemyRun,
    separation: str = "sense separation (cos within − cos across)",
    accuracy: str = "nearest-neighbour sense accuracy",
    layer: str = "layer",
    title: str = "",
    names: list[str] | None = None,
) -> go.Figure:
    """Both scores across layers for every contextual model; single-vector baselines as dashed horizontal lines.

    `names` are the legend entries (already HTML-escaped); English ones are made when absent.
    """
    names = names or [html.escape(v.label) for v in result.models]
    fig = make_subplots(rows=1, cols=2, subplot_titles=[separation, accuracy], horizontal_spacing=0.1)
    depth = max((v.num_layers for v in result.models), default=0)
    for n, v in enumerate(result.models):
        colour = PALETTE[n % len(PALETTE)]
        for col, values in ((1, v.separation_by_layer), (2, v.nn_accuracy_by_layer)):
            if len(values) > 1:
                trace = go.Scatter(x=list(range(len(values))), y=values.tolist(), mode="lines+markers", line=dict(color=colour))
            else:
                trace = go.Scatter(
                    x=[0, max(depth, 1)], y=[float(values[0])] * 2, mode="lines", line=dict(color=colour, dash="dash")
                )
            trace.update(name=names[n], legendgroup=v.key, showlegend=col == 1)
            fig.add_trace(trace, row=1, col=col)
    fig.update_xaxes(title_text=layer, tick0=0, dtick=whole_step(depth))  # layers are whole numbers
    fig.update_yaxes(range=[-0.02, 1.02], row=1, col=2)
    return base_layout(fig, title, height=380)
