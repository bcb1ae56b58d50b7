"""The header panel: active device, hub status, and every registered model's availability."""

from __future__ import annotations

import gradio as gr

from playground import availability, models
from playground.registry import registry
from playground.ui.common import why_unavailable
from playground.ui.i18n import Localizer, t


def status_markdown(lang: str) -> str:
    hub = "status.hub_online" if availability.hub_reachable() else "status.hub_offline"
    head = [t("status.device", lang, device=models.pick_device()), t(hub, lang), ""]
    cols = [t(f"status.col_{c}", lang) for c in ("model", "kind", "languages", "status")]
    rows = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for spec in registry().values():
        where = availability.check(spec)
        state = (
            t("status.available", lang, where=where.where)
            if where.ok
            else t("status.unavailable", lang, reason=why_unavailable(spec, lang))
        )
        rows.append(f"| {spec.label} (`{spec.hf_id}`) | {t('kind.' + spec.kind, lang)} | {', '.join(spec.languages)} | {state} |")
    return "\n".join(head + rows)


def build_status(loc: Localizer, lang: str) -> gr.Markdown:
    """An accordion the operator and the class can open to see what runs where."""
    with loc.add(gr.Accordion(t("app.status", lang), open=False), label="app.status"):
        return loc.add(gr.Markdown(status_markdown(lang)), value=status_markdown)
