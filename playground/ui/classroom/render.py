"""The live class's board: a `Board` -> HTML in the reader's language, every student's and teacher's text escaped here.

The same HTML is the Class tab's board (refreshed by a timer) and the projector page's (/class/board, refreshed by
its script): one renderer, one place where text becomes markup. The QR code is drawn here too, as SVG, by segno
(nothing leaves the server).
"""

from __future__ import annotations

import html
import io

import segno

from playground.classroom import Board, Reveal
from playground.classroom.activities import MATCH_SHOWN
from playground.ui.common.i18n import t
from playground.ui.common.widgets import label_in

MAX_NICKNAMES = 80  # shown on the board; the count says how many joined
MAX_BARS = 12  # answers drawn per histogram, most common first

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
    model = t("class.the_model", lang, model=label_in(board.question.get("model_label", ""), lang))
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
    if board.reveal is None:
        parts.append(f'<p class="tpc-note">{esc(t("class.hidden_until", lang))}</p>')
    else:
        parts.append(f'<div id="tpc-reveal">{reveal_html(board, board.reveal, lang)}</div>')
    if board.nicknames:
        shown = ", ".join(esc(n) for n in board.nicknames[:MAX_NICKNAMES])
        more = " …" if len(board.nicknames) > MAX_NICKNAMES else ""
        parts.append(f'<p class="tpc-names">{esc(t("class.joined", lang))} {shown}{more}</p>')
    return f'<div class="tpc-board" data-phase="{esc(board.phase)}">{"".join(parts)}</div>'
