"""The masking tab's event: pick the strategy and generator, run it, and phrase the result in the user's language."""

from __future__ import annotations

import dataclasses
import functools
import json

import gradio as gr

from playground import attention_masks, availability, masking, masking_electra, masking_spans, models
from playground.errors import InputError
from playground.figures import masking as figs
from playground.masking_stats import MaskingStats, masking_statistics
from playground.ui.common import export_file, export_figure_html, export_json, friendly_errors, load_model, provenance
from playground.ui.i18n import t

STRATEGIES = {
    "bert": masking.bert_masking,
    "wwm": masking.whole_word_masking,
    "dynamic": masking.dynamic_masking,
    "span": masking_spans.span_masking,
    "permutation": attention_masks.permutation_lm,
    "electra": None,
    "t5": masking_spans.t5_span_corruption,
    "attention": attention_masks.attention_families,
}
TOKENIZER_KINDS = ("masked", "encoder", "causal", "seq2seq", "discriminator", "permutation")


def generator_choices(lang: str) -> list[tuple[str, str]]:
    """auto, the available masked LMs, the causal filler on each available causal LM, uniform."""
    out = [(t("masking.gen_auto", lang), "auto")]
    out += [(s.label, f"masked:{s.key}") for s in availability.available_specs("masked")]
    out += [(t("masking.gen_causal", lang, label=s.label), f"causal:{s.key}") for s in availability.available_specs("causal")]
    return out + [(t("masking.gen_uniform", lang), "uniform")]


@functools.lru_cache(maxsize=64)
def _corrupted(kind: str, generator_key: str, tokenizer_key: str, text: str, seed: int, p: float):
    """One ELECTRA corruption, pure in its inputs: a redraw (e.g. a language switch) reuses the generator's pass."""
    if kind == "masked":
        return masking_electra.electra_mlm(models.load(generator_key), text, seed, mask_prob=p)
    tokenizer = models.load(tokenizer_key).tokenizer
    if kind == "causal":
        return masking_electra.electra_causal(tokenizer, models.load(generator_key), text, seed, mask_prob=p)
    return masking_electra.electra_uniform(tokenizer, text, seed, mask_prob=p)


@functools.lru_cache(maxsize=64)
def _replaced_probs(discriminator_key: str, corrupted_ids: tuple[int, ...]) -> tuple[float, ...]:
    return tuple(masking_electra.discriminator_probs(models.load(discriminator_key), list(corrupted_ids)))


def _electra(lm, text, seed, p, generator, lang, progress):
    if generator == "auto":
        causal = availability.available_specs("causal")
        generator = f"masked:{lm.spec.key}" if lm.spec.kind == "masked" else f"causal:{causal[0].key}" if causal else "uniform"
    kind, _, key = generator.partition(":")
    notes = []
    gen = load_model(key, lang, progress) if kind in ("masked", "causal") else None  # progress and clean errors on first load
    result = _corrupted(kind, key, lm.spec.key, text, seed, p)
    if kind == "causal":
        notes.append(t("masking.causal_note", lang))
    elif kind != "masked":
        notes.append(t("masking.uniform_note", lang))
    for spec in availability.available_specs("discriminator"):
        disc = load_model(spec.key, lang, progress)
        if masking_electra.same_vocabulary(disc.tokenizer, lm.tokenizer if kind != "masked" else gen.tokenizer):
            probs = list(_replaced_probs(spec.key, tuple(result.details["corrupted_ids"])))
            result = dataclasses.replace(
                result, details={**result.details, "replaced_prob": probs}
            )  # the cached one stays as drawn
            notes.append(
                t(
                    "masking.disc",
                    lang,
                    model=spec.hf_id,
                    probs=" ".join(f"{tok}:{p:.2f}" for tok, p in zip(result.tokens, probs)),
                )
            )
            break
    return result, notes


def _notes(result, lang) -> list[str]:
    d, out = result.details, []
    if result.strategy in ("bert", "wwm", "dynamic", "span", "permutation", "t5"):
        out.append(t("masking.labels", lang, labels=" ".join(str(v) for v in result.labels)))
    if result.strategy == "span":
        out.append(
            t(
                "masking.spans",
                lang,
                spans=", ".join(f"{s['start']}–{s['end']} ({s['words']}; {s['drawn_length']})" for s in d["spans"]),
            )
        )
        if d["sbo"]:
            s = d["sbo"][0]
            tok = lambda i: "—" if i is None else result.tokens[i]  # noqa: E731
            out.append(
                t(
                    "masking.sbo",
                    lang,
                    example=f"`{result.tokens[s['target']]}` ← `{tok(s['left'])}`, `{tok(s['right'])}`, p{s['position']}",
                )
            )
    if result.strategy == "t5":
        out += [t("masking.input", lang, text=" ".join(result.corrupted)), t("masking.target", lang, text=" ".join(d["target"]))]
        if not d["sentinels_real"]:
            out.append(t("masking.t5_placeholder", lang))
    if result.strategy == "permutation":
        out.append(t("masking.order", lang, order=" → ".join(f"{i}:{result.tokens[i]}" for i in d["order"])))
    if result.strategy == "electra":
        out.append(t("masking.generator_used", lang, name=d["generator"]))
    if result.mask_is_placeholder and result.strategy in ("bert", "wwm", "dynamic", "span"):
        out.append(t("masking.placeholder", lang, mask=result.mask_token))
    if result.truncated:
        out.append(t("masking.truncated", lang, n=masking.MAX_TOKENS))
    return out


