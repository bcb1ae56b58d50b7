"""A lesson as a Jupyter notebook (nbformat 4): its text and formula in Markdown, one code cell per try-it.

Each code cell is the /code script of the view the try-it opens, with the inputs it opens it with (the variant that
runs on this server), so the notebook prints what the lesson's button shows. `/lesson_notebook` returns the JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Callable

from playground import checks
from playground.code import code_for
from playground.elmo.views import DEFAULT_SENTENCES, DEFAULT_WORD
from playground.langs import normalize_lang
from playground.lessons import LESSONS, Lesson, Link
from playground.lessons.pages import formula, discuss_markdown, lesson_links, lesson_markdown, say

_MASKING = {"p": "mlm_probability", "pm": "mask_replace_prob", "pr": "random_replace_prob", "prefix": "prefix_len"}
_MASKING_KEPT = ("text", "model", "strategy", "seed", "epochs", "generator", *_MASKING.values())
_SAMPLING = ("prompt", "model", "temperature", "top_k", "top_p")


def _sampling(p: dict) -> tuple[str, dict]:
    base = {k: p[k] for k in _SAMPLING if k in p}
    show = p.get("show", "next")
    if show == "generate":
        return "generate", {**base, "max_new_tokens": p.get("max_new_tokens", 40), "n_samples": p.get("samples", 1),
                            "seed": p.get("seed", 0)}  # fmt: skip
    if show == "compare":
        temps = [p[k] for k in ("t1", "t2", "t3") if k in p] or [0.1, 0.8, 1.5]
        base.pop("temperature", None)
        return "compare", {**base, "temperatures": temps, "max_new_tokens": p.get("max_new_tokens", 40), "seed": p.get("seed", 0)}
    return "next_token", base


def _attention(p: dict) -> tuple[str, dict]:
    keep = {k: p[k] for k in ("model", "text", "text_b", "layer", "head", "query") if k in p}
    if p.get("view") == "compare" and p.get("other"):
        keep["other"] = p["other"]
    return f"attention_{p.get('view', 'head')}", keep


# A try-it's tab and share-link parameters -> the /code view and request (None: that view has no script yet).
TO_CODE: dict[str, Callable[[dict], tuple[str, dict] | None]] = {
    "fill_mask": lambda p: ("fill_mask", {k: p[k] for k in ("text", "models", "top_k") if k in p}),
    "polysemy": lambda p: ("polysemy", {k: v for k, v in p.items() if k != "example"}),
    "masking": lambda p: ("masking", {_MASKING.get(k, k): v for k, v in p.items() if _MASKING.get(k, k) in _MASKING_KEPT}),
    "sampling": _sampling,
    "attention": _attention,
    "inside": lambda p: _inside(p),
    "elmo": lambda p: _elmo(p),
    # The lab's link starts no training (the page waits for the student's corpus); its notebook cell is the Trainer
    # script on the bundled sample, 20 steps: the page's 80 stop at its 120 s cap, the script has no cap and 80
    # steps took ~6 min on a shared 2-core CPU (the student raises max_steps in the cell).
    "mlm_lab": lambda p: ("mlm_lab", {"use_sample": True, "max_steps": 20, **p}),
}

# Inside BERT's link parameters -> each view's endpoint parameters (the link's names are the tab's widgets').
_INSIDE = {
    "embeddings": {"text_a": "text_a", "text_b": "text_b", "model": "model"},
    "params": {"base": "base", "E": "embedding_size", "share": "share_layers"},
    "nsp": {"text": "text", "seed": "seed", "budget": "budget"},
    "heads": {"source": "source"},
}
# ELMo's link opens the mix view (the tab's default): /elmo_vectors's parameters.
_ELMO = ("model", "word", "sentences", "s0", "s1", "s2", "gamma")


def _inside(p: dict) -> tuple[str, dict]:
    view = p.get("view", "embeddings")
    names = _INSIDE.get(view, _INSIDE["embeddings"])
    return f"inside_{view if view in _INSIDE else 'embeddings'}", {names[k]: v for k, v in p.items() if k in names}


def _elmo(p: dict) -> tuple[str, dict]:
    return "elmo_vectors", {"word": DEFAULT_WORD, "sentences": DEFAULT_SENTENCES, **{k: p[k] for k in _ELMO if k in p}}


def code_of(link: Link) -> tuple[str, dict] | None:
    """The /code view and request behind a resolved try-it link, or None."""
    if not link.query or link.tab not in TO_CODE:
        return None
    return TO_CODE[link.tab](dict(link.params))


def _markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _code(text: str) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": text}


def notebook(lesson: Lesson, links: list[Link], lang: str) -> dict:
    """The lesson (or exercise) as an nbformat-4 notebook in `lang`."""
    cells = [_markdown(f"{lesson_markdown(lesson, lang)}\n\n{formula(lesson, lang)}"), _markdown(discuss_markdown(lesson, lang))]
    for link in links:
        cells.append(_markdown(f"### {say(link.label, lang)}" + (f"\n\n{say(link.note, lang)}" if link.note else "")))
        asked = code_of(link)
        if asked is None:
            key = "lessons.notebook_no_code" if link.query else link.note or "lessons.missing.models"
            cells.append(_markdown(f"*{say(key, lang)}*"))
            continue
        cells.append(_code(code_for(*asked).code))
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
            "transformer_playground": {"lesson": lesson.key, "lang": lang},
        },
        "cells": [{**cell, "id": f"cell-{i}"} for i, cell in enumerate(cells)],
    }


def find_lesson(key: Any) -> Lesson:
    """The lesson named `key` (empty: the first); anything else is refused in the checks' words."""
    if key in (None, ""):
        return LESSONS[0]
    key = checks.choice(key, "lesson", [lesson.key for lesson in LESSONS])
    return next(lesson for lesson in LESSONS if lesson.key == key)


def lesson_notebook(key: Any, lang: Any, tabs: Iterable[str]) -> dict:
    lesson = find_lesson(key)
    return notebook(lesson, lesson_links(tabs)[lesson.key], normalize_lang(lang if isinstance(lang, str) else "en"))


def notebook_text(key: str, lang: str, tabs: Iterable[str]) -> str:
    return json.dumps(lesson_notebook(key, lang, tabs), ensure_ascii=False, indent=1)
