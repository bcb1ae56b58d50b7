"""The probes view: its figure, reading and table follow the result (a synthetic one, built here), in both languages,
with names escaped; the tab's row runs the backend entry; the endpoint returns the shipped curves as JSON."""

from __future__ import annotations

import html

import pytest

from playground.probes import ProbeResult, TaskCurve, read
from playground.ui.insight import probes_view
from playground.ui.insight.views import BY_KEY

NAMES = ("char CNN", "biLSTM 1", "biLSTM 2")


def _curve(task: str, acc, control, alone=0.5, n=500) -> TaskCurve:
    return TaskCurve(task, tuple(acc), tuple(control), tuple(a - c for a, c in zip(acc, control)), alone, 0.3, 1000, n,
                     4, 80, "fixed", "word_type", "test")  # fmt: skip


def _result(label: str = "ELMo small", names=NAMES) -> ProbeResult:
    pos = _curve("pos", [0.80, 0.97, 0.90], [0.70, 0.80, 0.60])
    sense = _curve("sense", [0.40, 0.52, 0.71], [0.40, 0.45, 0.45])
    return ProbeResult("elmo-small", "x/elmo", label, "en", (0, 1, 2), names, pos, sense,
                       read("elmo-small", "en", pos, sense, names), 0, "probe", 3.0, 1.0, "licence")  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_figure_draws_each_label_beside_its_control_per_layer(lang):
    fig = probes_view.figure(_result(), lang)
    lines = [tr for tr in fig.data if tr.type == "scatter" and len(set(tr.y)) > 1]
    assert len(lines) == 4  # pos, pos control, sense, sense control
    assert [list(tr.y) for tr in lines[:2]] == [[80.0, 97.0, 90.0], [70.0, 80.0, 60.0]]
    bars = [tr for tr in fig.data if tr.type == "bar"]
    assert [round(v, 6) for v in bars[1].y] == [0.0, 7.0, 26.0]  # sense selectivity, in points
    assert list(lines[0].x) == list(NAMES)
    alone = [tr for tr in fig.data if tr.type == "scatter" and len(set(tr.y)) == 1]
    assert alone and alone[0].y[0] == 50.0


def test_figure_and_table_escape_names():
    evil = _result("<img src=x onerror=alert(1)>", ("<b>0</b>", "1", "2"))
    fig = probes_view.figure(evil, "en")
    assert "<img" not in fig.layout.title.text and "&lt;img" in fig.layout.title.text
    assert "<b>" not in str(fig.data[0].x)
    table = probes_view.detail(evil, "en")
    assert "<b>0</b>" not in table and html.escape("<b>0</b>") in table
    assert "<img" not in probes_view.reading(evil, "en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reading_says_what_the_numbers_say(lang):
    text = probes_view.reading(_result(), lang)
    assert "97.0" in text and "71.0" in text  # the best layers' accuracies
    assert "97.3" in text and "69.0" in text  # the paper's numbers beside ours
    holds = {"en": "holds here", "zh": "在这里成立"}[lang]
    assert holds in text
    flipped = _result()
    flipped = ProbeResult(**{**flipped.__dict__, "readings": read("elmo-small", "en", flipped.sense, flipped.pos, NAMES)})
    assert holds not in probes_view.reading(flipped, lang)


def test_table_has_one_row_per_layer():
    table = probes_view.detail(_result(), "zh")
    assert table.count("<tr>") == 1 + len(NAMES) and "+26.0" in table


def test_the_tab_row_runs_the_shipped_probes():
    from playground.runtime import Runtime

    view = BY_KEY["probes"]
    result = view.run({"probe_model": "minilm", "probe_lang": "en"}, Runtime())
    assert result.model == "minilm" and not view.reads_text and view.kinds == ()
    assert view.code({"probe_model": "minilm", "probe_lang": "en"}) == ("insight_probes", {"model": "minilm", "data": "en"})


def test_the_endpoint_returns_the_result_as_json():
    import json

    from playground.ui.insight.api import insight_probes_api

    out = insight_probes_api("e5-small", "zh")
    json.dumps(out)
    assert out["model"] == "e5-small" and out["lang"] == "zh" and out["sense"]["split"] == "leave-one-out"
    assert any(r["code"] == "few" for r in out["readings"])
