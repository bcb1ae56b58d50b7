"""A MaskingRun in the user's language: the token grid, the attention matrices, the notes, the statistics, the exports.

One table entry per objective (VIEWS): which notes it shows, how its grid rows read and which masks it draws.
No model runs here; a language switch calls `render` again on the kept run.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Callable

from playground.errors import InputError
from playground.figures import masking as figs
from playground.masking.electra import generator_options, resolve_generator
from playground.registry import get_spec
from playground.masking.encoding import MAX_TOKENS
from playground.masking.results import IGNORE, MaskingRun, token_table_csv
from playground.serialize import jsonable
from playground.ui.common.widgets import export_figure_html, export_file, export_json, label_in, provenance
from playground.ui.common.i18n import t

Phrase = Callable[[MaskingRun, str], list[str]]  # run, lang -> note lines


def _md(value) -> str:
    """A token or other tokenizer-made text as inert Markdown: `<extra_id_0>`, `</s>`, `__init__` and `'s` show as typed.

    (As ui.common.escape_md, but quotes stay quotes: an entity like `&#x27;` whose `#` gets a backslash shows raw.)
    """
    return re.sub(r"([\\`*_\[\]|#~$])", r"\\\1", html.escape(str(value), quote=False))


def _code(value) -> str:
    """A token set in code type, escaped (a token may itself contain backticks or tags)."""
    return f"<code>{_md(value)}</code>"


def _labels(run: MaskingRun, lang: str) -> list[str]:
    """The loss targets as tokens (position and id beside): what the model must predict, not only numbers."""
    shown = [
        f"{_code(run.tokens[pos])} ({pos}, id {lab})"
        for pos, lab in enumerate(run.labels)
        if lab != IGNORE and pos < len(run.tokens)
    ]
    return [t("masking.labels", lang, labels=", ".join(shown) if shown else t("masking.labels_none", lang))]


def _spans(run: MaskingRun, lang: str) -> list[str]:
    d = run.details
    # Each span spelled out ("positions 7–8: 2 words, drawn length 4"): the bare "7–8 (2; 4)" was unexplained, and
    # a span shorter than its draw says why (it stops at the sentence's end, a masked word or the 15 % budget).
    spans = [
        t("masking.span_item", lang, start=s["start"], end=s["end"], words=s["words"], drawn=s["drawn_length"])
        + (t("masking.span_cut", lang) if s["words"] < s["drawn_length"] else "")
        for s in d["spans"]
    ]
    out = [t("masking.spans", lang, spans=("；" if lang == "zh" else "; ").join(spans))]
    if d["sbo"]:
        s = d["sbo"][0]

        def tok(i):
            return "—" if i is None else _code(run.tokens[i])

        example = f"{tok(s['target'])} ← {tok(s['left'])}, {tok(s['right'])}, p{s['position']}"
        out.append(t("masking.sbo", lang, example=example))
    return out


def _t5(run: MaskingRun, lang: str) -> list[str]:
    d = run.details
    out = [
        t("masking.t5_counts", lang, tokens=d["content_tokens"], noise=d["noise_tokens"], spans=d["spans"]),
        t("masking.input", lang, text=" ".join(_code(tok) for tok in run.corrupted)),
        t("masking.target", lang, text=" ".join(_code(tok) for tok in d["target"])),
    ]
    if d.get("filled"):  # a T5 answered the corrupted sentence with its own sentinels (playground/masking/fill.py)
        fills = " · ".join(f"{_code(f['sentinel'])} {_code(f['filled'] or '∅')} ({_code(f['original'])})" for f in d["filled"])
        out.append(t("masking.t5_filled", lang, fills=fills))
    return out + ([] if d["sentinels_real"] else [t("masking.t5_placeholder", lang)])


def _order(run: MaskingRun, lang: str) -> list[str]:
    order = " → ".join(f"{_code(run.tokens[i])}<sub>{i}</sub>" for i in run.details["order"])
    k = run.details["k"]
    tokens = sum(a != "special" for a in run.actions)
    predicted = sum(a == "predicted" for a in run.actions)
    partial = t("masking.partial", lang, k=k, tokens=tokens, predicted=predicted, share=1 / k)
    return [partial, t("masking.order", lang, order=order)]


# How each generator kind is named, in the reader's language (the menu and the summary): "uniform" and a model
# trained here ("+ MLM head trained here") once showed in English on a Chinese page.
GENERATOR_LABELS = {
    "auto": lambda key, lang: t("masking.gen_auto", lang),
    "masked": lambda key, lang: label_in(get_spec(key).label, lang),
    "causal": lambda key, lang: t("masking.gen_causal", lang, label=label_in(get_spec(key).label, lang)),
    "uniform": lambda key, lang: t("masking.gen_uniform", lang),
}


def generator_choices(lang: str) -> list[tuple[str, str]]:
    """auto, the available masked LMs, the causal filler on each available causal LM, uniform."""
    return [(GENERATOR_LABELS[kind](key, lang), f"{kind}:{key}" if key else kind) for kind, key in generator_options()]


def _generator(run: MaskingRun, lang: str) -> list[str]:
    """The generator named as the menu names it, in the reader's language (the recorded id, `... + MLM head trained
    here`, was English on a Chinese page)."""
    try:
        kind, key = resolve_generator(run.request.generator, run.request.model)
    except (InputError, KeyError):  # a generator no longer offered here: the id the run recorded
        return [t("masking.generator_used", lang, name=_md(run.details["generator"]))]
    return [t("masking.generator_used", lang, name=_md(GENERATOR_LABELS[kind](key, lang)))]


def _placeholder(run: MaskingRun, lang: str) -> list[str]:
    return [t("masking.placeholder", lang, mask=_code(run.mask_token))] if run.mask_is_placeholder else []


def _input_rows(run: MaskingRun, lang: str):
    """Tokens, then what the model reads (same colours): the default grid."""
    return [run.tokens, run.corrupted], [
        (t("masking.row.tokens", lang), run.actions),
        (t("masking.row.input", lang), run.actions),
    ]


def _t5_rows(run: MaskingRun, lang: str):
    """T5: the encoder input under the sentence, position by position: each dropped span shows its one sentinel
    under its first token and empty cells under the rest (the input is shorter; aligned by index, `[SEP]` sat under
    a dropped token in the sentinel colour)."""
    names = iter(run.details["sentinels"])
    below, below_actions = [], []
    for pos, action in enumerate(run.actions):
        if action == "sentinel":
            first = pos == 0 or run.actions[pos - 1] != "sentinel"
            below.append(next(names) if first else "")
            below_actions.append("sentinel" if first else "pad")
        else:
            below.append(run.tokens[pos])
            below_actions.append(action)
    return [run.tokens, below], [(t("masking.row.tokens", lang), run.actions), (t("masking.row.input", lang), below_actions)]


def _units(word_ids: list[int]) -> dict[tuple[str, int], list[int]]:
    """Positions per word (and per special token, numbered in order): how two tokenizations of one sentence line up."""
    units: dict[tuple[str, int], list[int]] = {}
    specials = 0
    for pos, w in enumerate(word_ids):
        if w < 0:
            units[("special", specials)] = [pos]
            specials += 1
        else:
            units.setdefault(("word", w), []).append(pos)
    return units


def _electra_rows(run: MaskingRun, lang: str):
    """ELECTRA: the original sentence above the corrupted one the discriminator reads, word under word
    (a replacement word may have more or fewer pieces: the shorter side is padded with empty cells)."""
    d = run.details
    before, after = _units(d["original_word_ids"]), _units(run.word_ids)
    top, top_actions, bottom, bottom_actions = [], [], [], []
    for key in dict.fromkeys([*before, *after]):
        old, new = before.get(key, []), after.get(key, [])
        fates = [run.actions[p] for p in new]
        fate = "replaced" if "replaced" in fates else fates[0] if fates else "replaced"
        # Piece under piece, each original piece takes its own fate (`##izer` kept when only `token` was replaced: the
        # whole word coloured by one label contradicted the row under it); a word whose piece count changed, whole.
        same = len(old) == len(new)
        for k in range(max(len(old), len(new))):
            top.append(d["original_tokens"][old[k]] if k < len(old) else "")
            top_actions.append((fates[k] if same else fate) if k < len(old) else "pad")
            bottom.append(run.tokens[new[k]] if k < len(new) else "")
            bottom_actions.append(run.actions[new[k]] if k < len(new) else "pad")
    return [top, bottom], [(t("masking.row.original", lang), top_actions), (t("masking.row.input", lang), bottom_actions)]


