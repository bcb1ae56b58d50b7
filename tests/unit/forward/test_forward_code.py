"""The take-home block: the generated script builds a block from scratch, copies one real layer's weights in and
reproduces that layer's output to 1e-5 of its scale, for every block kind (tiny models saved in hub layout, the hub
id in the script swapped for their folder, as tests/integration/test_code_snippets.py does)."""

from __future__ import annotations

import ast
import contextlib
import io
import re

import pytest

from playground.errors import InputError
from playground.forward.blocks import TEMPLATES
from playground.forward.code import BlockCodeRequest, block_code
from playground.registry import get_spec
from playground.code import code_for

HUB = {"bert": "tiny_mlm", "gpt2": "tiny_clm", "smollm2": "tiny_llama"}  # registry key -> tiny stand-in
TEXT = 'the bank of the river "x" {y}'


def _run(code: str) -> dict[str, float]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "block.py", "exec"), {"__name__": "__main__"})  # noqa: S102 (our own generated script)
    text = out.getvalue()
    return {
        "layer": int(re.search(r"^layer (\d+)", text, re.M).group(1)),
        "diff": float(re.search(r"max \|block\(x\) - layer\(x\)\| = (\S+)", text).group(1)),
        "scale": float(re.search(r"max \|layer\(x\)\| = (\S+)", text).group(1)),
    }


@pytest.mark.parametrize("key", HUB)
def test_the_block_from_scratch_reproduces_the_real_layer(key, request, tmp_path):
    lm = request.getfixturevalue(HUB[key])
    lm.model.save_pretrained(tmp_path)
    lm.tokenizer.save_pretrained(tmp_path)
    code = block_code(BlockCodeRequest(key, TEXT, layer=7)).code
    assert f'"{get_spec(key).hf_id}"' in code
    printed = _run(code.replace(f'"{get_spec(key).hf_id}"', repr(str(tmp_path))))
    assert printed["layer"] == lm.model.config.num_hidden_layers - 1  # layer 7 fitted to the 2-layer model
    assert 0 < printed["scale"] and printed["diff"] <= 1e-5 * max(1.0, printed["scale"])


def test_one_class_per_kind_with_a_comment_per_stage_and_w_o_as_h_dv_by_d_model():
    for kind, (template, params) in TEMPLATES.items():
        body = "\n".join(template)
        assert "W^O: (h·d_v) × d_model" in body and body.count("# ") >= 6, kind
        assert len(template) <= 45, kind  # a block a student reads in a sitting
        assert "W_o" in params
    code = block_code(BlockCodeRequest("minilm", "银行")).code
    assert "post-LN" in code and "LayerNorm(x + MultiHead(x))" in code and "'银行'" in code
    assert "pre-LN" in block_code(BlockCodeRequest("gpt2", "x")).code
    assert "RMSNorm" in block_code(BlockCodeRequest("smollm2-instruct", "x")).code
    ast.parse(code)


def test_the_code_view_refuses_what_the_block_table_does_not_know():
    with pytest.raises(InputError) as refused:
        code_for("forward_block", {"model": "roberta", "text": "x"})
    assert refused.value.code == "forward_unknown_architecture"
    with pytest.raises(InputError) as refused:
        code_for("forward_block", {"model": "minilm", "text": "x", "head": 2})
    assert refused.value.code == "code_request_fields"
    assert code_for("forward_block", {"model": "e5-small", "text": "x"}).runs_offline
