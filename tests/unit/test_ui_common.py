"""How the UI turns backend refusals into messages: escaped, translated, one log line, no traceback."""

import logging

import gradio as gr
import pytest

from playground.errors import InputError
from playground.registry import get_spec
from playground.ui.common import friendly_errors, public_reason

PAYLOAD = '<svg><a href="javascript:alert(1)"><text x=5 y=20>open</text></a></svg>'


def test_a_refusal_is_escaped_logged_once_and_prints_no_traceback(caplog):
    caplog.set_level(logging.INFO, logger="playground")
    with pytest.raises(gr.Error) as err:
        with friendly_errors("en"):
            raise InputError("polysemy_not_found", "'{word}' occurs in none of the sentences.", word=PAYLOAD)
    assert "<svg" not in err.value.message and "&lt;svg" in err.value.message
    assert err.value.print_exception is False  # Gradio prints a traceback for every error unless told not to
    assert len([r for r in caplog.records if r.name == "playground"]) == 1


def test_codes_without_a_tab_text_fall_back_to_the_common_texts():
    with pytest.raises(gr.Error) as err:
        with friendly_errors("zh"):
            raise InputError("no_models", "Choose at least one model.")
    assert err.value.message == "请至少选择一个模型。"


def test_server_paths_never_reach_users():
    reason = public_reason(OSError("no file named model.safetensors in /root/.cache/transformer-playground/smollm2"))
    assert "/root" not in reason and "model.safetensors" in reason


def test_descriptive_model_names_are_translated_in_the_chinese_menus():
    from playground.ui.common import label_in, model_choices

    zh = dict((key, label) for label, key in model_choices(["masked", "elmo"], "zh"))
    en = dict((key, label) for label, key in model_choices(["masked", "elmo"], "en"))
    for key in ("minilm-mlm", "elmo-small"):
        assert "trained here" in en[key] and "trained here" not in zh[key] and "本项目训练" in zh[key], (en[key], zh[key])
        assert zh[key].count("内置") == 1  # the bundled mark once, translated
    assert label_in("BERT base (uncased)", "zh") == "BERT base (uncased)"  # proper names stay as they are
    assert label_in(get_spec("elmo-small").label, "zh") != get_spec("elmo-small").label