def _named_rows(run: MaskingRun, lang: str):
    """Contrasts drawn by the backend (token vs whole word, static vs dynamic epochs): "kind n" row names."""

    def label(name):
        kind, _, n = name.partition(" ")
        return t(f"masking.row.{kind}", lang, n=n) if n else t(f"masking.row.{kind}", lang)

    return [run.tokens] * len(run.rows), [(label(n), a) for n, a in run.rows]


def _sbo_figure(run: MaskingRun, lang: str):
    """SpanBERT: the boundary tokens and relative positions feeding each masked token, drawn on the tokens."""
    sbo = run.details["sbo"]
    if not sbo:
        return None
    names = {a: t(f"masking.a.{a}", lang) for a in figs.ACTION_COLOURS}
    names |= {k: t(f"masking.sbo_fig.{k}", lang) for k in ("left", "right", "predict")}
    names["boundary"] = t("masking.a.boundary", lang)
    return figs.sbo_figure(run.corrupted, run.actions, sbo, names, t("masking.sbo_fig.title", lang), originals=run.tokens)


def _matrices_figure(run: MaskingRun, lang: str):
    """The attention masks the objective implies, side by side (XLNet's in its factorisation order)."""
    view = VIEWS[run.strategy]
    order = run.details["order"] if view.ordered else None
    title = t("masking.matrix_title_ordered" if order else "masking.matrix_title", lang)
    return figs.matrices_figure(
        {t(f"masking.m.{name}", lang): run.details[key] for name, key in view.matrices.items()}, run.tokens, title, order=order
    )


