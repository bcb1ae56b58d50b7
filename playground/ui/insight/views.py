"""The tab's views as table rows: one radio picks a row; the row says how the page's values become its backend
request, and how its result is drawn and read. A view is one row here (its backend, figure and strings beside).

A row's `run` gets the page's values (by field name) and the runtime; `figure`, `reading` and `detail` get the
result and the page's language. `fields`: the option fields the view reads (the others are hidden while it is
chosen). `code`: the Code panel's (view, parameters), None where the view has no script.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from playground.insight import (
    KINDS,
    AttributionRequest,
    KnockoutRequest,
    LensRequest,
    PatchRequest,
    run_attribution,
    run_knockout,
    run_lens,
    run_patching,
)
from playground.probes import ProbeRequest, run_probes
from playground.runtime import Runtime
from playground.ui.insight import probes_view, render


@dataclass(frozen=True)
class View:
    key: str  # the radio's value, the share link's `view`; its label is the string "insight.view.<key>"
    run: Callable[[Any, Runtime], Any]  # (page values, runtime) -> the backend's result
    figure: Callable[[Any, str], Any]  # (result, lang) -> plotly Figure
    reading: Callable[[Any, str], str]  # (result, lang) -> Markdown computed from the numbers
    detail: Callable[[Any, str], str] = lambda result, lang: ""  # (result, lang) -> HTML (a table, coloured tokens)
    fields: tuple[str, ...] = ()  # the option fields it reads
    code: Callable[[Any], tuple[str, dict] | None] = lambda f: None
    kinds: tuple[str, ...] = KINDS  # the model kinds its menu offers
    reads_text: bool = True  # whether it reads the sentence and the model menu (the probes read neither: fixed data)


VIEWS: tuple[View, ...] = (
    View(
        "lens",
        lambda f, rt: run_lens(LensRequest(f["model"], f["text"], f["top_k"]), rt),
        render.lens_figure, render.lens_reading, render.lens_detail,
        fields=("top_k",),
        code=lambda f: ("insight_lens", {"model": f["model"], "text": f["text"], "top_k": f["top_k"]}),
    ),
    View(
        "attribution",
        lambda f, rt: run_attribution(AttributionRequest(f["model"], f["text"], f["head_layer"], f["head"], f["steps"]), rt),
        render.attribution_figure, render.attribution_reading, render.attribution_detail,
        fields=("head_layer", "head", "steps"),
        code=lambda f: ("insight_attribution", {"model": f["model"], "text": f["text"], "layer": f["head_layer"],
                                                "head": f["head"], "steps": f["steps"]}),
    ),
    View(
        "knockout",
        lambda f, rt: run_knockout(KnockoutRequest(f["model"], f["text"], f["heads"], f["top_k"]), rt),
        render.knockout_figure, render.knockout_reading, render.knockout_detail,
        fields=("heads", "top_k"),
        code=lambda f: ("insight_knockout", {"model": f["model"], "text": f["text"], "heads": f["heads"]}),
    ),
    View(
        "patching",
        lambda f, rt: run_patching(PatchRequest(f["model"], f["text"], f["source"], f["patch_layer"], f["position"]), rt),
        render.patching_figure, render.patching_reading, render.patching_detail,
        fields=("source", "patch_layer", "position"),
        code=lambda f: ("insight_patching", {"model": f["model"], "text": f["text"], "source": f["source"],
                                             "layer": f["patch_layer"], "position": f["position"]}),
    ),
    View(
        "probes",
        lambda f, rt: run_probes(ProbeRequest(f["probe_model"], f["probe_lang"]), rt),
        probes_view.figure, probes_view.reading, probes_view.detail,
        fields=("probe_model", "probe_lang"),
        code=lambda f: ("insight_probes", {"model": f["probe_model"], "data": f["probe_lang"]}),
        kinds=(),
        reads_text=False,
    ),
)  # fmt: skip

BY_KEY = {v.key: v for v in VIEWS}


def menu_kinds() -> tuple[str, ...]:
    """Every kind some view takes, in order: the model menu offers these (a view refuses the others in words)."""
    return tuple(dict.fromkeys(k for v in VIEWS for k in v.kinds))
