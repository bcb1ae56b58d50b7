"""ELMo tab: results -> figures, tables and readings in the user's language (no model logic, no events).

Every reading is computed from the numbers of the result. Words from a user or a vocabulary are escaped in
Markdown; table cells are plain text in Gradio's Dataframe (shown literally), so they are left as they are.
"""

from __future__ import annotations

import math
from typing import Any

import gradio as gr

from playground.elmo.views import ElmoBilmResult, ElmoMixResult, ElmoOovResult
from playground.figures import elmo as fig
from playground.registry import get_spec
from playground.ui.common.widgets import escape, escape_md, label_in, provenance
from playground.ui.common.i18n import t

WEAK = 0.05  # below this separation the senses' points overlap visibly
SAME = 0.002  # a change smaller than this is "practically unchanged"


def _f(x: float | None) -> str:
    return "—" if x is None else f"{x:+.3f}"


def mix_figure(r: ElmoMixResult, lang: str):
    return fig.mix_figure(
        r,
        title=t("elmo.fig.mix_title", lang, word=escape(r.word)),
        layer_name=t("elmo.fig.layer", lang, k="{k}"),
        mix_name=t("elmo.fig.mix", lang),
        x_title=t("elmo.fig.pc1", lang),
        y_title=t("elmo.fig.pc2", lang),
        layer0_note=t("elmo.fig.layer0_one_point", lang),
    )


def mix_weights_md(r: ElmoMixResult, lang: str) -> str:
    w0, w1, w2 = r.weights
    return t("elmo.mix.weights", lang, w0=w0, w1=w1, w2=w2, gamma=r.gamma)


def mix_reading(r: ElmoMixResult, previous: ElmoMixResult | None, lang: str) -> str:
    """Separation per layer and of the mix; what changed since the previous weights; the model's best layer."""
    if r.mix_separation is None:
        return t("elmo.mix.one_label", lang)
    s0, s1, s2 = r.layer_separation
    lines = [t("elmo.mix.sep", lang, s0=_f(s0), s1=_f(s1), s2=_f(s2), mix=_f(r.mix_separation))]
    same_input = previous is not None and (previous.word, previous.sentences) == (r.word, r.sentences)
    if same_input and previous.mix_separation is not None and previous.weights != r.weights:
        delta = r.mix_separation - previous.mix_separation
        verdict = t("elmo.mix.same" if abs(delta) < SAME else ("elmo.mix.up" if delta > 0 else "elmo.mix.down"), lang)
        lines.append(t("elmo.mix.changed", lang, before=_f(previous.mix_separation), after=_f(r.mix_separation), verdict=verdict))
    # Layer 0 is context-free: the same vector in every sentence, so its separation is the tie value, never a "best".
    best = max((1, 2), key=lambda k: r.layer_separation[k] if r.layer_separation[k] is not None else -math.inf)
    base = r.layer_separation[0] or 0.0
    if r.layer_separation[best] is not None and r.layer_separation[best] > base:
        lines.append(t("elmo.mix.best", lang, word=escape_md(r.word), layer=best, sep=_f(r.layer_separation[best]), s0=_f(s0)))
    else:
        lines.append(t("elmo.mix.best_none", lang, word=escape_md(r.word), s0=_f(s0), s1=_f(s1), s2=_f(s2)))
    if max(abs(x or 0.0) for x in (*r.layer_separation, r.mix_separation)) < WEAK:
        lines.append(t("elmo.mix.weak", lang))
    if r.in_vocab is False:
        lines.append(t("elmo.mix.unknown_word", lang, word=escape_md(r.word)))
    return "\n\n".join(lines)


def bilm_headers(lang: str) -> list[str]:
    return [t(f"elmo.bilm.col_{c}", lang) for c in ("pos", "word", "fwd", "fwd_p", "bwd", "bwd_p")]


def _p(x: float) -> str:
    """A probability as text: small ones in scientific notation (never a misleading 0.0000)."""
    return f"{x:.4f}" if x >= 0.001 else f"{x:.1e}"


def _guesses(d) -> str:
    return ", ".join(f"{w} {p:.0%}" if p >= 0.01 else f"{w} {p:.1%}" for w, p in zip(d.words, d.probs))


def bilm_rows(r: ElmoBilmResult | None, lang: str) -> list[list[Any]]:
    if r is None or r.predictions is None:
        return []
    rows = []
    for i, p in enumerate(r.predictions.positions):
        word = p.token + ("" if p.in_vocab else " " + t("elmo.bilm.unk", lang))
        rows.append(
            [
                i + 1,
                word,
                _guesses(p.forward),
                f"{p.forward.actual_prob:.4f}",
                _guesses(p.backward),
                f"{p.backward.actual_prob:.4f}",
            ]
        )
    return rows