@dataclass(frozen=True)
class View:
    notes: tuple[Phrase, ...] = ()
    rows: Callable = _input_rows
    matrices: dict[str, str] | None = None  # subplot title key (masking.m.<name>) -> key in run.details
    ordered: bool = False  # rows and columns in the sampled factorisation order (XLNet), so the triangle shows
    figure: Callable | None = None  # the objective's own figure under the grid (run, lang) -> Figure or None


VIEWS: dict[str, View] = {
    "bert": View((_labels, _placeholder)),
    "wwm": View((_labels, _placeholder), _named_rows),
    "dynamic": View((_labels, _placeholder), _named_rows),
    "span": View((_labels, _spans, _placeholder), figure=_sbo_figure),
    "permutation": View(
        (_labels, _order), matrices={"content": "content_mask", "query": "query_mask"}, ordered=True, figure=_matrices_figure
    ),
    "electra": View((_generator,), _electra_rows),
    "t5": View((_labels, _t5), _t5_rows),
    "attention": View(matrices={k: k for k in ("bidirectional", "causal", "prefix")}, figure=_matrices_figure),
}


FIRST = ("unknown_tokens", "nothing_selected", "nothing_replaced")  # notes that change what the draw means: above everything else


def _backend_note(run: MaskingRun, note, lang: str) -> str:
    """Facts the draw recorded (which generator stood in, the discriminator's verdict, unknown tokens), escaped."""
    if note.code == "discriminator":
        probs = " ".join(f"{_code(tok)} {p:.2f}" for tok, p in zip(run.tokens, run.details["replaced_prob"]))
        return t("masking.disc", lang, model=_md(note.params["model"]), probs=probs)
    if note.code == "unknown_tokens":
        pieces = (
            "、".join(_code(p) for p in note.params["pieces"])
            if lang == "zh"
            else ", ".join(_code(p) for p in note.params["pieces"])
        )
        return t(
            "masking.note.unknown_tokens", lang, token=_code(note.params["token"]), pieces=pieces, count=note.params["count"]
        )
    if note.code == "nothing_selected":
        p = note.params
        return t("masking.note.nothing_selected", lang, seed=p["seed"], n=p["n"], p=f"{p['p']:.0%}", chance=f"{p['chance']:.0%}")
    if note.code == "nothing_replaced":  # ELECTRA: nothing masked, or every sample was the original token again
        p = note.params
        key = "masking.note.generator_kept_all" if p["selected"] else "masking.note.electra_none_masked"
        return t(key, lang, seed=p["seed"], selected=p["selected"], n=p["n"], p=f"{p['p']:.0%}", chance=f"{p['chance']:.0%}")
    return t(f"masking.note.{note.code}", lang, **{k: _md(v) for k, v in note.params.items()})


def summary(run: MaskingRun, lang: str) -> str:
    view = VIEWS[run.strategy]
    first = [n for n in run.notes if n.code in FIRST]  # a warning goes first: it changes what the draw means
    lines = [_backend_note(run, n, lang) for n in first]
    lines += [provenance(_md(run.model), run.device, lang)]
    lines += [line for phrase in view.notes for line in phrase(run, lang)]
    lines += [t("masking.truncated", lang, n=MAX_TOKENS)] if run.truncated else []
    lines += [_backend_note(run, n, lang) for n in run.notes if n.code not in FIRST]
    return "\n\n".join(lines + [t(f"masking.why.{run.strategy}", lang)])


def grid_figure(run: MaskingRun, lang: str):
    names = {a: t(f"masking.a.{a}", lang) for a in figs.ACTION_COLOURS}
    return figs.token_grid_figure(*VIEWS[run.strategy].rows(run, lang), names, t("masking.grid_title", lang))