def _rows(result, lang):
    def label(name):
        kind, _, n = name.partition(" ")
        return t(f"masking.row.{kind}", lang, n=n) if n else t(f"masking.row.{kind}", lang)

    if result.rows:
        return [result.tokens] * len(result.rows), [(label(n), a) for n, a in result.rows]
    if result.strategy == "electra":
        return [result.tokens], [(t("masking.row.input", lang), result.actions)]
    return [result.tokens, result.corrupted], [
        (t("masking.row.tokens", lang), result.actions),
        (t("masking.row.input", lang), result.actions),
    ]


def _stats_view(stats: MaskingStats | None, lang):
    if stats is None:
        return "", None
    names = [t(f"masking.r.{r.name}", lang) for r in stats.rates]
    rows = [
        t(
            "masking.stats_row",
            lang,
            name=n,
            emp=r.empirical,
            theory=f"{'≥ ' if r.at_least else ''}{r.theory:.4f}",
            se=r.stderr,
            ok="✓" if r.within else "✗",
        )
        for n, r in zip(names, stats.rates)
    ]
    title = t("masking.rates_title", lang, n=stats.draws)
    if "span_length" in stats.histograms:
        h = stats.histograms["span_length"]
        fig = figs.histogram_figure(
            h["x"],
            {
                t("masking.empirical", lang): h["empirical"],
                t("masking.theory", lang): h["theory"],
                t("masking.realized", lang): h["realized"],
            },
            t("masking.span_length", lang),
            title,
        )
    elif "predicted_by_position" in stats.histograms:
        h = stats.histograms["predicted_by_position"]
        fig = figs.histogram_figure(
            h["x"],
            {t("masking.empirical", lang): h["empirical"], t("masking.theory", lang): h["theory"]},
            t("masking.position", lang),
            title,
        )
    else:
        fig = figs.rates_figure(
            names,
            [r.empirical for r in stats.rates],
            [r.theory for r in stats.rates],
            [r.stderr for r in stats.rates],
            (t("masking.empirical", lang), t("masking.theory", lang)),
            title,
        )
    return "\n".join([t("masking.stats_head", lang)] + rows), fig


def run_masking(text, model_key, strategy, seed, p, pm, pr, epochs, prefix_len, generator, draws, lang, progress=gr.Progress()):
    """The public `masking` event: one draw of the strategy, plus statistics over `draws` runs when draws > 0."""
    with friendly_errors(lang):
        if strategy not in STRATEGIES:
            raise InputError("masking_unknown_strategy", "Unknown objective {strategy!r}.", strategy=strategy)
        lm = load_model(model_key, lang, progress)
        seed, p, pm, pr = int(seed or 0), float(p), float(pm), float(pr)
        if strategy == "electra":
            result, extra = _electra(lm, text, seed, p, generator or "auto", lang, progress)
        else:
            result = STRATEGIES[strategy](
                lm.tokenizer,
                text,
                seed=seed,
                mlm_probability=p,
                mask_replace_prob=pm,
                random_replace_prob=pr,
                epochs=epochs,
                prefix_len=prefix_len,
            )
            extra = []
        stats = None
        if draws and int(draws) > 0 and strategy not in ("electra", "attention"):
            stats = masking_statistics(lm.tokenizer, text, strategy, int(draws), seed, p=p, pm=pm, pr=pr)
    names = {a: t(f"masking.a.{a}", lang) for a in figs.ACTION_COLOURS}
    grid = figs.token_grid_figure(*_rows(result, lang), names, t("masking.grid_title", lang))
    d = result.details
    matrices = (
        {k: d[k] for k in ("bidirectional", "causal", "prefix")}
        if result.strategy == "attention"
        else {"content": d["content_mask"], "query": d["query_mask"]}
        if result.strategy == "permutation"
        else None
    )
    matrix_fig = figs.matrices_figure(matrices, result.tokens, t("masking.matrix_title", lang)) if matrices else None
    summary = "\n\n".join([provenance(lm, lang)] + _notes(result, lang) + extra + [t(f"masking.why.{result.strategy}", lang)])
    stats_md, stats_fig = _stats_view(stats, lang)
    if draws and strategy in ("electra", "attention"):
        stats_md = t("masking.no_stats", lang)
    payload = {
        "model": lm.spec.hf_id,
        "device": lm.device,
        **dataclasses.asdict(result),
        "statistics": dataclasses.asdict(stats) if stats else None,
    }
    if stats:
        payload["statistics"]["rates"] = [dict(dataclasses.asdict(r), within=r.within) for r in stats.rates]
    payload = json.loads(json.dumps(payload, default=str))
    csv = "position,token,action,label\n" + "\n".join(
        f"{i},{json.dumps(tok, ensure_ascii=False)},{a},{lab}"
        for i, (tok, a, lab) in enumerate(zip(result.tokens, result.actions, result.labels))
    )
    files = [export_json("masking.json", payload), export_file("masking.csv", csv), export_figure_html("masking.html", grid)]
    shown = lambda fig: gr.update(value=fig, visible=fig is not None)  # noqa: E731 (no empty plot boxes)
    return summary, grid, shown(matrix_fig), stats_md, shown(stats_fig), payload, files
