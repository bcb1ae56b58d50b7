"""The insight tab's table of views and its renderers: every row runs, draws and reads in both languages from the
result alone; tokens stay text (escaped); each row's Code panel names a /code view that exists."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from playground.code import views as code_views
from playground.runtime import Runtime
from playground.ui.common.form import Values
from playground.ui.common.strings import STRINGS
from playground.ui.insight import views

KEYS = {"minilm-mlm": "tiny_mlm", "gpt2": "tiny_clm"}


@pytest.fixture
def runtime(request):
    models = {key: request.getfixturevalue(name) for key, name in KEYS.items()}
    return Runtime(load=lambda key, **kw: models[key])


def _values(key: str, view: str, lang: str, text: str) -> Values:
    fields = {"model": key, "text": text, "view": view, "top_k": 3, "head_layer": -1, "head": 1, "steps": 8,
              "heads": "0.1, 1", "source": text.replace("bank", "river"), "patch_layer": 0, "position": -1,
              "probe_model": "minilm", "probe_lang": "en"}  # fmt: skip
    return Values(fields, lang)


@pytest.mark.parametrize("view", [v.key for v in views.VIEWS])
@pytest.mark.parametrize("key", KEYS)
def test_every_view_runs_draws_and_reads_in_both_languages(view, key, runtime):
    row = views.BY_KEY[view]
    text = "the bank <b>*of*</b> the [MASK] river" if key == "minilm-mlm" else "the bank <b>*of*</b> the river"
    for lang in ("en", "zh"):
        f = _values(key, view, lang, text)
        result = row.run(f, runtime)
        figure, reading, detail = row.figure(result, lang), row.reading(result, lang), row.detail(result, lang)
        assert isinstance(figure, go.Figure) and reading.strip()
        assert "<b>" not in reading and "<b>" not in detail  # tokens are text, never markup
        assert "{" not in reading  # every placeholder filled
        if lang == "zh":
            assert any("\u4e00" <= c <= "\u9fff" for c in reading)
        name, params = row.code(f)
        assert name in code_views()
        if row.reads_text:
            assert params["model"] == key and params["text"] == text
        else:  # the probes: fixed data, their own model menu
            assert params["model"] == f["probe_model"] and "text" not in params


def test_every_view_has_a_label_in_both_languages_and_its_fields_exist():
    fields = {"top_k", "head_layer", "head", "steps", "heads", "source", "patch_layer", "position", "probe_model", "probe_lang"}
    for row in views.VIEWS:
        assert all(STRINGS[f"insight.view.{row.key}"])
        assert set(row.fields) <= fields, row.key
    assert views.menu_kinds() == ("masked", "causal")


def test_the_attribution_reading_shows_the_completeness_sum(runtime):
    row = views.BY_KEY["attribution"]
    result = row.run(_values("gpt2", "attribution", "en", "the bank of the river"), runtime)
    reading = row.reading(result, "en")
    assert f"{result.ig_sum:.4f}" in reading and f"{result.f_input - result.f_baseline:.4f}" in reading
    assert f"{result.completeness:.2%}" in reading and "above 1 %" not in reading


def test_both_languages_fill_the_same_placeholders():
    import string

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for key, (en, zh) in STRINGS.items():
        if key.startswith(("insight.", "error.insight_")) and "%{" not in en:  # plotly's hover templates aside
            assert fields(en) == fields(zh), key
