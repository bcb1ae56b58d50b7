"""Figures of the Inside BERT tab: embedding heatmaps, parameter bars, pair layouts and head diagrams.

Plotly only (never torch). Every function takes plain numbers and already-translated strings; token
strings are escaped here, because plotly reads tags in tick labels and annotations.
"""

from __future__ import annotations

import html
from typing import Any, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import DIVERGING, MUTED, PALETTE, base_layout

SEGMENT_COLOURS = (PALETTE[0], PALETTE[1])  # sentence A blue, sentence B orange, everywhere in the tab
# Embedding parts warm (they shrink under ALBERT), the layers cool, the rest grey.
PART_COLOURS = {
    "token_embeddings": "#D55E00",
    "projection": "#CC79A7",
    "position_segment": "#E69F00",
    "attention": "#0072B2",
    "feed_forward": "#56B4E9",
    "layer_norms": "#009E73",
    "pooler": "#999999",
    "other": "#000000",
}


def _tok(token: str) -> str:
    return html.escape(str(token), quote=False)


def embeddings_figure(
    tokens: Sequence[str], segments: Sequence[int], rows: Sequence[tuple[str, np.ndarray]], x_title: str
) -> go.Figure:
    """One heatmap per row (token, segment, position, sum, LayerNorm): tokens down, dimensions across.

    Each row has its own symmetric colour range (its colour bar beside it): the raw parts are small numbers,
    the LayerNorm output is of order 1, and one shared scale would paint the parts flat white.
    Colours saturate at the 99th percentile of |value| (hover shows every exact value).
    """
    n = len(tokens)
    labels = [f"{i}·{_tok(t)}" + (" ᴮ" if s else "") for i, (t, s) in enumerate(zip(tokens, segments))]
    fig = make_subplots(rows=len(rows), cols=1, shared_xaxes=True, vertical_spacing=0.04, subplot_titles=[r[0] for r in rows])
    gap = 0.04
    height = (1 - gap * (len(rows) - 1)) / len(rows)
    for k, (_, values) in enumerate(rows, start=1):
        # The 99th percentile of |value|: a few outlier dimensions would otherwise wash every other cell out to white.
        top = float(np.percentile(np.abs(values), 99)) or 1.0
        axis = f"coloraxis{k if k > 1 else ''}"
        fig.add_trace(
            go.Heatmap(
                z=values,
                y=list(range(n)),
                coloraxis=axis,
                hovertemplate="%{y}: dim %{x} = %{z:.4f}<extra></extra>",
            ),
            row=k,
            col=1,
        )
        centre = 1 - (k - 1) * (height + gap) - height / 2
        fig.update_layout(
            {
                axis: dict(
                    colorscale=DIVERGING,
                    cmin=-top,
                    cmax=top,
                    reversescale=True,
                    colorbar=dict(y=centre, len=height, thickness=12),
                )
            }
        )
        fig.update_yaxes(tickvals=list(range(n)), ticktext=labels, autorange="reversed", tickfont=dict(size=10), row=k, col=1)
    fig.update_xaxes(title_text=x_title, row=len(rows), col=1)
    return base_layout(fig, height=len(rows) * (60 + 14 * n) + 60)


def params_figure(
    labels: Sequence[str],
    parts: Sequence[str],
    part_labels: Sequence[str],
    counts: Sequence[Sequence[int]],
    totals: Sequence[int],
    y_title: str,
    total_text: str,
    highlight_last: bool = True,
) -> go.Figure:
    """Stacked bars per model, embedding parts at the bottom in warm colours: ALBERT's shrink where they sit."""
    fig = go.Figure()
    for j, (part, name) in enumerate(zip(parts, part_labels)):
        values = [c[j] / 1e6 for c in counts]
        if not any(values):
            continue
        fig.add_bar(
            x=list(labels), y=values, name=name, marker_color=PART_COLOURS.get(part, MUTED),
            hovertemplate=f"{html.escape(name)}: %{{y:.2f}} M<extra>%{{x}}</extra>",
        )  # fmt: skip
    for i, (label, total) in enumerate(zip(labels, totals)):
        fig.add_annotation(x=label, y=total / 1e6, text=total_text.format(m=total / 1e6), showarrow=False, yshift=10)
    if highlight_last and labels:
        fig.add_vrect(x0=len(labels) - 1.5, x1=len(labels) - 0.5, fillcolor="#f2f2f2", line_width=0, layer="below")
    fig.update_layout(barmode="stack", legend=dict(orientation="h", y=-0.15), yaxis_title=y_title)
    return base_layout(fig, height=520)


