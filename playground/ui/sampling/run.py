"""The sampling tab's events and renderer: each event calls a backend entry and draws its frozen result.

Step-through keeps one `generation.Sampler` per user in `gr.State`: it lives on the
server (State never travels to the browser), holds the prefix's key/value cache
so each click costs one token, and is dropped when the session ends or after
STATE_TTL_S. A cache of ≤ 200 + prompt tokens is a few MB for SmolLM2.
Downloads are built from the kept result only when the user asks (`build_downloads`).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import gradio as gr
import numpy as np

from playground import sampling
from playground.sampling import generation
from playground.sampling.measured import measured
from playground.figures import sampling as figs
from playground.ui.common.widgets import export_figure_html, export_file, export_json, friendly_errors, provenance
from playground.ui.common.form import Values
from playground.ui.common.i18n import t
from playground.ui.common.widgets import for_request

KINDS = sampling.KINDS
DEFAULT_TEMPERATURES = (0.1, 0.8, 1.5)
STATE_TTL_S = 1800
CONCURRENCY = 2  # sampling events (tab and API together) running at once; the rest wait in the bounded queue


def event_time_limit_s() -> int:
    """Gradio's limit per event (a comparison draws three continuations, each with its own backend limit, which acts
    first); read when the tab is built, not at import."""
    return round(3 * generation.time_limit_s()) + 30


default_model = sampling.default_model


def _info(result: Any, lang: str) -> str:
    """Provenance, a note when the prompt is Chinese and the model does not speak it (the backend measured which), and
    for a model trained here what its held-out text measured."""
    lines = [provenance(result.model_id, result.device, lang)]
    if result.no_chinese:
        lines.append(t("common.not_chinese", lang, model=result.model_label, consequence=t("sampling.no_chinese", lang)))
    known = measured(result.model_key)  # a model trained here: how weak its text is, with the measured figure
    if known is not None:
        lines.append(
            t(
                "sampling.measured",
                lang,
                params=known.parameters / 1e6,
                tokens=known.training_tokens / 1e6,
                ppl=known.perplexity,
                bigram=known.bigram,
                unigram=known.unigram,
            )
        )
    return "\n".join(f"- {line}" for line in lines)


def _stage_titles(view: sampling.Distribution, s: sampling.SamplingSettings, lang: str) -> list[str]:
    names = [
        t("sampling.stage.raw", lang),
        t("sampling.stage.temperature", lang, t=s.temperature),
        t("sampling.stage.top_k", lang, k=s.top_k) if s.top_k else t("sampling.stage.top_k_off", lang),
        t("sampling.stage.top_p", lang, p=s.top_p) if s.top_p < 1 else t("sampling.stage.top_p_off", lang),
    ]
    return [
        f"{name}<br>{t('sampling.stage.stats', lang, h=view.entropy[stage], n=view.kept[stage])}"
        for name, stage in zip(names, sampling.STAGES)
    ]


def _summary(view: sampling.Distribution, s: sampling.SamplingSettings, lang: str) -> str:
    text = t(
        "sampling.summary", lang, h=view.entropy["top_p"], raw=view.entropy["raw"], n=view.nucleus_size, vocab=view.kept["raw"]
    )
    return text + ("\n\n" + t("sampling.greedy_note", lang) if s.greedy else "")


def _html(result: generation.GenerationResult, lang: str, label: str | None = None, legend: bool = True) -> str:
    return figs.generation_html(
        result,
        label or t("sampling.sample_label", lang),
        t("sampling.hover", lang),
        t("sampling.legend", lang) if legend else "",
        t("sampling.ended", lang),
    )


def next_token_figure(result: sampling.NextTokenRun, lang: str):
    view, s = result.views[0], result.settings[0]
    figure = figs.distribution_figure(view, _stage_titles(view, s, lang), t("sampling.prob_axis", lang))
    if result.logits is not None:  # Plotly keeps `meta` as inert data: assets/sampling_redraw.js reads it
        figure.update_layout(meta={"tp": browser_data(result, lang)})
    return figure


def browser_data(result: sampling.NextTokenRun, lang: str) -> dict[str, Any]:
    """What the page needs to redraw the stages for another temperature, top-k or top-p without the server: every
    logit, most probable first (float32, base64: ~270 kB for a 50k vocabulary), and the texts as templates."""
    ordered = np.sort(result.logits.astype(np.float32))[::-1].copy()
    texts = {
        key: t(f"sampling.{key}", lang)
        for key in ("stage.raw", "stage.temperature", "stage.top_k", "stage.top_k_off", "stage.top_p", "stage.top_p_off",
                    "stage.stats", "summary", "greedy_note")
    }  # fmt: skip
    return {"logits": base64.b64encode(ordered.tobytes()).decode("ascii"), "shown": len(result.views[0].tokens), "texts": texts}


def compare_figure(result: generation.TemperatureComparison, lang: str):
    titles = [
        f"{t('sampling.compare_title', lang, t=s.temperature)}<br>"
        f"{t('sampling.stage.stats', lang, h=v.entropy['top_p'], n=v.nucleus_size)}"
        for s, v in zip(result.next_token.settings, result.next_token.views)
    ]
    return figs.temperature_figure(result.next_token.views, titles, t("sampling.prob_axis", lang))


def compare_html(result: generation.TemperatureComparison, lang: str) -> str:
    runs = result.continuations
    return "".join(
        _html(run, lang, f"T = {run.settings.temperature:g}:", legend=i == len(runs) - 1) for i, run in enumerate(runs)
    )


def request_fields(f: Values, *names: str) -> list[Any]:
    return [f[name] for name in names]


SETTINGS = ("prompt", "model", "temperature", "top_k", "top_p")


def next_token(f: Values, progress=None) -> dict[str, Any]:
    """Figure, summary and provenance of the next-token distribution of the prompt; the result is kept for downloads
    and for a language switch."""
    request = sampling.NextTokenRequest(*request_fields(f, *SETTINGS))
    with friendly_errors(f.lang):
        result = sampling.run_next_token(request, for_request(f.lang, progress))
    shown = {"kept": ("next_token", result), "next_area": gr.update(visible=True), "show": "next"}
    return render_next_token(result, f.lang) | shown


def render_next_token(result: sampling.NextTokenRun, lang: str) -> dict[str, Any]:
    """Figure, summary and provenance of a kept next-token result (a language switch redraws it, no model call)."""
    summary = _summary(result.views[0], result.settings[0], lang)
    figure = next_token_figure(result, lang)
    return {"next_plot": figure, "next_summary": summary, "info": _info(result, lang), "next_result": result}


def generate(f: Values, progress=None) -> Iterator[dict[str, Any]]:
    """Streams the coloured samples as they grow (their box opens with the first); the last is kept for downloads."""
    request = generation.GenerateRequest(*request_fields(f, *SETTINGS, "max_new_tokens", "samples", "seed"))
    with friendly_errors(f.lang):
        for result in generation.stream_generate(request, for_request(f.lang, progress), every=2):
            kept = {"kept": ("generation", result)} if result.done else {}
            shown = {"generated": _html(result, f.lang), "info": _info(result, f.lang)}
            yield shown | {"generate_area": gr.update(visible=True), "show": "generate"} | kept


def compare(f: Values, progress=None) -> dict[str, Any]:
    """Three temperatures: the distributions they sample from, and one continuation each (same seed)."""
    temperatures = tuple(f[name] for name in ("t1", "t2", "t3"))
    fields = request_fields(f, "top_k", "top_p", "max_new_tokens", "seed")
    request = generation.CompareRequest(f["prompt"], f["model"], temperatures, *fields)
    with friendly_errors(f.lang):
        result = generation.run_compare(request, for_request(f.lang, progress))
    return {
        "compare_plot": gr.update(value=compare_figure(result, f.lang), visible=True),
        "compared": compare_html(result, f.lang),
        "info": _info(result.next_token, f.lang),
        "kept": ("temperatures", result),
        "show": "compare",
    }


def step(f: Values, progress=None) -> dict[str, Any]:
    """One more token for this user's step-through; a new prompt, model or seed starts a fresh one."""
    request = generation.StepRequest(*request_fields(f, *SETTINGS, "max_new_tokens", "seed"))
    with friendly_errors(f.lang):
        sampler, run = generation.run_step(f.extra["sampler"], request, for_request(f.lang, progress))
    out = {"sampler": sampler, "info": _info(run.generation, f.lang)}
    if run.distribution is None:
        return out | {"step_status": t("sampling.step_done", f.lang)}
    view, s = run.distribution, run.generation.settings
    fig = figs.distribution_figure(view, _stage_titles(view, s, f.lang), t("sampling.prob_axis", f.lang))
    status = t("sampling.step_status", f.lang, step=run.step, token=run.chosen_text, rank=view.chosen_rank, p=view.chosen_prob)
    if run.done:
        status += "\n\n" + t("sampling.step_done", f.lang)
    page = _html(run.generation, f.lang)
    return out | {"step_plot": gr.update(value=fig, visible=True), "step_text": page, "step_status": status}