def bilm_reading(r: ElmoBilmResult, lang: str, model_label: str) -> str:
    if r.predictions is None:
        return t("elmo.bilm.no_softmax", lang, model=escape_md(model_label))
    pos = r.predictions.positions
    n = len(pos)
    nf = sum(p.forward.actual_prob > p.backward.actual_prob for p in pos)
    nb = sum(p.backward.actual_prob > p.forward.actual_prob for p in pos)
    gm = lambda xs: math.exp(sum(math.log(max(x, 1e-12)) for x in xs) / len(xs))  # noqa: E731
    unk = sum(not p.in_vocab for p in pos)
    v = r.vocab_size
    return t(
        "elmo.bilm.reading",
        lang,
        n=n,
        nf=nf,
        nb=nb,
        gf=f"{gm([p.forward.actual_prob for p in pos]):.4f}",
        gb=f"{gm([p.backward.actual_prob for p in pos]):.4f}",
        v=v,
        u=f"{1 / v:.5f}",
        unk=t("elmo.bilm.unk_note", lang, k=unk) if unk else "",
    )


def bilm_figure(r: ElmoBilmResult, lang: str):
    return fig.bilm_figure(r, t("elmo.fig.bilm_title", lang), t("elmo.fig.forward", lang), t("elmo.fig.backward", lang))


def oov_headers(lang: str) -> list[str]:
    return [t(f"elmo.oov.col_{c}", lang) for c in ("word", "in_vocab", "norm", "glove", "nn")]


def _yes_no(x: bool | None, lang: str) -> str:
    return "—" if x is None else t("elmo.oov.yes" if x else "elmo.oov.no", lang)


def oov_rows(r: ElmoOovResult | None, lang: str, glove_ok: bool = True) -> list[list[Any]]:
    if r is None:
        return []
    rows = []
    for w in r.words:
        if not glove_ok:
            glove = t("elmo.oov.glove_missing", lang)
        elif w.glove_found:
            glove = t("elmo.oov.glove_nn", lang, nn=", ".join(x for x, _ in w.glove_neighbours))
        else:
            glove = t("elmo.oov.glove_none", lang)
        nn = ", ".join(f"{x} ({c:.2f})" for x, c in w.neighbours)
        rows.append([w.word, _yes_no(w.in_elmo_vocab, lang), f"{w.elmo_norm:.2f}", glove, nn])
    return rows


def _shares_three(a: str, b: str) -> bool:
    a, b = a.lower(), b.lower()
    return any(a[i : i + 3] in b for i in range(len(a) - 2))


def oov_reading(r: ElmoOovResult, lang: str, model_label: str) -> str:
    total = sum(len(w.neighbours) for w in r.words)
    if not total:
        return t("elmo.oov.no_vocab", lang, model=escape_md(model_label))
    shared = sum(_shares_three(w.word, x) for w in r.words for x, _ in w.neighbours)
    k = sum(w.in_elmo_vocab is False for w in r.words)
    g = sum(w.glove_found for w in r.words)
    verdict = t("elmo.oov.spelling" if 2 * shared > total else "elmo.oov.not_spelling", lang)
    text = t("elmo.oov.reading", lang, n=len(r.words), k=k, g=g, shared=shared, total=total, verdict=verdict)
    return text + "\n\n" + t("elmo.oov.centred", lang)


# ---- each view's outputs, by name (playground.ui.elmo.tab) ------------------------------------------------------------


def model_label(key: str | None, lang: str) -> str:
    try:
        return label_in(get_spec(key).label, lang)
    except (ValueError, TypeError):
        return str(key)


def mix_outputs(r: ElmoMixResult, previous: ElmoMixResult | None, lang: str) -> dict[str, Any]:
    return {
        "weights": mix_weights_md(r, lang),
        "mix_reading": mix_reading(r, previous, lang),
        "mix_plot": mix_figure(r, lang),
        "mix_prov": provenance(r.model_id, "cpu", lang),
    }


def bilm_outputs(r: ElmoBilmResult, model: str, lang: str) -> dict[str, Any]:
    return {
        "bilm_reading": bilm_reading(r, lang, model_label(model, lang)),
        "bilm_table": gr.update(value=bilm_rows(r, lang), headers=bilm_headers(lang), visible=r.has_softmax),
        "bilm_plot": gr.update(value=bilm_figure(r, lang), visible=r.has_softmax),
        "bilm_prov": provenance(r.model_id, "cpu", lang),
    }


def oov_outputs(r: ElmoOovResult, model: str, lang: str) -> dict[str, Any]:
    return {
        "oov_reading": oov_reading(r, lang, model_label(model, lang)),
        "oov_table": gr.update(value=oov_rows(r, lang), headers=oov_headers(lang)),
        "oov_prov": provenance(r.model_id, "cpu", lang),
    }


def component(name: str) -> Any:
    """A result component by its name's ending (elem_id: elmo-<name>, what the browser tests find)."""
    elem_id = "elmo-" + name.replace("_", "-")
    if name.endswith("_plot"):
        return gr.Plot(show_label=False, elem_id=elem_id)
    if name.endswith("_table"):
        return gr.Dataframe(interactive=False, wrap=True, elem_id=elem_id)
    return gr.Markdown(elem_id=elem_id)