class _Marks:
    """Shapes and annotations gathered as plain dicts and set on the figure once (`onto`).

    Plotly's `fig.add_annotation` / `add_shape` validate the figure's whole list again at every call: the heads
    diagram's ~200 marks took ~10 s that way on a 2-core CPU (a lesson link's warm time), well under 1 s at once.
    """

    def __init__(self) -> None:
        self.annotations: list[dict[str, Any]] = []
        self.shapes: list[dict[str, Any]] = []

    def add_annotation(self, **props: Any) -> None:
        self.annotations.append(props)

    def add_shape(self, **props: Any) -> None:
        self.shapes.append(props)

    def onto(self, fig: go.Figure) -> go.Figure:
        fig.update_layout(annotations=[*fig.layout.annotations, *self.annotations], shapes=[*fig.layout.shapes, *self.shapes])
        return fig


def _strip(
    fig: go.Figure | _Marks, tokens: Sequence[str], colours: Sequence[str], y: float, labels_below: Sequence[str] = ()
) -> None:
    for i, (token, colour) in enumerate(zip(tokens, colours)):
        fig.add_shape(
            type="rect", x0=i - 0.45, x1=i + 0.45, y0=y - 0.3, y1=y + 0.3, fillcolor=colour, opacity=0.25, line=dict(color=colour)
        )
        fig.add_annotation(x=i, y=y, text=_tok(token), showarrow=False, font=dict(size=12))
        if labels_below:
            fig.add_annotation(x=i, y=y - 0.5, text=labels_below[i], showarrow=False, font=dict(size=11, color="#555"))


def layout_figure(tokens: Sequence[str], segments: Sequence[int], segment_title: str, title: str = "") -> go.Figure:
    """[CLS] A [SEP] B [SEP] as a strip of tokens, coloured by segment, segment id under each."""
    fig, marks = go.Figure(), _Marks()
    _strip(marks, tokens, [SEGMENT_COLOURS[s % 2] for s in segments], 0, [str(s) for s in segments])
    marks.onto(fig)
    # the row's name under the row, from the left edge: beside it, it ran off a narrow (phone) figure
    fig.add_annotation(
        x=0, xref="paper", xanchor="left", y=-0.8, yanchor="top", text=f"↑ {segment_title}", showarrow=False,
        font=dict(size=11, color="#555"),
    )  # fmt: skip
    fig.update_xaxes(visible=False, range=[-1, len(tokens)])
    fig.update_yaxes(visible=False, range=[-1.2, 0.5])
    return base_layout(fig, html.escape(title, quote=False), height=190)  # "<s> A </s></s> B </s>" is text, not tags


def probes_figure(cases: Sequence[str], p_is_next: Sequence[float], is_next: str, not_next: str, x_title: str) -> go.Figure:
    """P(IsNext) and P(NotNext) per probe, as stacked horizontal bars that fill to 1."""
    fig = go.Figure()
    fig.add_bar(
        y=list(cases),
        x=list(p_is_next),
        name=is_next,
        orientation="h",
        marker_color=PALETTE[2],
        text=[f"{p:.3f}" for p in p_is_next],
    )
    rest = [1 - p for p in p_is_next]
    fig.add_bar(y=list(cases), x=rest, name=not_next, orientation="h", marker_color=PALETTE[3], text=[f"{p:.3f}" for p in rest])
    fig.update_layout(barmode="stack", xaxis=dict(range=[0, 1], title=x_title), yaxis=dict(autorange="reversed"))
    return base_layout(fig, height=80 + 50 * len(cases))