@dataclass(frozen=True)
class View:
    """A view a button shows and a link reopens (the link's hidden `show`): its handler after the next-token view,
    and its script."""

    handler: Callable[..., Any] | None  # None: the next-token view alone
    code: Callable[[Values], tuple[str, dict]]


def _params(f: Values, *names: str) -> dict[str, Any]:
    return {name: f[name] for name in names}


VIEWS: dict[str, View] = {
    "next": View(None, lambda f: ("next_token", _params(f, *SETTINGS))),
    "generate": View(
        generate, lambda f: ("generate", _params(f, *SETTINGS, "max_new_tokens", "seed") | {"n_samples": f["samples"]})
    ),
    "compare": View(
        compare,
        lambda f: (
            "compare",
            _params(f, "prompt", "model", "top_k", "top_p", "max_new_tokens", "seed")
            | {"temperatures": [f["t1"], f["t2"], f["t3"]]},
        ),
    ),  # fmt: skip
}
LINK_VIEWS = tuple(VIEWS)
STEP_CODE = lambda f: ("step", _params(f, *SETTINGS, "max_new_tokens", "seed"))  # noqa: E731


def shown_code(f: Values) -> tuple[str, dict]:
    """The script of the view on screen (the one a link names, the button last pressed)."""
    return VIEWS[f["show"] if f["show"] in VIEWS else "next"].code(f)


