"""The probes view of "Look inside a prediction": the figure and the reading of a ProbeResult in the reader's language.

Every sentence is filled from the result's readings (playground.probes.readings: computed from the curves), never a
fixed claim; model names and layer names are escaped (Markdown here, HTML in the figure module).
"""

from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go

from playground.figures import probes as figures
from playground.probes import ProbeResult
from playground.ui.common.i18n import t
from playground.ui.common.widgets import escape_md

TASKS = ("pos", "sense")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def figure(result: ProbeResult, lang: str) -> go.Figure:
    names = ["accuracy", "selectivity", "points", "layer", "hover", "pos", "sense", "pos_control", "sense_control", "alone"]
    words = {n: t(f"insight.probes.{n}", lang) for n in names}
    words["title"] = t("insight.probes.title", lang, model=html.escape(result.model_label))  # plotly text is HTML
    return figures.probes(result, words)


def _layer(name: str, lang: str) -> str:
    """A layer as a sentence names it: "layer 3" / "第 3 层" for a numbered one, "the embeddings" / "嵌入层" else."""
    if name.isdigit():
        return t("insight.probes.layer_n", lang, n=name)
    named = {"embeddings": "嵌入层", "char CNN": "字符 CNN 层"}.get(name, name) if lang == "zh" else name
    return t("insight.probes.layer_named", lang, n=escape_md(named))


def _line(code: str, p: dict[str, Any], result: ProbeResult, lang: str) -> str:
    name = lambda i: _layer(result.layer_names[i], lang)  # noqa: E731
    if code == "peak":
        return t("insight.probes.peak", lang, task=t(f"insight.probes.{p['task']}", lang).capitalize(), name=name(p["layer"]),
                 acc=_pct(p["accuracy"]), first=name(p["first"]), selective=name(p["selective"]),
                 selectivity=_pct(p["selectivity"]))  # fmt: skip
    if code == "order":
        return t(f"insight.probes.order.{p['relation']}", lang, pos=name(p["pos"]), sense=name(p["sense"]))
    if code == "context":
        if p["beats"]:
            return t("insight.probes.context.yes", lang, name=name(p["layer"]), acc=_pct(result.sense.accuracy[p["layer"]]),
                     gain=_pct(p["gain"]), alone=_pct(p["word_alone"]))  # fmt: skip
        return t("insight.probes.context.no", lang, alone=_pct(p["word_alone"]))
    if code in ("peters_pos", "peters_sense", "hewitt_liang"):
        verdict = t(f"insight.probes.verdict.{p['verdict']}", lang)
        return t(f"insight.probes.{code}", lang, one=_pct(p["layer1"]), two=_pct(p["layer2"]), verdict=verdict)
    if code == "papers_elmo_only":
        return t("insight.probes.papers_elmo_only", lang, layers=p["layers"])
    if code == "few":
        return t("insight.probes.few", lang, n=p["n"], task=t(f"insight.probes.{p['task']}", lang), classes=p["classes"],
                 width=round(100 * p["width"]))  # fmt: skip
    return t(f"insight.probes.{code}", lang)  # seen_text, silver: no numbers


def reading(result: ProbeResult, lang: str) -> str:
    """Markdown: what the data are, then one line per reading, then what the control task is."""
    pos, sense = result.pos, result.sense
    head = t("insight.probes.data", lang, model=escape_md(result.model_label), pos_train=pos.n_train, pos_test=pos.n_test,
             pos_classes=pos.n_classes, sense_test=sense.n_test, sense_classes=sense.n_classes,
             sense_split=t(f"insight.probes.split.{sense.split}", lang),
             source=t(f"insight.probes.source.{result.lang}", lang), probe=escape_md(result.probe),
             seconds=f"{result.train_seconds:.0f}")  # fmt: skip
    lines = [_line(r.code, r.params, result, lang) for r in result.readings]
    return "\n\n".join([head, *(f"- {line}" for line in lines), t("insight.probes.control", lang)])


def detail(result: ProbeResult, lang: str) -> str:
    """The curves as a table (one row per layer, numbers in %), for reading exact values and for screen readers."""
    head = [c.strip() for c in t("insight.probes.table", lang).strip("|").split("|")]
    th = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    rows = []
    for i, name in enumerate(result.layer_names):
        cells = [html.escape(name)]
        for curve in (result.pos, result.sense):
            cells += [_pct(curve.accuracy[i]), _pct(curve.control[i]), f"{100 * curve.selectivity[i]:+.1f}"]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    body = "".join(rows)
    return f'<div class="tp-insight-table"><table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>'
