"""The sampling tab's events and renderer: each event calls a backend entry and draws its frozen result.

Step-through keeps one `generation.Sampler` per user in `gr.State`: it lives on the
server (State never travels to the browser), holds the prefix's key/value cache
so each click costs one token, and is dropped when the session ends or after
STATE_TTL_S. A cache of ≤ 200 + prompt tokens is a few MB for SmolLM2.
Downloads are built from the kept result only when the user asks (`build_downloads`).
"""

from __future__ import annotations

import base64

import numpy as np

from typing import Any, Iterator

import gradio as gr

from playground import sampling
from playground.sampling import generation
from playground.sampling.measured import measured
from playground.figures import sampling as figs
from playground.ui.common.widgets import export_figure_html, export_file, export_json, friendly_errors, provenance
from playground.ui.common.widgets import for_request
from playground.ui.common.i18n import t

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


def next_token_view(prompt, model, temperature, top_k, top_p, lang, progress=gr.Progress()):
    """Figure, summary and provenance of the next-token distribution of `prompt`; the result is kept for downloads."""
    request = sampling.NextTokenRequest(prompt, model, temperature, top_k, top_p)
    with friendly_errors(lang):
        result = sampling.run_next_token(request, for_request(lang, progress))
    return (*render_next_token(result, lang), ("next_token", result), result)


def render_next_token(result: sampling.NextTokenRun, lang: str) -> tuple:
    """Figure, summary and provenance of a kept next-token result (a language switch redraws it, no model call)."""
    info = _info(result, lang)
    return next_token_figure(result, lang), _summary(result.views[0], result.settings[0], lang), info


def generate_view(prompt, model, temperature, top_k, top_p, max_new, n_samples, seed, lang, progress=gr.Progress()) -> Iterator:
    """Streams the coloured samples as they grow; the last snapshot is kept for downloads."""
    request = generation.GenerateRequest(prompt, model, temperature, top_k, top_p, max_new, n_samples, seed)
    with friendly_errors(lang):
        for result in generation.stream_generate(request, for_request(lang, progress), every=2):
            info = _info(result, lang)
            yield _html(result, lang), info, (("generation", result) if result.done else gr.update())


def compare_view(prompt, model, t1, t2, t3, top_k, top_p, max_new, seed, lang, progress=gr.Progress()):
    """Three temperatures: the distributions they sample from, and one continuation each (same seed)."""
    request = generation.CompareRequest(prompt, model, (t1, t2, t3), top_k, top_p, max_new, seed)
    with friendly_errors(lang):
        result = generation.run_compare(request, for_request(lang, progress))
    info = _info(result.next_token, lang)
    return compare_figure(result, lang), compare_html(result, lang), info, ("temperatures", result)


# What a link shows after its next-token view: nothing more, the samples, or the temperature comparison. The view a
# link was made from is kept in a hidden share parameter (`show`), set by the button last pressed.
LINK_VIEWS = ("next", "generate", "compare")


def linked_extra(
    show, prompt, model, temperature, top_k, top_p, max_new, n_samples, seed, t1, t2, t3, lang, progress=gr.Progress()
):
    """A link made after Generate or Compare shows those again (lesson exercise 2 needs the samples themselves).

    Outputs: generated samples, comparison plot, comparison text, provenance, kept result; what a view does not
    draw is skipped, so the next-token view already on the page stays.
    """
    if show == "generate":
        for html, info, kept in generate_view(prompt, model, temperature, top_k, top_p, max_new, n_samples, seed, lang, progress):
            yield html, gr.skip(), gr.skip(), info, kept
    elif show == "compare":
        fig, html, info, kept = compare_view(prompt, model, t1, t2, t3, top_k, top_p, max_new, seed, lang, progress)
        yield gr.skip(), gr.update(value=fig, visible=True), html, info, kept
    else:
        yield (gr.skip(),) * 5


def step_view(sampler, prompt, model, temperature, top_k, top_p, max_new, seed, lang, progress=gr.Progress()):
    """One more token for this user's step-through; a new prompt, model or seed starts a fresh one."""
    request = generation.StepRequest(prompt, model, temperature, top_k, top_p, max_new, seed)
    with friendly_errors(lang):
        sampler, run = generation.run_step(sampler, request, for_request(lang, progress))
    info = _info(run.generation, lang)
    if run.distribution is None:
        return sampler, gr.update(), gr.update(), t("sampling.step_done", lang), info
    view, s = run.distribution, run.generation.settings
    fig = figs.distribution_figure(view, _stage_titles(view, s, lang), t("sampling.prob_axis", lang))
    status = t("sampling.step_status", lang, step=run.step, token=run.chosen_text, rank=view.chosen_rank, p=view.chosen_prob)
    if run.done:
        status += "\n\n" + t("sampling.step_done", lang)
    return sampler, fig, _html(run.generation, lang), status, info


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


def next_token_api(
    prompt: str,
    model: str = "",
    temperature: float = 0.8,
    top_k: int = 0,
    top_p: float = 1.0,
    temperatures: list[float] | None = None,
    lang: str = "en",
) -> dict:
    """Next-token distribution views; `temperatures` gives one view per temperature (else one for `temperature`).

    Args:
        prompt: the text to continue, at most 5,000 characters ("" starts from the start token).
        model: a registry key of a causal LM ("gpt2", "gpt2-chinese", "smollm2-instruct", ...); "" for the first available.
        temperature: from 0 (greedy) to 2.
        top_k: keep the k most probable tokens, 0 (off) to 1,000.
        top_p: keep the smallest set of tokens whose probability reaches p, above 0 and at most 1 (1 = off).
        temperatures: at most 8 temperatures from 0 to 2, one view each (None or [] for one view at `temperature`).
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    request = sampling.NextTokenRequest(prompt, model, temperature, top_k, top_p, temperatures)
    with friendly_errors(lang):
        return sampling.run_next_token(request, for_request(lang)).to_dict()


def generate_api(
    prompt: str,
    model: str = "",
    temperature: float = 0.8,
    top_k: int = 0,
    top_p: float = 1.0,
    max_new_tokens: int = 40,
    n_samples: int = 1,
    seed: int = 0,
    lang: str = "en",
) -> dict:
    """Sampled continuations with, per token, its probability, rank and the most probable alternatives.

    Args:
        prompt: the text to continue, at most 5,000 characters ("" starts from the start token).
        model: a registry key of a causal LM ("gpt2", "gpt2-chinese", "smollm2-instruct", ...); "" for the first available.
        temperature: from 0 (greedy) to 2.
        top_k: keep the k most probable tokens, 0 (off) to 1,000.
        top_p: keep the smallest set of tokens whose probability reaches p, above 0 and at most 1 (1 = off).
        max_new_tokens: 1 to 200 tokens per sample.
        n_samples: 1 to 5 samples (max_new_tokens x n_samples at most 400).
        seed: a whole number from 0 to 2**32 - 1; the same seed gives the same text.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    request = generation.GenerateRequest(prompt, model, temperature, top_k, top_p, max_new_tokens, n_samples, seed)
    with friendly_errors(lang):
        return generation.run_generate(request, for_request(lang)).to_dict()
