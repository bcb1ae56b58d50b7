"""Text the app states about models (issue 19): how an operator makes a model available, model ids in the user's
language in chart titles."""

import re

import pytest

from playground import availability
from playground.ui.common import widgets
from playground.ui.common.strings import STRINGS


@pytest.mark.parametrize("code", ["offline", "unreachable", "not_installed", "url_offline", "url_unreachable", "no_overlay"])
def test_every_unavailability_reason_has_an_operator_instruction_in_both_languages(code, monkeypatch):
    monkeypatch.setattr(availability, "check", lambda spec: availability.Availability(False, "", "why", code))
    for lang in ("en", "zh"):
        note = widgets.unavailable_note(("masked",), lang)
        fix = STRINGS[f"avail.fix.{code}"][0 if lang == "en" else 1]
        assert fix in note and STRINGS["common.unavailable_fix"][0 if lang == "en" else 1] in note
        assert note.count(fix) == 1  # one instruction per reason, not one per model


def test_an_unknown_reason_still_says_where_to_look(monkeypatch):
    monkeypatch.setattr(availability, "check", lambda spec: availability.Availability(False, "", "why", ""))
    assert STRINGS["avail.fix.other"][0] in widgets.unavailable_note(("masked",), "en")


def test_model_ids_with_a_description_are_translated_for_charts():
    from playground.registry import get_spec

    hf_id = get_spec("minilm-mlm").hf_id
    assert "trained here" in widgets.model_id_in(hf_id, "en")
    zh = widgets.model_id_in(hf_id, "zh")
    assert "trained here" not in zh and "本项目训练" in zh
    assert widgets.model_id_in("google-bert/bert-base-uncased", "zh") == "google-bert/bert-base-uncased"  # an id stays


def test_a_sessions_lab_model_is_named_in_the_readers_language():
    """Its id titles the charts and tables of the fill-mask and attention tabs, its label their compare panels: a
    Chinese page said "minilm-mlm + your MLM lab fine-tune (3 steps)"."""
    from playground.registry import LAB_MODEL_ID, LAB_MODEL_LABEL, get_spec

    model_id = LAB_MODEL_ID.format(base="minilm-mlm", steps=3)
    label = LAB_MODEL_LABEL.format(base=get_spec("minilm-mlm").label, steps=3)
    assert widgets.model_id_in(model_id, "en") == model_id and widgets.label_in(label, "en") == label
    zh_id, zh_label = widgets.model_id_in(model_id, "zh"), widgets.label_in(label, "zh")
    assert zh_id == "minilm-mlm + 你的 MLM 实验室微调（3 步）"
    assert zh_label == "MiniLM + 本项目训练的 MLM 头 + 你的语料（3 步）"  # the base's label translated too
    assert widgets.model_id_in("me/my + your MLM lab fine-tune (x steps)", "zh").startswith("me/my + your")  # not made so


def test_fill_mask_chart_titles_are_chinese_for_the_bundled_masked_lm():
    from playground.fill_mask.data import Prediction, Reading
    from playground.registry import get_spec
    from playground.ui.fill_mask import render

    class Fill:
        model_id = get_spec("minilm-mlm").hf_id
        readings = [Reading("masked", "the [MASK] .", [[Prediction("cat", "cat", 7, 0.5)]], False)]

    class Run:
        fills = [Fill()]

    titles = [a["text"] for a in render.figure(Run(), "zh").to_dict()["layout"]["annotations"]]
    assert titles and not any("trained here" in title for title in titles)


def test_the_model_panel_and_the_unavailable_list_say_descriptive_names_in_chinese():
    from playground.ui.common.status import status_markdown

    english = status_markdown("en")
    assert "MLM head trained here" in english  # the bundled masked LMs are listed...
    assert "trained here" not in status_markdown("zh")  # ...and named in Chinese on a Chinese page


def test_every_model_name_translation_is_of_the_registrys_current_name():
    """A translation is found by its English text: a registry label or id changed without it would quietly show the
    English on a Chinese page (as 'multilingual-E5 small (4-bit, dequantized)' did, untranslated)."""
    from playground.registry import BUILTIN

    specs = {s.key: s for s in BUILTIN}
    for key, (en, zh) in STRINGS.items():
        if key.startswith("models."):
            model, _, what = key.removeprefix("models.").partition(".")
            assert en == (specs[model].hf_id if what == "id" else specs[model].label), key
            assert zh != en, key
    descriptive = [s for s in BUILTIN if re.search(r"trained here|bit|parameters", s.label)]
    assert all(f"models.{s.key}" in STRINGS for s in descriptive), [s.key for s in descriptive]
