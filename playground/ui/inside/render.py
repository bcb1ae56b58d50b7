"""Inside BERT results in the user's language: figures, readings computed from the numbers, tables, API JSON."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.figures.inside import embeddings_figure, head_figure, layout_figure, params_figure, probes_figure
from playground.inside.embeddings_input import EmbeddingsRun
from playground.inside.heads import HeadsRun, TaskHead
from playground.inside.nsp import LAYOUT_TOKENIZER, NspRun
from playground.inside.params import ParamsRun
from playground.serialize import jsonable
from playground.registry import get_spec, specs_of_kind
from playground.ui.common.widgets import escape_md, model_id_in, why_unavailable
from playground.ui.common.i18n import t
from playground.ui.common.widgets import provenance

EMB_ROWS = ("token", "segment", "position", "summed", "normed")


# --- input embeddings ---


def embeddings_view(run: EmbeddingsRun, lang: str) -> tuple[Any, str]:
    rows = [(t(f"inside.emb.row.{name}", lang), getattr(run, name)) for name in EMB_ROWS]
    fig = embeddings_figure(run.tokens, run.token_type_ids, rows, t("inside.emb.dims", lang))
    ok = run.max_abs_diff <= run.tolerance
    b = sum(run.token_type_ids)
    lines = [
        t("inside.emb.check_ok" if ok else "inside.emb.check_bad", lang, diff=run.max_abs_diff, tol=run.tolerance),
        t("inside.emb.summary", lang, n=len(run.tokens), d=run.normed.shape[1], a=len(run.tokens) - b, b=b),
        segment_note(run, lang),
        provenance(run.model_id, run.device, lang),
    ]
    return fig, "\n\n".join(line for line in lines if line)


def segment_note(run: EmbeddingsRun, lang: str) -> str:
    """When every token of a pair gets one segment (a one-row table, or a tokenizer without segment ids): what BERT's
    second segment adds ("" for a model that reads two)."""
    if not run.single_segment:
        return ""
    key = "inside.emb.one_segment" if run.segment_types < 2 else "inside.emb.unused_segment"
    model = escape_md(model_id_in(run.model_id, lang))
    return t(key, lang, model=model, rows=run.segment_types, sep=escape_md(run.separator or "[SEP]"))


# --- ALBERT's savings ---


def _model_label(m, lang: str) -> str:
    if m.key != "what-if":
        return m.label
    shared = {"all": "inside.params.shared", "attention": "inside.params.shared.attention", "ffn": "inside.params.shared.ffn"}
    key = shared.get(m.sizes.sharing) if m.sizes.L > 1 else None
    return t("inside.params.what_if", lang, base=m.label.split(" →")[0], E=m.sizes.E, shared=t(key, lang) if key else "")


def paper_text(m, lang: str) -> str:
    """The papers' figures for a model, with their sources ("" when no paper prints one)."""
    return "; ".join(t("inside.params.paper", lang, m=n, source=t(f"inside.params.source.{src}", lang)) for n, src in m.paper)


