"""Each view's figure, reading and detail table in the reader's language, from its Result (nothing is recomputed).

Readings follow the numbers: every sentence is filled from the result (which layer, which token, which head, how
much), never a fixed claim. Tokens are escaped (Markdown for readings, HTML for the tables).
"""

from __future__ import annotations

import html
import math
from typing import Any

import plotly.graph_objects as go

from playground.figures import insight as figures
from playground.ui.common.i18n import t
from playground.ui.common.widgets import escape_md

RANKED = 10  # rows of the knock-out ranking table


def _words(prefix: str, names: list[str], lang: str, **params: Any) -> dict[str, str]:
    return {n: t(f"insight.{prefix}.{n}", lang, **params) for n in names}


def _token(r: Any, i: int) -> str:
    return (r.display[i] or r.tokens[i]) if i >= 0 else ""


def _where(r: Any, lang: str) -> str:
    if "mask" in r.tokens[r.position].lower():  # the model's mask token ([MASK], <mask>): a blank to fill
        return t("insight.where.mask", lang, i=r.position)
    return t("insight.where.next", lang, token=escape_md(_token(r, r.position)), i=r.position)


def _p(x: float) -> str:
    return f"{x:.3f}"


def _table(header_key: str, rows: list[list[str]], lang: str) -> str:
    """An HTML table under a header given as a Markdown row in the strings ("| a | b |"); cells already escaped."""
    head = [c.strip() for c in t(header_key, lang).strip("|").split("|")]
    th = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="tp-insight-table"><table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>'


# ---- layer by layer --------------------------------------------------------------------------------------------
def lens_figure(r: Any, lang: str) -> go.Figure:
    words = _words("lens", ["title", "answer_p", "top1_p", "hover", "layer", "prob"], lang)
    return figures.lens(r, words)


def lens_reading(r: Any, lang: str) -> str:
    k = len(r.readouts[0].ids)
    seen = t("insight.lens.seen", lang, k=k, layer=r.first_seen) if r.first_seen is not None else ""
    key = "insight.lens.only_last" if r.first_layer == r.layers else "insight.lens.reading"
    final = r.readouts[-1]
    return t(key, lang, where=_where(r, lang), answer=escape_md(r.answer), p=_p(final.answer_prob), first=r.first_layer,
             layers=r.layers, seen=seen)  # fmt: skip


def lens_detail(r: Any, lang: str) -> str:
    rows = []
    for row in r.readouts:
        topk = " · ".join(f"{tok} {p:.2f}" for tok, p in zip(row.tokens, row.probs))
        rank, p = str(row.answer_rank + 1), f"{row.answer_prob:.4f}"
        rows.append([str(row.layer), html.escape(row.tokens[0]), html.escape(topk), rank, p])
    return _table("insight.lens.table", rows, lang)


# ---- attribution beside attention ------------------------------------------------------------------------------
def attribution_figure(r: Any, lang: str) -> go.Figure:
    words = _words("attr", ["title", "ig", "gxi", "rollout"], lang)
    words["head"] = t("insight.attr.head", lang, layer=r.layer, head=r.head)
    return figures.attribution(r, words)


def attribution_reading(r: Any, lang: str) -> str:
    none = t("insight.attr.none", lang)
    name = {i: escape_md(_token(r, i)) if i >= 0 else none for i in (r.top_ig, r.top_rollout, r.top_attention)}
    verdict = t("insight.attr.agree" if r.top_ig == r.top_rollout else "insight.attr.disagree", lang)
    n = sum(r.attributable)
    if not math.isnan(r.rank_agreement):
        verdict += t("insight.attr.rho", lang, n=n, rho=f"{r.rank_agreement:+.2f}")
    first = t("insight.attr.reading", lang, answer=escape_md(r.answer), where=_where(r, lang), p=_p(r.answer_prob),
              ig=name[r.top_ig], roll=name[r.top_rollout], head_top=name[r.top_attention], layer=r.layer, head=r.head,
              verdict=verdict, special=f"{r.special_attention:.0%}")  # fmt: skip
    delta = r.f_input - r.f_baseline
    warn = t("insight.attr.warn", lang) if r.completeness > 0.01 else ""
    total = t("insight.attr.sum", lang, total=f"{r.ig_sum:.4f}", f_x=f"{r.f_input:.4f}", f_b=f"{r.f_baseline:.4f}",
              delta=f"{delta:.4f}", error=f"{r.completeness:.2%}", steps=r.steps, warn=warn,
              baseline=f"“{escape_md(r.baseline)}”" if r.baseline else t("insight.attr.zero", lang))  # fmt: skip
    return f"{first}\n\n{total}"


