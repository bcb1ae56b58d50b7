"""The live class's board: a `Board` -> HTML in the reader's language, every student's and teacher's text escaped here.

The same HTML is the Class tab's board (refreshed by a timer) and the projector page's (/class/board, refreshed by
its script): one renderer, one place where text becomes markup. The QR code is drawn here too, as SVG, by segno
(nothing leaves the server); so is "our sentences"' picture (inline SVG: the board's HTML is replaced on every
refresh, where a plotly figure would need its script re-run), in the polysemy figures' sense colours; and the fill-
the-blank word cloud (HTML: font size by count).
"""

from __future__ import annotations

import html
import io
import math

import numpy as np
import segno

from playground.classroom import Board, Reveal
from playground.classroom.activities import MATCH_SHOWN
from playground.figures.common import PALETTE
from playground.figures.polysemy import coincident
from playground.ui.common.i18n import t
from playground.ui.common.widgets import label_in

MAX_NICKNAMES = 80  # shown on the board; the count says how many joined
MAX_BARS = 12  # answers drawn per histogram, most common first
MAX_CLOUD = 40  # words in the word cloud, most common first
CLOUD_EM = (0.9, 3.0)  # the least and the most common word's size (em): 0.9 em stays readable on a 390 px phone
PLOT_W, PLOT_H, PLOT_PAD = 400, 280, 22  # one side of the picture, in SVG units (it scales to its column)
WAITING = "#6366f1"  # every point before the reveal: the students' senses are their answers, hidden until then
MAX_LISTED = 60  # sentences listed under the picture after the reveal

