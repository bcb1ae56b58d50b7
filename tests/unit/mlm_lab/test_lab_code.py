"""The lab's /code view: the Trainer script of the exact run, from the same settings the lab trains with."""

import json

import pytest

from playground.errors import InputError
from playground.mlm_lab.code import SAMPLE_FILE
from playground.mlm_lab.training import LabSettings, trainer_options
from playground.code import code_for


def test_the_script_carries_the_runs_settings_corpus_file_and_trainer_options():
    request = {"base": "minilm-mlm", "max_steps": 7, "seed": 42, "learning_rate": 3e-5, "corpus_file": "notes.txt"}
    snippet = code_for("mlm_lab", json.dumps(request))
    code = snippet.code
    compile(code, "train_mlm.py", "exec")
    assert snippet.runs_offline and 'load("minilm-mlm")' in code and "hub id: " in code  # bundled, hub id named
    assert f"corpus_file = {'notes.txt'!r}" in code and "seed = 42" in code
    options = trainer_options(LabSettings(base="minilm-mlm", max_steps=7, seed=42, learning_rate=3e-5))
    for name, value in options.items():
        assert f"    {name}={'seed' if name == 'seed' else repr(value)}," in code  # the lab's own table, nothing else
    assert "Trainer(model=model" in code and "DataCollatorForLanguageModeling(" in code
    assert "return_offsets_mapping" not in code  # token masking needs no offsets


def test_the_sample_and_whole_word_masking_change_the_script():
    code = code_for("mlm_lab", '{"use_sample": true, "whole_word": true}').code
    assert f"corpus_file = str(PLAYGROUND / {SAMPLE_FILE!r})" in code and "whole_word_mask=True" in code
    assert 'return_offsets_mapping=True, padding="longest"' in code


@pytest.mark.parametrize(
    "request_json, code",
    [
        ('{"max_steps": 601}', "input_not_whole"),
        ('{"base": "gpt2"}', "input_model_kind"),
        ('{"steps": 3}', "code_request_fields"),
        ('{"use_sample": "yes"}', "input_not_flag"),
    ],
)
def test_bad_parameters_are_refused_in_words(request_json, code):
    with pytest.raises(InputError) as caught:
        code_for("mlm_lab", request_json)
    assert caught.value.code == code
