"""The shipped curves: assets/probes/probes.json (written by scripts/probes.py) <-> ProbeResult."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from playground.probes.compute import DATA
from playground.probes.readings import read
from playground.probes.results import ProbeResult, TaskCurve
from playground.serialize import jsonable

STORED = DATA / "probes.json"


def to_json(results: list[ProbeResult]) -> dict:
    return {"results": [jsonable(r) for r in results]}


def from_json(raw: dict) -> ProbeResult:
    def curve(c: dict) -> TaskCurve:
        return TaskCurve(**{k: tuple(v) if isinstance(v, list) else v for k, v in c.items()})

    pos, sense, names = curve(raw["pos"]), curve(raw["sense"]), tuple(raw["layer_names"])
    # the readings are read again from the curves: a reading worded or judged anew applies to the shipped numbers
    readings = read(raw["model"], raw["lang"], pos, sense, names)
    return ProbeResult(
        **{**raw, "layers": tuple(raw["layers"]), "layer_names": names, "pos": pos, "sense": sense, "readings": readings}
    )


@functools.cache
def stored(path: Path = STORED) -> dict[tuple[str, str], ProbeResult]:
    """(model, lang) -> the shipped result, read once per process."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {(r["model"], r["lang"]): from_json(r) for r in raw["results"]}
