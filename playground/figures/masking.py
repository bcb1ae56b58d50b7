"""Masking results as figures: colour-coded token grids, attention-mask matrices, rates against theory."""

from __future__ import annotations

import html
import math

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import MUTED, PALETTE, base_layout

# One colour per token fate, shared by every strategy so the legend reads the same everywhere.
ACTION_COLOURS = {
    "none": "#f4f4f4",
    "special": MUTED,
    "mask": PALETTE[0],
    "random": PALETTE[1],
    "kept": PALETTE[2],
    "sentinel": PALETTE[4],
    "predicted": PALETTE[3],
    "context": "#e8f1f8",
    "replaced": PALETTE[3],
    "original": "#dff3ea",
    "source": PALETTE[5],
    "target": PALETTE[6],
    "pad": "#ffffff",  # an empty cell: a replacement word with fewer pieces than the original (ELECTRA)
}
_ORDER = list(ACTION_COLOURS)
_NOT_IN_LEGEND = {"pad"}


def _plain(token: str) -> str:
    """A token as plotly text: plotly reads tags in text (`<s>`, `<extra_id_0>` vanish), so they are escaped."""
    return html.escape(str(token), quote=False)


# A token cell is never narrower than its text (12 px font: ~7.5 px a character, CJK 13 px) nor than MIN_CELL px:
# a 40-token sentence or T5's sentinels stay readable; the figure asks the page for that width (layout.meta.min_width,
# honoured by assets/plot_fit.js, which lets the plot's box scroll sideways instead of squeezing the cells).
MIN_CELL = 28
CELL_FONT = 12


def _label_px(text: str) -> float:
    return sum(13 if ord(ch) > 0x2E80 else 7.5 for ch in str(text)) + 10


def cell_width(labels: list[str]) -> int:
    """The px one token cell needs so that its widest label fits (at the cell font)."""
    lines = [line for label in labels for line in str(label).split("<br>")]
    return int(max([MIN_CELL, *(_label_px(html.unescape(line.replace("<b>", "").replace("</b>", ""))) for line in lines)]))


def _discrete_scale() -> list[list]:
    n = len(_ORDER)
    scale = []
    for k, name in enumerate(_ORDER):
        scale += [[k / n, ACTION_COLOURS[name]], [(k + 1) / n, ACTION_COLOURS[name]]]
    return scale


# Projector mode (assets/plot_fit.js) draws the cells' text at PROJECTOR_FONT px instead of CELL_FONT: a cell's text
# grows by their ratio, its padding does not.
PROJECTOR_FONT = 16
# The widest a grid band may ask for, in projector mode: the plot's box at a 1440 px window (1,214 px, measured in
# Chromium), a little under. A longer sentence wraps into bands of columns (as text wraps into lines), each holding
# its tokens at their own width, so every cell (the masked ones at the sentence's end too) is in view without a
# sideways scroll on a desktop, projector mode included (issue 37, item 2). A narrower box (a phone) still scrolls.
GRID_BOX = 1200


def _projector_px(width: float) -> float:
    """A cell of `width` px at the cell font, at the projector's font."""
    return max(MIN_CELL, (width - 10) * PROJECTOR_FONT / CELL_FONT + 10)


def _label_margin(labels: list[str], font: float) -> float:
    """The left margin the row labels take at `font` px, and the plot's own padding."""
    return 40 + max((_label_px(label) - 10 for label in labels), default=0) * font / CELL_FONT


def _greedy_bands(need: list[float], room: float) -> list[range]:
    bands, start, used = [], 0, 0.0
    for c, width in enumerate(need):
        if c > start and used + width > room:
            bands.append(range(start, c))
            start, used = c, 0.0
        used += width
    return bands + ([range(start, len(need))] if start < len(need) else [])


