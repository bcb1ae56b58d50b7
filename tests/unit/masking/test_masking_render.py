"""The masking renderer: one entry per objective, both languages, and downloads built only on request."""

import pytest

from playground.runtime import Runtime
from playground.masking import OBJECTIVES, MaskingRequest, run_masking
from playground.ui.common import widgets as common
from playground.ui.masking import render
from playground.ui.common.i18n import t

TEXT = "The unbelievable tokenizer splits words, really."


def _run(tiny_mlm, strategy, **fields):
    request = MaskingRequest(TEXT, "bert", strategy, generator="uniform", prefix_len=3, epochs=3, **fields)
    return run_masking(request, Runtime(load=lambda key: tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer))


def test_every_objective_has_a_view_and_a_why():
    assert set(render.VIEWS) == set(OBJECTIVES)


@pytest.mark.parametrize("strategy", list(OBJECTIVES))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_objective_renders_in_both_languages(tiny_mlm, strategy, lang):
    run = _run(tiny_mlm, strategy, draws=100)
    summary, grid, matrices, stats_md, stats_fig, data = render.render(run, lang)
    assert t("common.provenance", lang, model=run.model, device=run.device) in summary
    assert t(f"masking.why.{strategy}", lang) in summary
    assert grid.to_dict()["data"][0]["type"] == "heatmap"
    assert (matrices is not None) == (render.VIEWS[strategy].figure is not None)  # masks, or SpanBERT's SBO arcs
    if OBJECTIVES[strategy].stats:
        assert stats_md.startswith(t("masking.stats_head", lang)) and stats_fig is not None
    else:
        assert stats_md == t("masking.no_stats", lang) and stats_fig is None
    assert data["strategy"] == strategy and "request" not in data


def test_uniform_electra_says_so(tiny_mlm):
    summary = render.summary(_run(tiny_mlm, "electra"), "en")
    assert t("masking.note.uniform_generator", "en") in summary and t("masking.generator_used", "en", name="uniform") in summary


def test_repeated_runs_write_nothing_until_downloads_are_asked_for(tiny_mlm, tmp_path, monkeypatch):
    monkeypatch.setattr(common, "EXPORT_DIR", tmp_path / "exports")
    for seed in range(12):  # a run that wrote a file would show at once
        run = _run(tiny_mlm, "bert", seed=seed)
        for lang in ("en", "zh"):
            render.render(run, lang)
    assert not (tmp_path / "exports").exists()
    files = render.export_files(run, "en")
    assert [f.rsplit("/", 1)[-1] for f in files] == ["masking.json", "masking.csv", "masking.html"]
    assert render.export_files(None, "en") == []


def test_the_csv_export_reads_back_exactly(tiny_mlm):
    """Valid CSV whatever the tokens hold: quotes, commas, line breaks and Chinese read back as they are."""
    import csv
    import dataclasses
    import io

    from playground.masking.results import token_table_csv

    run = _run(tiny_mlm, "bert", seed=1)
    tricky = ['"hi"', "a,b", "line\nbreak", "银行", "[MASK]"]
    odd = dataclasses.replace(run, tokens=tricky, actions=["none"] * 5, labels=[-100, 7, -100, 3, -100])
    rows = list(csv.reader(io.StringIO(token_table_csv(odd))))
    assert rows[0] == ["position", "token", "action", "label"]
    assert [r[1] for r in rows[1:]] == tricky and [r[3] for r in rows[1:]] == ["-100", "7", "-100", "3", "-100"]
    assert len(list(csv.reader(io.StringIO(token_table_csv(run))))) == len(run.tokens) + 1
