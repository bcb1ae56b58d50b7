"""The header panel: active device, hub status, and every registered model's availability."""

from __future__ import annotations

import gradio as gr
from gradio.context import LocalContext

from playground import availability, cache, device, folders, models, warmup
from playground.registry import registry
from playground.serialize import jsonable
from playground.mlm_lab.runner import runner_for
from playground.serve import runtime as app_runtime
from playground.ui.common.widgets import escape_md, label_in, model_id_in, why_unavailable
from playground.ui.common.i18n import Localizer, t


def cache_line(lang: str) -> list[str]:
    """One line when PLAYGROUND_CACHE_DIR cannot be written (conversions then go to a temporary folder), else none."""
    return [t("status.cache_read_only", lang)] if folders.cache_read_only() else []


def status_markdown(lang: str) -> str:
    hub = "status.hub_online" if availability.hub_reachable() else "status.hub_offline"
    head = [t("status.device", lang, device=models.pick_device()), t(hub, lang), *cache_line(lang), ""]
    cols = [t(f"status.col_{c}", lang) for c in ("model", "kind", "languages", "status")]
    rows = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for spec in registry().values():
        where = availability.check(spec)
        state = (
            t("status.available", lang, where=where.where)
            if where.ok
            else t("status.unavailable", lang, reason=why_unavailable(spec, lang))
        )
        name = f"{label_in(spec.label, lang)} (`{model_id_in(spec.hf_id, lang)}`)"
        rows.append(f"| {name} | {t('kind.' + spec.kind, lang)} | {', '.join(spec.languages)} | {state} |")
    return "\n".join(head + rows)


def load_markdown(lang: str) -> str:
    """The load panel: Gradio's queue (running, waiting), cache hit rate, models in memory, the lab queue and, on
    ZeroGPU, GPU calls and quota refusals -- so a teacher can tell "slow" (a queue) from "broken" (refusals)."""
    queue = getattr(LocalContext.blocks.get(None), "_queue", None)
    lines = list(getattr(queue, "event_queue_per_concurrency_id", {}).values())
    hits, lookups = cache.hit_rate()
    loaded = ", ".join(f"`{k}`" for k in models.STORE.keys()) or t("load.none", lang)
    text = t(
        "load.line",
        lang,
        running=sum(q.current_concurrency for q in lines),
        waiting=sum(len(q.queue) for q in lines),
        hits=f"{hits / lookups:.0%} ({hits}/{lookups})" if lookups else "–",
        models=loaded,
        lab=runner_for(app_runtime.APP).busy(),
    )
    stats = device.STATS
    if stats.mode != "direct":
        gpu_line = t(
            "load.zerogpu",
            lang,
            mode=stats.mode,
            calls=stats.calls,
            seconds=round(stats.seconds_requested),
            refusals=stats.quota_refusals,
            errors=stats.worker_errors,
        )
        text += "\n\n" + gpu_line
    return f"{t('load.title', lang)}\n\n{text}"


def warmup_markdown(steps: list[warmup.WarmupStep], lang: str) -> str:
    rows = [
        f"| {s.view} | `{s.model or '-'}` | {s.seconds:.1f} | "
        + (t("warmup.ok", lang) if s.ok else t("warmup.failed", lang, error=escape_md(s.error))).replace("|", "\\|")
        + " |"
        for s in steps
    ]
    total = t("warmup.total", lang, seconds=f"{sum(s.seconds for s in steps):.1f}")
    return "\n".join([t("warmup.header", lang), *rows, "", total])


def warmup_api() -> dict:
    """The teacher's warm-up: load and run each lesson's default view once, with the seconds each took.

    Returns {"steps": [{view, model, seconds, ok, error}], "seconds": total}. Not an MCP tool.
    """
    steps = warmup.run_warmup(runtime=app_runtime.APP)  # the app's caches: the class's first identical request is served
    return {"steps": jsonable(steps), "seconds": round(sum(s.seconds for s in steps), 2)}


def build_status(loc: Localizer, lang: str, lang_input: gr.Radio | None = None) -> gr.Markdown:
    """An accordion the operator and the class can open to see what runs where, how loaded it is, and warm it up."""
    with loc.add(gr.Accordion(t("app.status", lang), open=False), label="app.status"):
        load = gr.Markdown(elem_id="tp-load")
        with gr.Row():
            refresh = loc.add(gr.Button(t("load.refresh", lang), size="sm", scale=0), value="load.refresh")
            warm = loc.add(gr.Button(t("warmup.button", lang), size="sm", scale=0, elem_id="tp-warmup"), value="warmup.button")
        loc.add(gr.Markdown(t("warmup.info", lang)), value="warmup.info")
        warmed = gr.Markdown(elem_id="tp-warmup-result")
        status = loc.add(gr.Markdown(status_markdown(lang)), value=status_markdown)
    inputs = [lang_input] if lang_input is not None else []  # the page's language switch
    refresh.click(lambda lang="en": load_markdown(lang), inputs, load, api_visibility="private", queue=False)
    warm.click(
        lambda lang="en": warmup_markdown(warmup.run_warmup(runtime=app_runtime.APP), lang),
        inputs,
        warmed,
        api_visibility="private",
    ).then(lambda lang="en": load_markdown(lang), inputs, load, api_visibility="private", queue=False)
    gr.api(warmup_api, api_name="warmup")
    return status