def linked(f: Values, progress=None) -> Iterator[dict[str, Any]]:
    """A link: the next-token distribution of its inputs (cheap, deterministic), then the samples or the comparison
    when the link was made from them (lesson exercise 2 needs the samples themselves), streamed in the same event."""
    yield next_token(f, progress) | {"show": f["show"]}
    view = VIEWS.get(f["show"], VIEWS["next"])
    if view.handler is not None:
        updates = view.handler(f, progress)
        yield from (updates if isinstance(updates, Iterator) else [updates])


def redraw(f: Values, progress=None) -> dict[str, Any]:
    """A language switch redraws the kept next-token result (no model call); generated samples keep their language."""
    kept = f.extra.get("next_result")
    return render_next_token(kept, f.lang) if kept is not None else {}


def build_downloads(kept: tuple[str, Any] | None, lang: str) -> list[str]:
    """On click: the JSON and the figure or page of the last next-token, generation or comparison run."""
    if not kept:
        return []
    kind, result = kept
    if kind == "next_token":
        return [
            export_json("next_token.json", result.to_dict()),
            export_figure_html("next_token.html", next_token_figure(result, lang)),
        ]
    if kind == "generation":
        return [export_json("generation.json", result.to_dict()), export_file("generation.html", _html(result, lang))]
    return [
        export_json("temperatures.json", result.to_dict()),
        export_figure_html("temperatures.html", compare_figure(result, lang)),
    ]
