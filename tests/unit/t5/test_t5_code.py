"""The Code panel's script for the text-to-text view, executed on a tiny random T5 (saved in hub layout, the hub id
swapped for its folder): its tokens and cross-attention rows are the view's, greedy and sampled."""

from __future__ import annotations

import ast
import contextlib
import io
import re

import numpy as np
import pytest

from playground import t5
from playground.code import code_for
from playground.errors import InputError
from playground.registry import get_spec
from playground.runtime import Runtime
from playground.t5.code import code, request

TEXT = 'translate English to German: the bank of the "river" {x}'


def _run(script: str) -> list[tuple[int, list[float]]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(script, "t5.py", "exec"), {"__name__": "__main__"})  # noqa: S102 (our own generated script)
    ids = [int(i) for i in re.findall(r"^step \d+: .* \(id (\d+)\)", out.getvalue(), re.M)]
    rows = [ast.literal_eval(r) for r in re.findall(r"^  cross-attention: (\[.*\])$", out.getvalue(), re.M)]
    return list(zip(ids, rows))


@pytest.mark.parametrize("settings", [dict(), dict(temperature=1.0, top_k=5, seed=3), dict(temperature=0.7, top_p=0.9, seed=11)])
def test_the_script_prints_what_the_view_shows(tiny_t5, tmp_path, settings):
    tiny_t5.model.save_pretrained(tmp_path)
    tiny_t5.tokenizer.save_pretrained(tmp_path)
    params = dict(text=TEXT, model="t5-small", max_new_tokens=8, **settings)
    script = code_for("text_to_text", params).code
    hub_id = get_spec("t5-small").hf_id
    assert f'"{hub_id}"' in script and "output_attentions=True" in script
    printed = _run(script.replace(f'"{hub_id}"', repr(str(tmp_path))))
    view = t5.run_text_to_text(t5.TextToTextRequest(**params), Runtime(load=lambda key, **_: tiny_t5))
    assert [i for i, _ in printed] == list(view.output_ids)
    for (_, row), step in zip(printed, view.steps):
        assert np.allclose(row, step.cross.mean(axis=(0, 1)), atol=2e-4)  # the script rounds to 4 decimals


def test_the_script_is_python_with_both_languages_and_refuses_what_the_view_refuses():
    script = code(request({"text": "translate Chinese to English: 我喜欢吃米饭。", "model": "t5-classroom"}))
    ast.parse(script.code)
    assert script.runs_offline and "AutoModelForSeq2SeqLM" in script.code and "交叉注意力" in script.code
    assert "'translate Chinese to English: 我喜欢吃米饭。'" in script.code
    assert not code_for("text_to_text", {"text": "x", "model": "flan-t5-small"}).runs_offline
    refusals = [({"text": "x", "model": "gpt2"}, "input_model_kind"), ({"text": "x", "head": 1}, "code_request_fields")]
    for params, wording in refusals:
        with pytest.raises(InputError) as refused:
            code_for("text_to_text", params)
        assert refused.value.code == wording
