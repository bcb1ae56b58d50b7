"""Sampling views: a next-token distribution stage by stage, several temperatures side by side, and text
coloured by the probability of each chosen token."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import MUTED, PALETTE, base_layout

if TYPE_CHECKING:  # figures never import torch at run time
    from playground.sampling.generation import GenerationResult
    from playground.sampling import Distribution

KEPT, CHOSEN = PALETTE[0], PALETTE[3]
# Side-by-side panels share one probability scale. Their ticks are fixed (0, 50 %, 100 %, the first written "0") and
# the panels stand GAP apart on a range that ends past 100 %, so that one panel's "100%" and the next panel's "0"
# keep apart at projector size (16 px) on the narrowest panels the page lays out: with plotly's own ticks and a 2 %
# gap they overlapped in projector mode.
PROB_RANGE = [0, 1.08]
PROB_TICKS = dict(tickvals=[0, 0.5, 1], ticktext=["0", "50%", "100%"])
GAP = 0.04
LOW, HIGH = (230, 159, 0), (86, 180, 233)  # orange = the model found it unlikely, blue = likely


def _bars(fig: go.Figure, view: "Distribution", stage: str, col: int, hover_stage: str) -> None:
    labels = [f"{rank}. {tok}" for rank, tok in enumerate(view.tokens, start=1)]  # ranked: tokens that read alike stay apart
    probs, kept = view.probs[stage], view.shown_kept[stage]
    colours = [CHOSEN if i == view.chosen else KEPT if k else MUTED for i, k in zip(view.token_ids, kept)]
    fig.add_trace(
        go.Bar(
            x=[float(p) for p in probs][::-1],
            y=labels[::-1],
            orientation="h",
            marker_color=colours[::-1],
            text=[f"{p:.1%}" if k else "×" for p, k in zip(probs, kept)][::-1],
            textposition="auto",
            customdata=[[i, hover_stage] for i in view.token_ids][::-1],
            hovertemplate="%{y} (id %{customdata[0]})<br>%{customdata[1]}: p = %{x:.4f}<extra></extra>",
            showlegend=False,
        ),
        row=1,
        col=col,
    )


def distribution_figure(
    view: "Distribution",
    stage_titles: Sequence[str],
    x_title: str,
    stages: Sequence[str] = ("raw", "temperature", "top_k", "top_p"),
) -> go.Figure:
    """One column of bars per stage for the same top tokens; filtered tokens grey, the drawn token highlighted.

    Args:
        stage_titles: one (translated) column title per stage, e.g. with its entropy and kept count.
    """
    fig = make_subplots(rows=1, cols=len(stages), shared_yaxes=True, column_titles=list(stage_titles), horizontal_spacing=GAP)
    for col, stage in enumerate(stages, start=1):
        _bars(fig, view, stage, col, stage_titles[col - 1].split("<br>")[0])
        fig.update_xaxes(range=PROB_RANGE, **PROB_TICKS, title_text=x_title, row=1, col=col)
    fig.update_annotations(font_size=12)
    return base_layout(fig, height=140 + 22 * len(view.tokens)).update_layout(margin_t=70)  # room for two-line column titles


def temperature_figure(views: Sequence["Distribution"], titles: Sequence[str], x_title: str) -> go.Figure:
    """The distribution each temperature samples from (after top-k / top-p), side by side."""
    fig = make_subplots(rows=1, cols=len(views), shared_yaxes=True, column_titles=list(titles), horizontal_spacing=GAP)
    for col, view in enumerate(views, start=1):
        _bars(fig, view, "top_p", col, titles[col - 1].split("<br>")[0])
        fig.update_xaxes(range=PROB_RANGE, **PROB_TICKS, title_text=x_title, row=1, col=col)
    fig.update_annotations(font_size=12)
    return base_layout(fig, height=140 + 22 * max(len(v.tokens) for v in views)).update_layout(margin_t=70)


def probability_colour(p: float) -> str:
    """Orange (improbable) to blue (probable), light enough to read black text on."""
    r, g, b = (round(lo + (hi - lo) * p) for lo, hi in zip(LOW, HIGH))
    return f"rgba({r},{g},{b},0.45)"


def _token_span(tok, hover: str) -> str:
    text = html.escape(tok.text).replace("\n", "↵<br>") if tok.text else ""
    if not text:
        return ""
    return (
        f'<span class="tp-token" style="background:{probability_colour(tok.prob)};border-radius:3px" '
        f'title="{html.escape(hover, quote=True)}">{text}</span>'
    )


def generation_html(result: "GenerationResult", sample_label: str, hover: str, legend: str, ended: str) -> str:
    """Each sample as the prompt plus coloured tokens; hovering a token shows its probability and the alternatives.

    Args:
        sample_label: translated, with `{n}`; hover: translated, with `{p}`, `{raw}`, `{rank}`, `{alternatives}`;
        legend: translated colour key; ended: marker for a sample that stopped on its end-of-text token.
    """
    prompt = html.escape(result.prompt)
    blocks = []
    for n, sample in enumerate(result.samples, start=1):
        spans = "".join(
            _token_span(
                tok,
                hover.format(
                    p=f"{tok.prob:.3f}",
                    raw=f"{tok.raw_prob:.3f}",
                    rank=tok.rank,
                    alternatives=" · ".join(f"{a} {q:.3f}" for a, q in tok.alternatives),
                ),
            )
            for tok in sample.tokens
        )
        end = f' <span style="opacity:.6">⟨{html.escape(ended)}⟩</span>' if sample.finished else ""
        blocks.append(
            f'<div class="tp-sample" style="margin:.4rem 0;line-height:1.9;white-space:pre-wrap">'
            f'<b>{html.escape(sample_label.format(n=n))}</b> <span style="opacity:.65">{prompt}</span>{spans}{end}</div>'
        )
    key = "".join(
        f'<span style="background:{probability_colour(p)};padding:0 .4rem;margin-right:2px">{p:.0%}</span>'
        for p in (0.0, 0.25, 0.5, 0.75, 1.0)
    )
    footer = f'<div style="font-size:.85rem;opacity:.8">{html.escape(legend)} {key}</div>'
    return f'<div class="tp-generation">{"".join(blocks)}{footer}</div>'