def params_view(run: ParamsRun, lang: str) -> tuple[Any, str, list[str], list[list[Any]]]:
    labels = [_model_label(m, lang) for m in run.models]
    part_labels = [t(f"inside.params.part.{p}", lang) for p in run.parts]
    fig = params_figure(
        labels,
        run.parts,
        part_labels,
        [[m.parts[p] for p in run.parts] for m in run.models],
        [m.total for m in run.models],
        t("inside.params.axis", lang),
        t("inside.params.total", lang),
    )
    w = run.models[-1]
    s = w.sizes
    by_key = {m.key: m for m in run.models}
    base = by_key[run.request.base]
    per_layer = (s.H * s.H + s.H) * 4 + 2 * s.H * s.F + s.F + s.H + 4 * s.H  # attention + FFN + their two layer norms
    formula_total = sum(w.formula.values())
    proj = (
        t("inside.params.projection", lang, proj=w.formula["projection"])
        if w.formula["projection"]
        else t("inside.params.no_projection", lang, hf_only=w.hf_only or s.H * s.H + s.H)
    )
    reading = t(
        "inside.params.reading",
        lang,
        what_if=escape_md(labels[-1]),
        tok_now=w.formula["token_embeddings"],
        V=s.V,
        E=s.E,
        proj=proj,
        tok_bert=s.V * s.H,
        layers_now=w.formula["attention"] + w.formula["feed_forward"] + w.formula["layer_norms"] - 2 * s.E,
        A=s.attention_sets,
        F=s.ffn_sets,
        per_layer=per_layer,
        L=s.L,
        total=formula_total,
        built=w.total,
        agree=t("inside.params.agree" if formula_total == w.total else "inside.params.disagree", lang),
        ratio=w.total / base.total,
        base=base.label,
        base_total=base.total,
    )
    papers = t(
        "inside.params.papers",
        lang,
        bert=by_key["bert-base"].total / 1e6,
        bert_np=by_key["bert-base"].without_pooler / 1e6,
        xl=by_key["albert-xlarge"].total / 1e6,
        xxl=by_key["albert-xxlarge"].total / 1e6,
        electra=by_key["electra-small"].total / 1e6,
    )
    headers = (  # the papers' figures beside the name and the counts, before the parts (a wide table scrolls)
        [t(f"inside.params.col_{c}", lang) for c in ("model", "paper", "total", "no_pooler")]
        + part_labels
        + [t("inside.params.col_formula", lang)]
    )
    rows = [
        [label, paper_text(m, lang), m.total, m.without_pooler] + [m.parts[p] for p in run.parts] + [sum(m.formula.values())]
        for label, m in zip(labels, run.models)
    ]
    return fig, "\n\n".join([reading, papers, t("inside.params.built", lang)]), headers, rows


# --- next-sentence prediction ---


def _case(case: str, lang: str) -> str:
    return t(f"inside.nsp.case.{case}", lang)


def _row(label: str, a: Any, b: Any) -> str:
    return f"\n| {label} | {escape_md(a.text)} | {escape_md(b.text)} |"


def nsp_view(run: NspRun, lang: str) -> tuple[str, Any, Any, str]:
    """(the model's verdict or why there is none, layout figure, probes figure or None, the builders' Markdown)."""
    if run.probes:
        first, rest = run.probes[0], run.probes[1:]
        others = "; ".join(t("inside.nsp.probe_other", lang, case=_case(p.case, lang), p=p.p_is_next) for p in rest)
        top = t("inside.nsp.probes", lang, model=escape_md(model_id_in(run.model_id, lang)), p_true=first.p_is_next, rest=others)
        top += trained_note(run, lang)
        top += "\n\n" + provenance(run.model_id, run.device, lang)
        probes = probes_figure(
            [_case(p.case, lang) for p in run.probes],
            [p.p_is_next for p in run.probes],
            t("inside.nsp.is_next", lang),
            t("inside.nsp.not_next", lang),
            t("inside.nsp.prob", lang),
        )
    else:
        # the reason in the user's language, for the model that would read this text (BERT's for English, e5-nsp's
        # for Chinese), when one is registered
        known = [spec for spec in specs_of_kind("nsp") if spec.speaks(run.language)]
        reason = why_unavailable(known[0], lang) if known else escape_md(run.unavailable)
        top, probes = t("inside.nsp.offline", lang, reason=escape_md(reason)), None
    top += layout_unknown_note(run, lang)
    template = run.layout.template or "[CLS] A [SEP] B [SEP]"
    layout = layout_figure(
        run.layout.tokens,
        run.layout.segment_ids,
        t("inside.nsp.segment", lang),
        t("inside.nsp.layout_title", lang, tokenizer=run.tokenizer_id, template=template),
    )
    sep = escape_md(run.sep_token)
    n_next = sum(p.is_next for p in run.pairs)
    label_col = t("inside.nsp.col_label", lang)
    note = "inside.nsp.layout_note" if run.layout.segments_given else "inside.nsp.layout_one_segment"
    md = [
        t(note, lang, tokenizer=escape_md(run.tokenizer_id), sep=sep),
        chinese_layout_note(run, lang),
        f"#### {t('inside.nsp.pairs_title', lang, seed=run.request.seed)}",
        t("inside.nsp.pairs_count", lang, n=len(run.pairs), next=n_next, random=len(run.pairs) - n_next),
        f"| {label_col} | A | B |\n|---|---|---|",
    ]
    md[-1] += "".join(
        _row(t("inside.nsp.label_next" if p.is_next else "inside.nsp.label_random", lang), p.a, p.b) for p in run.pairs
    )
    md.append(f"#### {t('inside.nsp.packed_title', lang, budget=run.request.budget)}")
    for i, chunk in enumerate(run.packed, start=1):
        pieces = " · ".join(f"**{sep}**" if d < 0 else escape_md(text) for text, d in zip(chunk.pieces, chunk.docs))
        over = t("inside.nsp.over_budget", lang) if chunk.over_budget else ""
        md.append(f"- {t('inside.nsp.packed_row', lang, i=i, n=chunk.n_tokens)}{over}: {pieces}")
    md.append(t("inside.nsp.packed_note", lang, sep=f"**{sep}**", tokenizer=escape_md(run.tokenizer_id)))
    md.append(f"#### {t('inside.nsp.sop_title', lang)}")
    md.append(f"| {label_col} | 1 | 2 |\n|---|---|---|")
    md[-1] += "".join(
        _row(t("inside.nsp.sop_pos" if p.in_order else "inside.nsp.sop_neg", lang), p.first, p.second) for p in run.sop
    )
    md.append(t("inside.nsp.sop_note", lang))
    return top, layout, probes, "\n\n".join(part for part in md if part)