def grid_bands(widths: list[int], labels: list[str], box: float = GRID_BOX) -> list[range]:
    """The columns in bands, in reading order: as few bands as hold every column within `box` px at the projector's
    font (with the row labels' margin), at least one column each, as even as that count allows (filled greedily
    instead, a sentence just over one band left a lone [SEP] in the second)."""
    need = [_projector_px(width) for width in widths]
    room = box - _label_margin(labels, PROJECTOR_FONT)
    count = len(_greedy_bands(need, room))
    low, high = max([sum(need) / max(count, 1), *need], default=0), max(room, *need, 0)
    for _ in range(20):  # the narrowest room that still needs no more bands
        mid = (low + high) / 2
        low, high = (low, mid) if len(_greedy_bands(need, mid)) <= count else (mid, high)
    return _greedy_bands(need, high)


def token_grid_figure(
    tokens: list[list[str]], rows: list[tuple[str, list[str]]], names: dict[str, str], title: str = "", box: float = GRID_BOX
) -> go.Figure:
    """Rows of tokens coloured by what happened to each; `tokens` gives the text per row, `names` the legend.

    Each column is as wide as its own widest token (cell edges as x): one cell width for all, the widest token's, made
    the default sentence 1,528 px in a 1,214 px box at 1440 px and pushed its masked end out of view (issue 37). A
    sentence wider than `box` (at the projector's font) wraps into bands of columns (`grid_bands`), one heatmap each,
    its rows under the band before, labelled again; the figure asks the page for the widest band's width at each font
    (layout.meta: min_width, min_width_projector; assets/plot_fit.js scrolls a box narrower than that)."""
    n = max((len(toks) for toks in tokens), default=0)
    widths = [cell_width([_plain(toks[c]) for toks in tokens if c < len(toks)]) for c in range(n)]
    labels = [_plain(label) for label, _ in rows]
    bands = grid_bands(widths, labels, box) if n else []
    per_band = len(rows) + 1  # a band's rows and an empty one under it (the gap between bands)
    fig = go.Figure()
    for b, band in enumerate(bands):
        edges = [0]
        for c in band:
            edges.append(edges[-1] + widths[c])

        def cells(row: list, c0=band.start, c1=band.stop, fill=""):
            return [row[c] if c < len(row) else fill for c in range(c0, c1)]

        fig.add_trace(
            go.Heatmap(
                z=[[_ORDER.index(a) for a in cells(actions, fill="pad")] for _, actions in rows],
                x=edges,
                y=[b * per_band + r for r in range(len(rows))],
                text=[[_plain(t) for t in cells(toks)] for toks in tokens],
                texttemplate="%{text}",
                hovertext=[
                    [
                        f"{_plain(t)}<br>{_plain(names.get(a, a))}" if a != "pad" else ""
                        for t, a in zip(cells(toks), cells(acts, fill="pad"))
                    ]
                    for toks, (_, acts) in zip(tokens, rows)
                ],
                hoverinfo="text",
                colorscale=_discrete_scale(),
                zmin=0,
                zmax=len(_ORDER),
                showscale=False,
                xgap=2,
                ygap=2,
                textfont=dict(size=CELL_FONT),
                showlegend=False,
            )
        )
    occurring = dict.fromkeys(a for _, actions in rows for a in actions if a not in _NOT_IN_LEGEND)
    for action in occurring:  # legend: only the fates that occur
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                name=names.get(action, action),
                marker=dict(size=12, symbol="square", color=ACTION_COLOURS[action]),
            )
        )
    shown_rows = len(bands) * per_band - 1 if bands else len(rows)
    fig.update_yaxes(
        tickvals=[b * per_band + r for b in range(len(bands)) for r in range(len(rows))],
        ticktext=labels * len(bands),
        range=[shown_rows - 0.5, -0.5],  # top to bottom, the gaps' rows empty
        showgrid=False,
        zeroline=False,
    )
    widest = max((sum(widths[c] for c in band) for band in bands), default=0)
    fig.update_xaxes(showticklabels=False, range=[0, widest] if n else None, showgrid=False, zeroline=False)
    fig.update_layout(legend=dict(orientation="h", y=-0.15 * len(rows) / shown_rows if bands else -0.15), plot_bgcolor="white")
    projector = max((sum(_projector_px(widths[c]) for c in band) for band in bands), default=0)
    fig.update_layout(
        meta={
            "min_width": round(widest + _label_margin(labels, CELL_FONT)),
            "min_width_projector": round(projector + _label_margin(labels, PROJECTOR_FONT)),
        }
    )
    return base_layout(fig, title, height=140 + 42 * shown_rows)