def attribution_detail(r: Any, lang: str) -> str:
    """The sentence as chips coloured by IG: blue for the answer, red against, white for nothing (escaped tokens)."""
    scale = max((abs(v) for v in r.ig), default=0) or 1.0
    chips = []
    for i, v in enumerate(r.ig):
        a = min(1.0, abs(v) / scale)
        colour = f"rgba(33,102,172,{a:.2f})" if v >= 0 else f"rgba(178,24,43,{a:.2f})"
        ink = "#fff" if a > 0.55 else "inherit"
        chips.append(f'<span class="tp-chip" style="background:{colour};color:{ink}" title="{v:+.4f}">'
                     f"{html.escape(_token(r, i))}</span>")  # fmt: skip
    title = html.escape(t("insight.attr.chips", lang))
    return f'<div class="tp-insight-chips"><div>{title}</div><div>{" ".join(chips)}</div></div>'


# ---- knock out heads -------------------------------------------------------------------------------------------
def knockout_figure(r: Any, lang: str) -> go.Figure:
    names = ["before_after", "grid", "before", "after", "cell", "head_axis", "layer_axis", "prob"]
    return figures.knockout(r, _words("ko", names, lang))


def _heads(r: Any, lang: str) -> str:
    if not r.knocked:
        return t("insight.ko.none", lang)
    if len(r.knocked) > 6:
        return t("insight.ko.n_heads", lang, n=len(r.knocked))
    return ", ".join(f"{layer}.{head}" for layer, head in r.knocked)


def knockout_reading(r: Any, lang: str) -> str:
    top = t("insight.ko.new_top", lang, token=escape_md(r.after_tokens[0])) if r.top_changed else t("insight.ko.same_top", lang)
    text = t("insight.ko.reading", lang, where=_where(r, lang), answer=escape_md(r.answer), before=_p(r.answer_before),
             what=_heads(r, lang), after=_p(r.answer_after), top=top, tv=f"{r.total_variation:.3f}")  # fmt: skip
    best = r.ranking[0]
    moved = int((abs(r.effects) > 0.01).sum())
    rank = t("insight.ko.rank", lang, layer=best.layer, head=best.head, delta=best.delta, n=moved, total=r.layers * r.heads)
    return f"{text}\n\n{rank}"


def knockout_detail(r: Any, lang: str) -> str:
    rows = [[str(i + 1), f"{x.layer}.{x.head}", f"{x.delta:+.4f}", html.escape(x.top)] for i, x in enumerate(r.ranking[:RANKED])]
    return _table("insight.ko.table", rows, lang)


# ---- patching --------------------------------------------------------------------------------------------------
def patching_figure(r: Any, lang: str) -> go.Figure:
    return figures.patching(r, _words("patch", ["title", "change", "hover"], lang))


def patching_reading(r: Any, lang: str) -> str:
    text = t("insight.patch.reading", lang, layer=r.layer, i=r.position, b=escape_md(_token(r, r.position)),
             a=escape_md(r.source_display[r.position] or r.source_tokens[r.position]), n=len(r.changed),
             total=len(r.tokens), left=f"{r.left_change:.2g}", right=f"{r.right_change:.2g}")  # fmt: skip
    return f"{text} {t('insight.patch.causal' if r.causal else 'insight.patch.bidirectional', lang)}"


def patching_detail(r: Any, lang: str) -> str:
    rows = [
        [str(i), html.escape(_token(r, i)), f"{c:.5f}", f"{html.escape(b)} → {html.escape(a)}"]
        for i, (c, b, a) in enumerate(zip(r.change, r.top_before, r.top_after))
    ]
    return _table("insight.patch.table", rows, lang)
