"""The sampling tab's events: next-token views, streamed generation, temperature comparison, step-through.

Step-through keeps one `generation.Sampler` per user in `gr.State`: it lives on the
server (State never travels to the browser), holds the prefix's key/value cache
so each click costs one token, and is dropped when the session ends or after
STATE_TTL_S. A cache of ≤ 200 + prompt tokens is a few MB for SmolLM2.
"""

from __future__ import annotations

from typing import Any, Iterator

import gradio as gr

from playground import availability, generation, sampling
from playground.alignment import is_cjk
from playground.figures import sampling as figs
from playground.ui.common import check_keys, export_figure_html, export_file, export_json, friendly_errors, load_model, provenance
from playground.ui.i18n import t

KINDS = ("causal",)
DEFAULT_TEMPERATURES = (0.1, 0.8, 1.5)
STATE_TTL_S = 1800


def default_model() -> str | None:
    specs = availability.available_specs(*KINDS)
    return specs[0].key if specs else None


def _model(key: str | None, lang: str, progress: Any = None):
    (spec,) = check_keys([key or default_model() or ""], lang)
    if spec.kind not in KINDS:
        raise gr.Error(t("error.sampling_not_causal", lang, model=spec.label))
    return load_model(spec.key, lang, progress)


def _settings(temperature, top_k, top_p, lang: str) -> sampling.SamplingSettings:
    with friendly_errors(lang):
        return sampling.settings(temperature, top_k, top_p)


def _info(lm, prompt: str, lang: str) -> str:
    lines = [provenance(lm, lang)]
    if any(is_cjk(ch) for ch in prompt) and not lm.spec.speaks("zh"):
        lines.append(t("sampling.no_chinese", lang, model=lm.spec.label))
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


def next_token_view(prompt, model, temperature, top_k, top_p, lang, progress=gr.Progress()):
    """Figure, summary, provenance and downloads for the next-token distribution of `prompt`."""
    lm, s = _model(model, lang, progress), _settings(temperature, top_k, top_p, lang)
    with friendly_errors(lang):
        result = sampling.next_token(lm, prompt, [s])
    view = result.views[0]
    fig = figs.distribution_figure(view, _stage_titles(view, s, lang), t("sampling.prob_axis", lang))
    files = [export_json("next_token.json", result.to_dict()), export_figure_html("next_token.html", fig)]
    return fig, _summary(view, s, lang), _info(lm, prompt, lang), files


def generate_view(prompt, model, temperature, top_k, top_p, max_new, n_samples, seed, lang, progress=gr.Progress()) -> Iterator:
    """Streams the coloured samples as they grow; downloads at the end."""
    lm, s = _model(model, lang, progress), _settings(temperature, top_k, top_p, lang)
    info = _info(lm, prompt, lang)
    with friendly_errors(lang):
        stream = generation.generate_stream(lm, prompt, s, int(max_new), int(n_samples), int(seed or 0), every=2)
        for result in stream:
            if not result.done:
                yield _html(result, lang), info, gr.update()
    page = _html(result, lang)
    yield page, info, [export_json("generation.json", result.to_dict()), export_file("generation.html", page)]


def compare_view(prompt, model, t1, t2, t3, top_k, top_p, max_new, seed, lang, progress=gr.Progress()):
    """Three temperatures: the distributions they sample from, and one continuation each (same seed)."""
    lm = _model(model, lang, progress)
    variants = [_settings(temp, top_k, top_p, lang) for temp in (t1, t2, t3)]
    with friendly_errors(lang):
        result = sampling.next_token(lm, prompt, variants)
        runs = [generation.generate(lm, prompt, s, int(max_new), 1, int(seed or 0)) for s in variants]
    titles = [
        f"{t('sampling.compare_title', lang, t=s.temperature)}<br>"
        f"{t('sampling.stage.stats', lang, h=v.entropy['top_p'], n=v.nucleus_size)}"
        for s, v in zip(variants, result.views)
    ]
    fig = figs.temperature_figure(result.views, titles, t("sampling.prob_axis", lang))
    page = "".join(
        _html(run, lang, f"T = {s.temperature:g}:", legend=i == len(runs) - 1) for i, (s, run) in enumerate(zip(variants, runs))
    )
    payload = {**result.to_dict(), "continuations": [run.to_dict() for run in runs]}
    return (
        fig,
        page,
        _info(lm, prompt, lang),
        [export_json("temperatures.json", payload), export_figure_html("temperatures.html", fig)],
    )


def step_view(sampler, prompt, model, temperature, top_k, top_p, max_new, seed, lang, progress=gr.Progress()):
    """One more token for this user's step-through; a new prompt, model or seed starts a fresh one."""
    lm, s = _model(model, lang, progress), _settings(temperature, top_k, top_p, lang)
    seed = int(seed or 0)
    with friendly_errors(lang):
        if sampler is None or (sampler.model_key, sampler.prompt, sampler.seed) != (lm.spec.key, prompt, seed):
            sampler = generation.Sampler(lm, prompt, s, seed, 1, int(max_new))
        sampler.settings = s  # the sliders may change between steps
        view = sampler.step(lm, view=True)
    if view is None:
        return sampler, gr.update(), gr.update(), t("sampling.step_done", lang), _info(lm, prompt, lang)
    fig = figs.distribution_figure(view, _stage_titles(view, s, lang), t("sampling.prob_axis", lang))
    status = t(
        "sampling.step_status",
        lang,
        step=sampler.steps,
        token=sampling.token_text(lm.tokenizer, view.chosen),
        rank=view.chosen_rank,
        p=view.chosen_prob,
    )
    if sampler.done:
        status += "\n\n" + t("sampling.step_done", lang)
    return sampler, fig, _html(sampler.result(lm), lang), status, _info(lm, prompt, lang)


def next_token_api(
    prompt: str,
    model: str = "",
    temperature: float = 0.8,
    top_k: int = 0,
    top_p: float = 1.0,
    temperatures: list[float] | None = None,
    lang: str = "en",
) -> dict:
    """Next-token distribution views; `temperatures` gives one view per temperature (else one for `temperature`)."""
    lm = _model(model, lang)
    variants = [_settings(temp, top_k, top_p, lang) for temp in (temperatures or [temperature])]
    with friendly_errors(lang):
        return sampling.next_token(lm, prompt, variants).to_dict()


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
    """Sampled continuations with, per token, its probability, rank and the most probable alternatives."""
    lm, s = _model(model, lang), _settings(temperature, top_k, top_p, lang)
    with friendly_errors(lang):
        return generation.generate(lm, prompt, s, max_new_tokens, n_samples, seed).to_dict()