def trained_note(run: NspRun, lang: str) -> str:
    """Beside the scores of a head trained here: that it is not BERT's, on what it was trained, what it measured."""
    head = run.trained_here
    if head is None:
        return ""
    return "\n\n" + t(
        "inside.nsp.trained_here",
        lang,
        acc=head.accuracy,
        n=head.pairs,
        other=head.other_accuracy,
        m=head.other_pairs,
    )


def chinese_layout_note(run: NspRun, lang: str) -> str:
    """Why the layout is not BERT's own for Chinese text: what BERT's tokenizer makes of the same pair ("" if English)."""
    unk, total = run.bert_unknown
    if not total:
        return ""
    bert = get_spec(LAYOUT_TOKENIZER).hf_id
    return t("inside.nsp.layout_chinese", lang, tokenizer=escape_md(run.tokenizer_id), bert=escape_md(bert), unk=unk, total=total)


def layout_unknown_note(run: NspRun, lang: str) -> str:
    """A prominent warning when the layout's tokenizer replaced part of the pair by its unknown token ("" if not)."""
    texts = run.layout.unknown_texts
    if not texts:
        return ""
    shown = ("、" if lang == "zh" else ", ").join(dict.fromkeys(texts))
    unk = next(tok for tok, u in zip(run.layout.tokens, run.layout.unknown) if u)
    tokenizer = escape_md(run.tokenizer_id)
    return "\n\n" + t("inside.nsp.unknown", lang, tokenizer=tokenizer, n=len(texts), texts=escape_md(shown), unk=escape_md(unk))


# --- fine-tuning heads ---


def _shape(head: TaskHead) -> str:
    return " + ".join("×".join(map(str, p.shape)) for p in head.head if p.name.endswith("weight"))


def _feeds(head: TaskHead, lang: str) -> str:
    key = head.feeds + ("_pooler" if head.feeds == "first" and head.uses_pooler else "")
    return t(f"inside.heads.feeds.{key}", lang)


def _box(head: TaskHead, lang: str) -> str:
    shape = _shape(head)
    if head.feeds == "first":
        return t("inside.heads.box_pooler" if head.uses_pooler else "inside.heads.box_first", lang, shape=shape)
    return t(f"inside.heads.box_{head.feeds}", lang, shape=shape)