def _arrow(fig: go.Figure | _Marks, tail: tuple[float, float], head: tuple[float, float], color: str, width: float = 1) -> None:
    """An arrow from `tail` to `head` in data coordinates (a text-less Plotly annotation)."""
    fig.add_annotation(
        x=head[0], y=head[1], ax=tail[0], ay=tail[1], xref="x", yref="y", axref="x", ayref="y",
        showarrow=True, arrowhead=2, arrowwidth=width, arrowcolor=color, text="",
    )  # fmt: skip


def head_figure(
    panels: Sequence[dict], hidden_title: str, height_per_panel: int = 190,
) -> go.Figure:  # fmt: skip
    """One diagram per task: tokens (bottom) -> encoder vectors h_i (middle) -> head (top).

    Each panel dict: title, tokens, segments, feeds ("first" | "every" | "span"), head (text of the head box),
    outputs (text above the head, or per token for "every"/"span"). Vectors that feed the head are coloured,
    the others grey, and arrows run only from the vectors that feed it.
    """
    fig, marks = go.Figure(), _Marks()
    width = max(len(p["tokens"]) for p in panels)
    for k, panel in enumerate(panels):
        base = -k * 4.2
        tokens, feeds = panel["tokens"], panel["feeds"]
        marks.add_annotation(
            x=-0.5,
            y=base + 3.1,
            text=f"<b>{html.escape(panel['title'])}</b>",
            showarrow=False,
            xanchor="left",
            font=dict(size=13),
        )
        _strip(marks, tokens, [SEGMENT_COLOURS[s % 2] for s in panel["segments"]], base)
        used = [feeds != "first" or i == 0 for i in range(len(tokens))]
        for i, on in enumerate(used):
            colour = PALETTE[2] if on else MUTED
            marks.add_shape(
                type="rect",
                x0=i - 0.4,
                x1=i + 0.4,
                y0=base + 0.8,
                y1=base + 1.4,
                fillcolor=colour,
                opacity=0.8 if on else 0.4,
                line_width=0,
            )
            marks.add_annotation(
                x=i, y=base + 1.1, text=f"h<sub>{i}</sub>", showarrow=False, font=dict(size=11, color="white" if on else "#555")
            )
            _arrow(marks, (i, base + 0.3), (i, base + 0.75), "#bbb")
        if feeds == "first":
            marks.add_shape(
                type="rect", x0=1, x1=width - 0.5, y0=base + 1.9, y1=base + 2.6, fillcolor="#f7f7f7", line=dict(color=PALETTE[2])
            )
            marks.add_annotation(
                x=(width + 0.5) / 2, y=base + 2.25, text=html.escape(panel["head"]), showarrow=False, font=dict(size=12)
            )
            _arrow(marks, (0, base + 1.45), (1, base + 2.25), PALETTE[2], width=2)
            marks.add_annotation(
                x=width - 0.4,
                y=base + 2.25,
                text=html.escape(panel["outputs"]),
                showarrow=False,
                xanchor="left",
                font=dict(size=12, color=PALETTE[3]),
            )
        else:
            marks.add_shape(
                type="rect",
                x0=-0.45,
                x1=len(tokens) - 0.55,
                y0=base + 1.75,
                y1=base + 2.15,
                fillcolor="#f7f7f7",
                line=dict(color=PALETTE[2]),
            )
            marks.add_annotation(
                x=(len(tokens) - 1) / 2, y=base + 1.95, text=html.escape(panel["head"]), showarrow=False, font=dict(size=11)
            )
            for i in range(len(tokens)):
                marks.add_annotation(
                    x=i, y=base + 2.55, text=html.escape(panel["outputs"]), showarrow=False, font=dict(size=10, color=PALETTE[3])
                )
    fig.update_xaxes(visible=False, range=[-0.8, width + 4.5])  # room for the encoder-outputs note on the right
    fig.update_yaxes(visible=False, range=[-(len(panels) - 1) * 4.2 - 0.6, 3.4])
    note = dict(showarrow=False, xanchor="left", font=dict(size=11, color="#555"))
    marks.add_annotation(x=width + 0.2, y=1.1, text=hidden_title, **note)
    marks.onto(fig)
    return base_layout(fig, height=height_per_panel * len(panels) + 40)
