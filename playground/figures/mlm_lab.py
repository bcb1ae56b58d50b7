"""MLM lab figures: the live loss curve with the learning-rate schedule, and domain-word ranks before vs after.

Plain lists in (the tab unpacks the Result), plotly out; never torch.
"""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from playground.figures.common import MUTED, PALETTE, base_layout, whole_step


def loss_figure(
    train: list[tuple[int, float]],
    held: list[tuple[int, float]],
    before: float | None,
    schedule: list[float],
    steps_done: int,
    names: dict[str, str],
) -> go.Figure:
    """Top: training loss per step (one masked batch each: noisy) and held-out loss (fixed masks); the base
    model's held-out loss as a dashed line. Bottom: the planned learning rate, solid where already used.

    names: train, held, before, loss, lr, step (already translated).
    """
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.72, 0.28], vertical_spacing=0.06)
    if train:
        fig.add_trace(
            go.Scatter(
                x=[s for s, _ in train], y=[v for _, v in train], mode="lines", name=names["train"],
                line=dict(color=PALETTE[5], width=1.5),
            ),
            row=1, col=1,
        )  # fmt: skip
    if held:
        fig.add_trace(
            go.Scatter(
                x=[s for s, _ in held], y=[v for _, v in held], mode="lines+markers", name=names["held"],
                line=dict(color=PALETTE[3], width=3), marker=dict(size=8),
            ),
            row=1, col=1,
        )  # fmt: skip
    if before is not None:
        fig.add_hline(y=before, line=dict(color=MUTED, dash="dash"), row=1, col=1)
        fig.add_trace(
            go.Scatter(
                x=[0], y=[before], mode="markers", name=names["before"], marker=dict(color="#7f7f7f", size=9, symbol="diamond")
            ),
            row=1,
            col=1,
        )
    x = list(range(1, len(schedule) + 1))
    fig.add_trace(
        go.Scatter(x=x, y=schedule, mode="lines", name=names["lr"], line=dict(color=MUTED, dash="dot"), showlegend=False),
        row=2, col=1,
    )  # fmt: skip
    done = min(steps_done, len(schedule))
    if done:
        fig.add_trace(
            go.Scatter(x=x[:done], y=schedule[:done], mode="lines", name=names["lr"], line=dict(color=PALETTE[0], width=2)),
            row=2, col=1,
        )  # fmt: skip
    fig.update_yaxes(title_text=names["loss"], row=1, col=1)
    fig.update_yaxes(title_text=names["lr"], tickformat=".0e", row=2, col=1)
    fig.update_xaxes(tick0=0, dtick=whole_step(max(len(schedule), 1)))  # steps are whole numbers, on both rows
    fig.update_xaxes(title_text=names["step"], range=[0, max(len(schedule), 1) + 0.5], row=2, col=1)
    fig.update_layout(legend=dict(orientation="h", y=1.08, x=0))
    return base_layout(fig, height=430)


def rank_figure(words: list[str], before: list[int], after: list[int | None], names: dict[str, str]) -> go.Figure:
    """Each domain word's rank at its held-out probe's mask, before (grey) and after (blue): further right is better.

    names: before, after, rank (already translated). The x axis is logarithmic: rank 1 is the top prediction.
    """
    fig = go.Figure()
    y = list(range(len(words)))[::-1]
    for yi, b, a in zip(y, before, after):
        if a is not None:
            fig.add_trace(
                go.Scatter(
                    x=[b, a], y=[yi, yi], mode="lines", line=dict(color=MUTED, width=2), showlegend=False, hoverinfo="skip"
                )
            )
    fig.add_trace(go.Scatter(x=before, y=y, mode="markers", name=names["before"], marker=dict(color="#7f7f7f", size=11)))
    if any(a is not None for a in after):
        fig.add_trace(
            go.Scatter(
                x=[a for a in after],
                y=y,
                mode="markers",
                name=names["after"],
                marker=dict(color=PALETTE[0], size=11, symbol="diamond"),
            )
        )
    fig.update_xaxes(type="log", title_text=names["rank"], autorange="reversed")
    fig.update_yaxes(tickvals=y, ticktext=words)
    fig.update_layout(legend=dict(orientation="h", y=1.1, x=0))
    return base_layout(fig, height=max(240, 60 + 28 * len(words)))