CSS = """
.tpc-board{font-size:1.15rem;line-height:1.4;color:inherit}
.tpc-join{display:flex;gap:1.2em;align-items:center;flex-wrap:wrap}
.tpc-qr svg{width:16em;height:16em;background:#fff;border-radius:6px}
.tpc-code{font:700 3.4em ui-monospace,monospace;letter-spacing:.12em}
.tpc-url{font-family:ui-monospace,monospace;word-break:break-all}
.tpc-q{margin:.8em 0;padding:.6em .8em;border-left:5px solid #6366f1;background:rgba(99,102,241,.08)}
.tpc-prompt{font-size:1.5em;font-weight:600}
.tpc-focus{background:#fde68a;color:#111;border-radius:4px;padding:0 .15em}
.tpc-items{margin:.4em 0 0 0;padding-left:1.4em}
.tpc-count{font-size:1.6em;font-weight:700;margin:.4em 0}
.tpc-cols{display:flex;gap:2em;flex-wrap:wrap}
.tpc-col{flex:1 1 18em;min-width:0}
.tpc-bar{display:flex;align-items:center;gap:.5em;margin:.2em 0}
.tpc-bar span{white-space:nowrap}
.tpc-bar span:first-child{flex:0 0 9em;overflow:hidden;text-overflow:ellipsis}
.tpc-bar i{display:block;height:1.1em;background:#6366f1;border-radius:3px;min-width:2px}
.tpc-model i{background:#f59e0b}
.tpc-names{opacity:.85;font-size:.95em;overflow-wrap:anywhere}
.tpc-note{opacity:.8}
.tpc-cloud{display:flex;flex-wrap:wrap;align-items:baseline;gap:.1em .6em;line-height:1.15}
.tpc-cloud span{overflow-wrap:anywhere;max-width:100%;font-weight:600;color:#4338ca}
.tpc-pic{display:flex;gap:1.2em;flex-wrap:wrap;margin:.6em 0}
.tpc-side{flex:1 1 20em;min-width:0;max-width:34em}
.tpc-side h4{margin:.2em 0;font-size:1em}
.tpc-side svg{width:100%;height:auto;border:1px solid rgba(128,128,128,.35);border-radius:6px;background:#fff}
.tpc-key{display:flex;flex-wrap:wrap;gap:.3em 1em;margin:.3em 0}
.tpc-dot{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.3em;vertical-align:-.05em}
.tpc-list{columns:2 22em;font-size:.9em;margin:.4em 0;padding-left:1.6em;overflow-wrap:anywhere}
"""


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def qr_svg(url: str) -> str:
    """The join link as an inline SVG QR code (segno; error correction M, survives a projector's blur); a viewBox and
    no fixed size, so the board's CSS sizes it."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True, omitsize=True, dark="#000", light="#fff"
    )
    return out.getvalue().decode("utf-8")


def prompt_html(question: dict, lang: str) -> str:
    """The question as everyone reads it (no model answer)."""
    kind, prompt = question["kind"], esc(question["prompt"])
    if kind == "attention":
        focus = esc(question.get("focus", ""))
        if focus and focus in prompt:
            prompt = prompt.replace(focus, f'<mark class="tpc-focus">{focus}</mark>', 1)
        ask = t("class.prompt.attention", lang, layer=question["layer"], head=question["head"], focus=focus)
    elif kind == "sentences":  # the word, big; the senses to pick from
        ask = esc(t("class.prompt.sentences", lang, word=question["prompt"]))
        senses = " · ".join(esc(c) for c in question.get("choices", []))
        prompt = f'{prompt} <span class="tpc-note">({esc(t("class.senses", lang))} {senses})</span>'
    else:
        ask = esc(t(f"class.prompt.{kind}", lang))
    items = ""
    if question.get("items"):
        rows = "".join(
            f"<li><b>{esc(t('class.text_n', lang, n=i + 1))}</b>: …{esc(x)}</li>" for i, x in enumerate(question["items"])
        )
        items = f'<ol class="tpc-items">{rows}</ol>'
    return f'<div class="tpc-q"><div>{ask}</div><div class="tpc-prompt">{prompt}</div>{items}</div>'


def _bars(rows: list[tuple[str, float]], label: str, css: str, percent: bool) -> str:
    top = max((v for _, v in rows), default=0) or 1
    bars = "".join(
        f'<div class="tpc-bar"><span title="{esc(a)}">{esc(a)}</span><i style="width:{60 * v / top:.1f}%"></i>'
        f"<span>{f'{100 * v:.0f} %' if percent else int(v)}</span></div>"
        for a, v in rows[:MAX_BARS]
    )
    return f'<div class="tpc-col {css}"><h3>{esc(label)}</h3>{bars}</div>'


def cloud_html(rows: list[tuple[str, int]], lang: str) -> str:
    """The class's words as a cloud: each word once, its size by its count (square root: an area reads as the
    count), most common first; every word escaped."""
    top = max((n for _, n in rows), default=0) or 1
    low, high = CLOUD_EM
    words = "".join(
        f'<span style="font-size:{low + (high - low) * math.sqrt(n / top):.2f}em" title="{esc(a)}: {n}">{esc(a)}</span>'
        for a, n in rows[:MAX_CLOUD]
    )
    return f'<div class="tpc-col"><h3>{esc(t("class.cloud", lang))}</h3><div class="tpc-cloud">{words}</div></div>'


def sense_colour(index: int) -> str:
    """A sense's colour: the polysemy figures' palette, in the teacher's order of senses."""
    return PALETTE[index % len(PALETTE)]


def _percent(value: float) -> str:
    return "–" if math.isnan(value) else f"{100 * value:.0f} %"


def _ring(n: int) -> float:
    """Sentences at one place (the static side: one vector per word) sit on a small ring around it, so each one's
    colour shows (the note says they are one point): its radius for n of them."""
    return min(40.0, max(10.0, 2.6 * n))