def matrices_figure(
    matrices: dict[str, list[list[int]]], tokens: list[str], title: str = "", order: list[int] | None = None
) -> go.Figure:
    """Attention masks side by side: row = the position attending, column = what it may see (1 = allowed).

    With `order` (XLNet's factorisation order) rows and columns follow it, labelled "step. token (position)":
    the content stream then reads as a lower triangle with its diagonal, the query stream without it.
    """
    names = list(matrices)
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=[_plain(n) for n in names], horizontal_spacing=0.06)
    if order is None:
        order = list(range(len(tokens)))
        labels = [f"{i}:{_plain(t)}" for i, t in enumerate(tokens)]
    else:
        labels = [f"{k + 1}. {_plain(tokens[pos])} ({pos})" for k, pos in enumerate(order)]
    for k, name in enumerate(names):
        fig.add_trace(
            go.Heatmap(
                z=[[matrices[name][i][j] for j in order] for i in order],
                x=labels,
                y=labels,
                colorscale=[[0, "#ffffff"], [1, PALETTE[0]]],
                zmin=0,
                zmax=1,
                showscale=False,
                xgap=1,
                ygap=1,
                hovertemplate="%{y} → %{x}: %{z}<extra></extra>",
            ),
            1,
            k + 1,
        )
        fig.update_yaxes(autorange="reversed", showticklabels=k == 0, row=1, col=k + 1)
    return base_layout(fig, title, height=max(360, 26 * len(tokens) + 120))


def rates_figure(
    names: list[str], empirical: list[float], theory: list[float], stderr: list[float], labels: tuple[str, str], title: str = ""
) -> go.Figure:
    """Empirical rates (with ±2 standard errors) beside theory."""
    fig = go.Figure(
        [
            go.Bar(
                name=labels[0],
                x=names,
                y=empirical,
                marker_color=PALETTE[0],
                error_y=dict(type="data", array=[2 * s for s in stderr], visible=True),
            ),
            go.Bar(name=labels[1], x=names, y=theory, marker_color=PALETTE[1]),
        ]
    )
    fig.update_layout(barmode="group")
    return base_layout(fig, title, height=360)


def histogram_figure(x: list, series: dict[str, list[float]], x_title: str, title: str = "") -> go.Figure:
    """Distributions over `x` as grouped bars (e.g. span lengths: drawn, realised, theory)."""
    fig = go.Figure(
        [go.Bar(name=name, x=x, y=y, marker_color=PALETTE[k % len(PALETTE)]) for k, (name, y) in enumerate(series.items())]
    )
    fig.update_layout(barmode="group", xaxis_title=x_title)
    return base_layout(fig, title, height=340)


def _arc(x0: float, x1: float, y0: float, height: float, steps: int = 24) -> tuple[list[float], list[float]]:
    """Points of a half-sine arc from (x0, y0) to (x1, y0), bulging by `height` (negative: below the strip)."""
    xs = [x0 + (x1 - x0) * k / steps for k in range(steps + 1)]
    ys = [y0 + height * math.sin(math.pi * k / steps) for k in range(steps + 1)]
    return xs, ys


