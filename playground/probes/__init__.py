"""Probes that test the course's claim "low layers syntax, high layers semantics": per-layer linear probes for a
syntactic label (part of speech) and a semantic label (word sense), each with Hewitt & Liang's control task.

The one entry is `run_probes(ProbeRequest, runtime) -> ProbeResult`. It reads the curves that scripts/probes.py
computed on the fixed data (assets/probes/: data-en.json, data-zh.json, probes.json): fitting every probe takes
minutes on a CPU (bench/RESULTS.md), so a click reads them, and tests/integration/test_probes.py recomputes them
from the bundled models and gets the same numbers. One module per concern: results.py (request, result),
probe.py (probes, control task, baselines), features.py (vectors per layer), readings.py (what the curves say),
compute.py (the slow path), store.py (the shipped JSON), code.py (the take-home script).
"""

from __future__ import annotations

from typing import Any

from playground import checks
from playground.errors import InputError
from playground.probes.compute import PROBED, SEED, compute, load_data
from playground.probes.probe import control_labels, layer_curves, word_alone
from playground.probes.readings import first_best, noise, read
from playground.probes.results import TASKS, ProbeRequest, ProbeResult, Reading, TaskCurve
from playground.probes.store import stored

LANGS = ("en", "zh")
KINDS = ("elmo", "encoder")  # the kinds of the probed models (PROBED)


def check_request(request: ProbeRequest, runtime: Any) -> tuple[str, str]:
    """(model, lang) when both name shipped probes; a student-readable refusal otherwise."""
    lang = checks.choice(request.lang, "data", LANGS)
    spec = runtime.spec(request.model, "model", KINDS)  # unknown keys and other kinds refused in the checks' words
    if spec.key not in PROBED:
        raise InputError(
            "probes_not_shipped", "No probes are shipped for {model}; they are for: {models}.", model=spec.label,
            models=", ".join(PROBED),
        )  # fmt: skip
    model = spec.key
    if not spec.speaks(lang):
        raise InputError(
            LANGUAGE_ERRORS[lang],
            "{model} was not trained on %s text; those probes run on: {models}." % {"en": "English", "zh": "Chinese"}[lang],
            model=spec.label,
            models=", ".join(k for k in PROBED if runtime.spec(k).speaks(lang)),
        )
    return model, lang


LANGUAGE_ERRORS = {"en": "probes_not_english", "zh": "probes_not_chinese"}  # one code per data language: each says it


def run_probes(request: ProbeRequest, runtime: Any) -> ProbeResult:
    """The shipped probe curves of one model on one language (no model runs: scripts/probes.py made them)."""
    model, lang = check_request(request, runtime)
    shipped = stored()
    if (model, lang) not in shipped:  # a checkout whose probes.json lacks the pair (scripts/probes.py --only ...)
        raise InputError(
            "probes_not_computed", "The {lang} probes of {model} have not been computed here.", model=model, lang=lang
        )
    return shipped[model, lang]


__all__ = [
    "LANGS",
    "PROBED",
    "SEED",
    "TASKS",
    "ProbeRequest",
    "ProbeResult",
    "Reading",
    "TaskCurve",
    "check_request",
    "compute",
    "control_labels",
    "first_best",
    "layer_curves",
    "load_data",
    "noise",
    "read",
    "run_probes",
    "stored",
    "word_alone",
]