def _side_svg(picture, side, revealed: bool, lang: str) -> str:
    """One side of the picture as SVG: a dot per sentence (its sentence as the dot's tooltip), dots at one place
    counted in a note ("5 sentences, one point": the static side's one vector per word)."""
    coords = side.coords
    groups = coincident(coords) if len(coords) else []
    ring = {k: (g, j) for g in groups for j, k in enumerate(g)}
    pad = PLOT_PAD + max((_ring(len(g)) for g in groups), default=0.0)  # a ring at an edge stays inside the box
    lo, hi = (coords.min(axis=0), coords.max(axis=0)) if len(coords) else (np.zeros(2), np.zeros(2))
    mid, spans = (lo + hi) / 2, hi - lo
    # one scale on both axes (distances stay honest), the larger spread filling its side of the box
    scale = min((PLOT_W - 2 * pad) / max(float(spans[0]), 1e-9), (PLOT_H - 2 * pad) / max(float(spans[1]), 1e-9))

    def place(x: float, y: float) -> tuple[float, float]:
        if max(spans) <= 1e-6:  # every point at one place (the static side): the middle
            return PLOT_W / 2, PLOT_H / 2
        return PLOT_W / 2 + (x - mid[0]) * scale, PLOT_H / 2 - (y - mid[1]) * scale

    dots = []
    for k, (x, y) in enumerate(coords[:, :2] if len(coords) else []):
        cx, cy = place(float(x), float(y))
        if k in ring:
            group, j = ring[k]
            radius = _ring(len(group))
            cx += radius * math.cos(2 * math.pi * j / len(group))
            cy += radius * math.sin(2 * math.pi * j / len(group))
        colour = sense_colour(picture.labels[k]) if revealed else WAITING
        dots.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="8" fill="{colour}" fill-opacity=".85" stroke="#fff" '
            f'stroke-width="1.5"><title>{esc(picture.sentences[k])}</title></circle>'
        )
    notes = []
    for group in groups:
        cx, cy = place(*map(float, coords[group[0], :2]))
        radius = _ring(len(group))
        # below its ring (above it near the bottom), centred, kept inside the box: a side note ran off it
        y = cy + radius + 24 if cy + radius + 24 < PLOT_H - 6 else cy - radius - 14
        notes.append(
            f'<text x="{min(max(cx, 95.0), PLOT_W - 95.0):.1f}" y="{y:.1f}" text-anchor="middle" font-size="15" '
            'fill="#333">'
            f"{esc(t('class.one_point', lang, n=len(group)))}</text>"
        )
    label = (
        t("class.side_contextual", lang, model=label_in(picture.model_label, lang), layer=side.layer)
        if side.source == "contextual"
        else t("class.side_static", lang, model=label_in(picture.model_label, lang))
    )
    score = ""
    if revealed:
        score = f'<div class="tpc-note">{esc(t("class.nearest", lang, share=_percent(side.nn_accuracy)))}</div>'
    svg = (
        f'<svg viewBox="0 0 {PLOT_W} {PLOT_H}" role="img" aria-label="{esc(label)}" '
        f'xmlns="http://www.w3.org/2000/svg">{"".join(dots)}{"".join(notes)}</svg>'
    )
    return f'<div class="tpc-side" data-source="{side.source}"><h4>{esc(label)}</h4>{svg}{score}</div>'


def picture_html(board: Board, lang: str) -> str:
    """ "Our sentences": both sides of the picture; after the reveal, the senses' colours and the sentences listed."""
    picture, revealed = board.picture, board.reveal is not None
    sides = "".join(_side_svg(picture, side, revealed, lang) for side in picture.sides)
    parts = [f'<div class="tpc-pic" id="tpc-picture" data-points="{len(picture.sentences)}">{sides}</div>']
    if picture.unplaced:
        parts.append(f'<p class="tpc-note">{esc(t("class.unplaced", lang, n=picture.unplaced))}</p>')
    if revealed:
        key = "".join(
            f'<span><i class="tpc-dot" style="background:{sense_colour(i)}"></i>{esc(sense)}</span>'
            for i, sense in enumerate(picture.senses)
        )
        listed = "".join(
            f'<li><i class="tpc-dot" style="background:{sense_colour(label)}"></i>{esc(sentence)}</li>'
            for sentence, label in list(zip(picture.sentences, picture.labels))[:MAX_LISTED]
        )
        parts.insert(0, f'<div class="tpc-key">{key}</div>')
        parts.append(f'<ol class="tpc-list">{listed}</ol>')
    else:
        parts.append(f'<p class="tpc-note">{esc(t("class.colours_hidden", lang))}</p>')
    return "".join(parts)


def _sentences_model(board: Board, lang: str) -> str:
    """The model's side of an "our sentences" reveal: how often a sentence's nearest sentence (the polysemy demo's
    leave-one-out score) has the sense its student gave, in context and in the static rows."""
    picture = board.picture
    model = t("class.the_model", lang, model=label_in(board.question.get("model_label", ""), lang))
    if picture is None:
        return f'<div class="tpc-col tpc-model"><h3>{esc(model)}</h3></div>'
    names = {"contextual": t("class.in_context", lang), "input": t("class.static", lang)}
    rows = [(names[side.source], side.nn_accuracy) for side in picture.sides]
    if any(math.isnan(v) for _, v in rows):
        return (
            f'<div class="tpc-col tpc-model"><h3>{esc(model)}</h3><p class="tpc-note">'
            f"{esc(t('class.nearest_needs', lang))}</p></div>"
        )
    return _bars(rows, f"{model} · {t('class.nearest_short', lang)}", "tpc-model", True)