def matrices_figure(run: MaskingRun, lang: str):
    """The objective's own figure (attention masks, SpanBERT's boundary arcs), or None."""
    figure = VIEWS[run.strategy].figure
    return figure(run, lang) if figure else None


def _span_length(h, lang, title):
    series = {
        t("masking.empirical", lang): h["empirical"],
        t("masking.theory", lang): h["theory"],
        t("masking.realized", lang): h["realized"],
    }
    return figs.histogram_figure(h["x"], series, t("masking.span_length", lang), title)


def _by_position(h, lang, title):
    series = {t("masking.empirical", lang): h["empirical"], t("masking.theory", lang): h["theory"]}
    return figs.histogram_figure(h["x"], series, t("masking.position", lang), title)


def _t5_span_length(h, lang, title):
    series = {t("masking.empirical", lang): h["empirical"], t("masking.theory", lang): h["theory"]}
    return figs.histogram_figure(h["x"], series, t("masking.t5_span_length", lang), title)


# A statistics mode that measures a distribution draws it as a histogram (keyed by its name); the others as rates.
HISTOGRAMS = {"span_length": _span_length, "predicted_by_position": _by_position, "t5_span_length": _t5_span_length}


def stats_facts(stats, lang: str) -> str:
    """The objective's parameters and what this text allows, beside the table ("" for objectives without)."""
    f = stats.facts
    if stats.strategy == "span" and f:
        return t(
            "masking.facts.span", lang, p=f["p"], max_len=f["max_len"], drawn=f["drawn_theory"], budget=f["budget"],
            tokens=f["tokens"], clipped=f["clipped_theory"],
        )  # fmt: skip
    if stats.strategy == "t5" and f:
        return t(
            "masking.facts.t5", lang, density=f["paper_density"], mean_span=f["paper_mean_span"], tokens=f["tokens"],
            noise=f["noise"], spans=f["spans"], fraction=f["noise"] / f["tokens"], mean=f["noise"] / f["spans"],
            distinct=f["distinct"], draws=stats.draws,
        )  # fmt: skip
    if stats.strategy == "permutation" and f:
        return t("masking.facts.permutation", lang, k=f["k"], tokens=f["tokens"], predicted=f["predicted"], share=1 / f["k"])
    return ""


def statistics_view(run: MaskingRun, lang: str):
    """(markdown table, figure or None); a note when statistics were asked of an objective that has none."""
    stats = run.statistics
    if stats is None:
        return (t("masking.no_stats", lang) if run.request.draws and int(run.request.draws) > 0 else ""), None
    return statistics_view_of(stats, lang)


def statistics_view_of(stats, lang: str):
    """A MaskingStats as (markdown table with the objective's facts, figure)."""
    names = [t(f"masking.r.{r.name}", lang) for r in stats.rates]
    rows = [
        t(
            "masking.stats_row",
            lang,
            name=n,
            emp=r.empirical,
            theory=f"{'≥ ' if r.at_least else '≤ ' if r.at_most else ''}{r.theory:.4f}",
            se=r.stderr,
            ok="✓" if r.within else "✗",
        )
        for n, r in zip(names, stats.rates)
    ]
    title = t("masking.rates_title", lang, n=stats.draws)
    hist = next((name for name in HISTOGRAMS if name in stats.histograms), None)
    if hist:
        fig = HISTOGRAMS[hist](stats.histograms[hist], lang, title)
    else:
        fig = figs.rates_figure(
            names,
            [r.empirical for r in stats.rates],
            [r.theory for r in stats.rates],
            [r.stderr for r in stats.rates],
            (t("masking.empirical", lang), t("masking.theory", lang)),
            title,
        )
    facts = stats_facts(stats, lang)
    table = "\n".join([t("masking.stats_head", lang)] + rows)
    return (table + "\n\n" + facts if facts else table), fig


def render(run: MaskingRun, lang: str):
    """(summary markdown, grid figure, own figure or None, statistics markdown, statistics figure or None, JSON)."""
    stats_md, stats_fig = statistics_view(run, lang)
    return summary(run, lang), grid_figure(run, lang), matrices_figure(run, lang), stats_md, stats_fig, jsonable(run)


def export_files(run: MaskingRun | None, lang: str) -> list[str]:
    """The downloads, built only when asked: the JSON, the token table as CSV, the grid as offline HTML."""
    if run is None:
        return []
    return [
        export_json("masking.json", jsonable(run)),
        export_file("masking.csv", token_table_csv(run)),
        export_figure_html("masking.html", grid_figure(run, lang)),
    ]