def heads_view(run: HeadsRun, lang: str) -> tuple[Any, str, list[str], list[list[Any]]]:
    panels = [
        dict(
            title=f"{t(f'inside.heads.task.{h.task}', lang)} · {h.model_class}",
            tokens=h.tokens,
            segments=h.segments,
            feeds=h.feeds,
            head=_box(h, lang),
            outputs=t(f"inside.heads.out_{h.feeds}", lang, n=h.num_labels),
        )
        for h in run.heads
    ]
    fig = head_figure(panels, t("inside.heads.hidden", lang, h=run.hidden_size))
    counts = [h.new_params for h in run.heads]
    base = run.heads[0].base_total
    reading = t(
        "inside.heads.reading",
        lang,
        label=escape_md(run.label),
        hf_id=escape_md(run.config_from),
        h=run.hidden_size,
        base=base,
        low=min(counts),
        high=max(counts),
        share=max(counts) / base,
    )
    headers = [t(f"inside.heads.col_{c}", lang) for c in ("task", "class", "feeds", "shapes", "new", "base")]
    rows = [
        [
            t(f"inside.heads.task.{h.task}", lang),
            h.model_class,
            _feeds(h, lang),
            ", ".join(f"{p.name} {tuple(p.shape)}" for p in h.head),
            h.new_params,
            h.base_total,
        ]
        for h in run.heads
    ]
    return fig, reading + "\n\n" + t("inside.heads.words_note", lang), headers, rows


def as_json(run: Any) -> dict:
    return jsonable(run)


# --- each view's outputs, by name (playground.ui.inside.tab builds the components in this order) ---


def _shown(value: Any) -> Any:
    return gr.update(value=value, visible=value is not None)


def _table(headers: list[str], rows: list[list[Any]]) -> Any:
    return gr.update(value=rows, headers=headers, visible=True)


def _embeddings(run: Any, lang: str) -> dict[str, Any]:
    fig, md = embeddings_view(run, lang)
    return {"embeddings_plot": _shown(fig), "embeddings_info": md}


def _params(run: Any, lang: str) -> dict[str, Any]:
    fig, md, headers, rows = params_view(run, lang)
    return {"params_plot": _shown(fig), "params_info": md, "params_table": _table(headers, rows)}


def _nsp(run: Any, lang: str) -> dict[str, Any]:
    top, layout, probes, md = nsp_view(run, lang)
    return {"nsp_top": top, "nsp_layout": _shown(layout), "nsp_probes": _shown(probes), "nsp_info": md}


def _heads(run: Any, lang: str) -> dict[str, Any]:
    fig, md, headers, rows = heads_view(run, lang)
    return {"heads_plot": _shown(fig), "heads_info": md, "heads_table": _table(headers, rows)}


# view -> (its result drawn as {output name: update}, its result components' names)
DRAW = {
    "embeddings": (_embeddings, ("embeddings_plot", "embeddings_info")),
    "params": (_params, ("params_plot", "params_info", "params_table")),
    "nsp": (_nsp, ("nsp_top", "nsp_layout", "nsp_probes", "nsp_info")),
    "heads": (_heads, ("heads_plot", "heads_info", "heads_table")),
}


def outputs(view: str, run: Any, lang: str) -> dict[str, Any]:
    """One view's components drawn from its result, its hint hidden."""
    return DRAW[view][0](run, lang) | {f"{view}_hint": gr.update(visible=False)}


# The heads table: task, class, what feeds the head, shapes, new parameters, base parameters, each cell wrapped in its
# width. In pixels, not shares: the six fit the 1,214-pixel content box of a 1,440-pixel screen, and on a phone the
# table scrolls sideways rather than squeezing "109482240" into one digit per line.
TABLE_WIDTHS = {"heads_table": ["170px", "200px", "230px", "250px", "100px", "110px"]}
DESKTOP_BOX = 1214  # the page's content width at 1,440 pixels (measured in Chromium)


def component(name: str) -> Any:
    """A result component by its name's ending (elem_id inside-<view>-<part>, "emb" for embeddings: the browser tests')."""
    elem_id = "inside-" + name.replace("embeddings", "emb").replace("_", "-")
    if name.endswith(("_plot", "_layout", "_probes")):
        return gr.Plot(show_label=False, visible=False, elem_id=elem_id)
    if name.endswith("_table"):
        widths = TABLE_WIDTHS.get(name)  # without, the heads table's last three columns were cut off at 1440 px
        return gr.Dataframe(interactive=False, visible=False, wrap=True, elem_id=elem_id, column_widths=widths)
    return gr.Markdown(elem_id=elem_id)


def figure_of(view: str, run: Any, lang: str) -> Any:
    """The view's figure (for its download), or None."""
    shown = DRAW[view][0](run, lang).get(f"{view}_plot")
    return shown.get("value") if isinstance(shown, dict) else None
