"""The MLM lab in the user's language: status line, loss curve, before/after summary, probe and domain tables, API JSON."""

from __future__ import annotations

import math
from typing import Any

import gradio as gr

from playground.figures.mlm_lab import loss_figure, rank_figure
from playground.mlm_lab.corpus import is_chinese
from playground.mlm_lab.training import CurvePoint, LabResult, LabSettings, planned_schedule
from playground.serialize import jsonable
from playground.ui.common.widgets import escape_md, model_id_in
from playground.ui.common.i18n import t


def curve_figure(points: list[CurvePoint], before: float | None, settings: LabSettings, lang: str) -> Any:
    names = {k: t(f"mlm_lab.curve_{k}", lang) for k in ("train", "held", "before", "loss", "lr", "step")}
    train = [(p.step, p.train_loss) for p in points if p.train_loss is not None]
    held = ([(0, before)] if before is not None else []) + [(p.step, p.held_loss) for p in points if p.held_loss is not None]
    steps = max((p.step for p in points), default=0)
    return loss_figure(train, held, before, planned_schedule(settings), steps, names)


def status(phase: str, position: int, points: list[CurvePoint], settings: LabSettings, lang: str) -> str:
    if phase == "queued":
        return t("mlm_lab.status_queued", lang, n=position)
    if phase in ("before", "after"):
        return t(f"mlm_lab.status_{phase}", lang)
    last = points[-1] if points else None
    return t(
        "mlm_lab.status_training",
        lang,
        step=last.step if last else 0,
        steps=settings.max_steps,
        seconds=last.seconds if last else 0.0,
        budget=settings.max_seconds,
    )


def finished(result: LabResult, lang: str) -> str:
    return t(f"mlm_lab.stopped.{result.stopped}", lang, steps=result.steps, seconds=result.seconds)


def summary(result: LabResult, lang: str) -> str:
    """The before/after table, then readings computed from the numbers (never a fixed claim)."""
    b, a = result.before, result.after
    text = t(
        "mlm_lab.summary",
        lang,
        b_loss=b.loss,
        b_ppl=b.perplexity,
        a_loss=f"{a.loss:.3f}" if a else "…",
        a_ppl=f"{a.perplexity:.1f}" if a else "…",
        n_train=result.n_train,
        n_held=result.n_held,
        masked=b.masked_tokens,
    )
    base = escape_md(model_id_in(result.model_id, lang))  # a described id ("... trained here") in the reader's language
    lines = [text, "", f"*{t('mlm_lab.provenance', lang, model=base, device=result.device)}*"]
    if a is not None:
        d = a.loss - b.loss
        if d < -0.01:
            lines.insert(1, "\n" + t("mlm_lab.reading_fell", lang, d=-d, b=b.perplexity, a=a.perplexity))
        elif d > 0.01:
            lines.insert(1, "\n" + t("mlm_lab.reading_rose", lang, d=d))
        else:
            lines.insert(1, "\n" + t("mlm_lab.reading_flat", lang, d=d))
        rows = [r for r in result.domain if r.after is not None]
        if rows:
            up = sum(r.after.rank < r.before.rank for r in rows)
            down = sum(r.after.rank > r.before.rank for r in rows)
            lines.insert(2, t("mlm_lab.reading_ranks", lang, up=up, down=down, n=len(rows)))
    if "no_probes" in result.notes:
        lines.append(t("mlm_lab.no_probes", lang))
    return "\n\n".join(lines)


def _top(reading) -> str:
    return ", ".join(f"{w} ({p:.0%})" if p >= 0.01 else w for w, p in reading.top) if reading else ""


def probes_table(result: LabResult, lang: str) -> tuple[list[str], list[list[Any]]]:
    cols = ["word", "rank_before", "rank_after", "top_before", "top_after", "sentence"]
    rows = [
        [p.word, p.before.rank, p.after.rank if p.after else "", _top(p.before), _top(p.after), p.masked] for p in result.probes
    ]
    return [t(f"mlm_lab.col_{c}", lang) for c in cols], rows


def domain_table(result: LabResult, lang: str) -> tuple[list[str], list[list[Any]]]:
    cols = ["word", "count", "general", "rank_before", "p_before", "rank_after", "p_after", "sentence"]
    rows = [
        [
            r.word,
            r.count,
            r.general_rank if r.general_rank else t("mlm_lab.not_in_general", lang),
            r.before.rank,
            f"{r.before.probability:.2%}",
            r.after.rank if r.after else "",
            f"{r.after.probability:.2%}" if r.after else "",
            r.probe,
        ]
        for r in result.domain
    ]
    return [t(f"mlm_lab.col_{c}", lang) for c in cols], rows


def domain_figure(result: LabResult, lang: str) -> Any:
    names = {"before": t("mlm_lab.before", lang), "after": t("mlm_lab.after", lang), "rank": t("mlm_lab.rank_axis", lang)}
    rows = result.domain
    return rank_figure(
        [r.word for r in rows], [r.before.rank for r in rows], [r.after.rank if r.after else None for r in rows], names
    )


def domain_note(result: LabResult, vocab: int, lang: str) -> str:
    reference = result.general_reference or "—"
    return t("mlm_lab.domain_note", lang, reference=escape_md(reference), vocab=f"{vocab:,}")


def as_json(result: LabResult) -> dict:
    out = jsonable(result)
    for key in ("before", "after"):
        if out.get(key) and not math.isfinite(out[key]["perplexity"] or math.inf):
            out[key]["perplexity"] = None
    return out


# ---- the page's outputs, by name (playground.ui.mlm_lab.tab) ----------------------------------------------------------


def live(now: Any, settings: LabSettings, lang: str) -> dict[str, Any]:
    """Status, curve and summary while a training runs (`now`: a playground.mlm_lab.follow.Progress)."""
    state = t("mlm_lab.status_cancelling", lang) if now.cancelling else status(now.phase, now.position, list(now.points),
                                                                               settings, lang)  # fmt: skip
    partial = now.partial
    return {
        "status": state,
        "plot": curve_figure(list(now.points), partial.before.loss if partial else None, settings, lang),
        "summary": summary(partial, lang) if partial else "",
    }


def panels(result: LabResult, vocab: int, lang: str) -> dict[str, Any]:
    """Everything under the status line: curve, summary, probes, domain chart, note and table (before-only while
    training). A table with no rows is hidden, never drawn as an empty 1/2/3 grid."""
    headers, rows = probes_table(result, lang)
    d_headers, d_rows = domain_table(result, lang)
    return {
        "plot": curve_figure(result.curve, result.before.loss, result.settings, lang),
        "summary": summary(result, lang),
        "probes": gr.update(value=rows, headers=headers, visible=bool(rows)),
        "domain_plot": gr.update(value=domain_figure(result, lang) if result.domain else None, visible=bool(result.domain)),
        "domain_note": domain_note(result, vocab, lang),
        "domain": gr.update(value=d_rows, headers=d_headers, visible=bool(d_rows)),
    }


def final(result: LabResult, vocab: int, lang: str) -> dict[str, Any]:
    return {"status": finished(result, lang), **panels(result, vocab, lang)}


def _chinese(text: str) -> bool:
    han = sum(is_chinese(c) for c in text)
    return han * 2 > sum(c.isalpha() for c in text)


def try_text(result: LabResult, current: str | None) -> Any:
    """The try-it sentence after a training: a held-out probe of the corpus when the box is in another language
    (the English example after a Chinese run), else the student's own sentence."""
    probe = next((p.masked for p in result.probes), None)
    if probe is None or (current and _chinese(current) == _chinese(probe)):
        return gr.update()
    return probe