def reveal_html(board: Board, reveal: Reveal, lang: str) -> str:
    cols = []
    names = (t("class.first_vote", lang), t("class.second_vote", lang))
    for r, rows in enumerate(reveal.rounds):
        label = t("class.the_class", lang) + (f" · {names[r]}" if len(reveal.rounds) > 1 else "")
        cols.append(
            _bars(list(rows), label, "tpc-class", False)
            if rows
            else f"<div class='tpc-col'>{esc(t('class.no_answers', lang))}</div>"
        )
    if board.question.get("form") == "word" and reveal.rounds[-1]:
        cols.append(cloud_html(list(reveal.rounds[-1]), lang))
    model = t("class.the_model", lang, model=label_in(board.question.get("model_label", ""), lang))
    if board.question.get("form") == "sense":
        cols.append(_sentences_model(board, lang))
        text = f'<p class="tpc-note">{esc(t("class.hidden_n", lang, n=reveal.hidden))}</p>' if reveal.hidden else ""
        return f'<div class="tpc-cols">{"".join(cols)}</div>{text}'
    if board.question["kind"] == "temperature":
        items = [
            (f"{t('class.text_n', lang, n=i + 1)} → {label}", 1.0) for i, label in enumerate(reveal.reference.split(MATCH_SHOWN))
        ]
        truth = "".join(f"<div>{esc(text)}</div>" for text, _ in items)
        cols.append(f'<div class="tpc-col tpc-model"><h3>{esc(model)}</h3>{truth}</div>')
    else:
        cols.append(_bars(list(reveal.model_top), model, "tpc-model", True))
    key = "class.correct" if board.question["kind"] == "temperature" else "class.agree"
    notes = [t(key, lang, agree=reveal.agree[-1], total=reveal.totals[-1], answer=reveal.reference)]
    if reveal.hidden:
        notes.append(t("class.hidden_n", lang, n=reveal.hidden))
    text = "".join(f'<p class="tpc-note">{esc(n)}</p>' for n in notes)
    return f'<div class="tpc-cols">{"".join(cols)}</div>{text}'


def board_html(board: Board, lang: str, join_url: str) -> str:
    """The board: join code, QR and link; the question; the count, or after the reveal the class beside the model."""
    join = (
        f'<div class="tpc-join"><div class="tpc-qr" title="{esc(t("class.scan", lang))}">{qr_svg(join_url)}</div>'
        f'<div><div>{esc(t("class.code", lang))}</div><div class="tpc-code" id="tpc-code">{esc(board.code)}</div>'
        f'<div>{esc(t("class.join_at", lang))} <span class="tpc-url">{esc(join_url)}</span></div></div></div>'
    )
    head = esc(t("class.question_n", lang, n=board.index + 1, total=board.total))
    count = esc(t("class.answered", lang, answered=board.answered, students=board.students))
    parts = [
        join,
        f"<div>{head}</div>",
        prompt_html(board.question, lang),
        f'<div class="tpc-count" id="tpc-count">{count}</div>',
    ]
    if board.round:
        parts.append(f'<p class="tpc-note">{esc(t("class.round2", lang))}</p>')
    if board.picture is not None:
        parts.append(picture_html(board, lang))
    if board.reveal is None:
        parts.append(f'<p class="tpc-note">{esc(t("class.hidden_until", lang))}</p>')
    else:
        parts.append(f'<div id="tpc-reveal">{reveal_html(board, board.reveal, lang)}</div>')
    if board.nicknames:
        shown = ", ".join(esc(n) for n in board.nicknames[:MAX_NICKNAMES])
        more = " …" if len(board.nicknames) > MAX_NICKNAMES else ""
        parts.append(f'<p class="tpc-names">{esc(t("class.joined", lang))} {shown}{more}</p>')
    return f'<div class="tpc-board" data-phase="{esc(board.phase)}">{"".join(parts)}</div>'