def sbo_figure(
    tokens: list[str],
    actions: list[str],
    sbo: list[dict],
    names: dict[str, str],
    title: str = "",
    originals: list[str] | None = None,
) -> go.Figure:
    """SpanBERT's span boundary objective drawn on the tokens.

    One strip of the tokens the model reads, coloured by fate; for each masked token i of a span s..e, an arc
    from the left boundary token x_{s-1} (above the strip) and one from the right boundary x_{e+1} (below),
    ending at i, whose cell carries its relative position p_{i-s+1}. `sbo` rows: target, left, right, position
    (left/right None when the span touches the sequence's edge: that arc is missing). `names`: legend and
    hover words ("left", "right", "predict", and the fate names).
    """
    originals = originals or tokens
    targets = {s["target"]: s for s in sbo}
    boundaries = {s[side] for s in sbo for side in ("left", "right") if s[side] is not None}
    cell_text = [
        f"{_plain(tok)}<br><b>p{targets[i]['position']}</b>" if i in targets else _plain(tok) for i, tok in enumerate(tokens)
    ]
    colour_of = ["boundary" if i in boundaries and i not in targets else a for i, a in enumerate(actions)]
    scale_names = [*_ORDER, "boundary"]
    colours = {**ACTION_COLOURS, "boundary": PALETTE[5]}
    n = len(scale_names)
    scale = []
    for k, name in enumerate(scale_names):
        scale += [[k / n, colours[name]], [(k + 1) / n, colours[name]]]
    hover = [
        (
            f"{_plain(tokens[i])} ({i})<br>{_plain(names.get('predict', 'predict'))}: {_plain(originals[i])}"
            f"<br>x<sub>s-1</sub>={_plain(tokens[targets[i]['left']]) if targets[i]['left'] is not None else '—'}, "
            f"x<sub>e+1</sub>={_plain(tokens[targets[i]['right']]) if targets[i]['right'] is not None else '—'}, "
            f"p{targets[i]['position']}"
        )
        if i in targets
        else f"{_plain(tokens[i])} ({i})"
        for i in range(len(tokens))
    ]
    # Each cell as wide as its own text (cell edges as x, arcs between cell centres): one width for all, the widest
    # token's, made the default sentence ask 1,460 px of a 1,214 px box at 1440 px, its end (a span's p2) cut.
    widths = [cell_width([text]) for text in cell_text]
    edges = [sum(widths[:c]) for c in range(len(widths) + 1)]
    centre = [(a + b) / 2 for a, b in zip(edges, edges[1:])]
    fig = go.Figure(
        go.Heatmap(
            z=[[scale_names.index(c) for c in colour_of]],
            x=edges,
            y=[0],
            text=[cell_text],
            texttemplate="%{text}",
            hovertext=[hover],
            hoverinfo="text",
            colorscale=scale,
            zmin=0,
            zmax=n,
            showscale=False,
            xgap=2,
            name="tokens",
        )
    )
    for fate in dict.fromkeys(c for c in colour_of if c not in _NOT_IN_LEGEND):  # legend: the fates that occur
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                name=_plain(names.get(fate, fate)),
                marker=dict(size=12, symbol="square", color=colours[fate]),
            )
        )
    side_style = {"left": (0.5, 1, PALETTE[0]), "right": (-0.5, -1, PALETTE[3])}
    shown_legend = set()
    top = 1.0
    for s in sbo:
        for side, (y0, sign, colour) in side_style.items():
            b = s[side]
            if b is None:
                continue
            height = sign * (0.35 + 0.22 * abs(s["target"] - b))
            top = max(top, abs(height) + 0.7)
            xs, ys = _arc(centre[b], centre[s["target"]], y0, height)
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=ys,
                    mode="lines+markers",
                    line=dict(color=colour, width=1.6),
                    marker=dict(
                        symbol=["circle"] + ["circle"] * (len(xs) - 2) + ["arrow"],
                        size=[7] + [0] * (len(xs) - 2) + [11],
                        angleref="previous",
                        color=colour,
                    ),
                    name=names.get(side, side),  # our own text (it may carry <sub>), never a token
                    legendgroup=side,
                    showlegend=side not in shown_legend,
                    hoverinfo="skip",
                    meta={"side": side, "boundary": b, "target": s["target"], "position": s["position"]},
                )
            )
            shown_legend.add(side)
    fig.update_xaxes(showticklabels=False, showgrid=False, zeroline=False, range=[-4, edges[-1] + 4])
    fig.update_yaxes(visible=False, range=[-top, top])
    fig.update_layout(legend=dict(orientation="h", y=-0.05), plot_bgcolor="white")
    fig.update_traces(textfont=dict(size=CELL_FONT), selector=dict(type="heatmap"))
    projector = sum(_projector_px(w) for w in widths)
    fig.update_layout(meta={"min_width": round(edges[-1] + 60), "min_width_projector": round(projector + 60)})
    return base_layout(fig, title, height=int(160 + 70 * top))
