"""The whole forward pass on the bundled models: every stage equals its formula (1e-5 of its scale), the head's
logits are the model's own, the lens ends at the model's answer, Chinese reads on e5-small, and the take-home block
reproduces a real layer."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from playground.capture import points
from playground.forward import ForwardRequest, run_forward
from playground.forward.code import BlockCodeRequest, block_code
from playground.runtime import Runtime

RUNTIME = Runtime()  # the bundled models through the one load path; caches of this module's own
CASES = {
    "minilm-mlm": "The capital of France is [MASK].",
    "e5-small": "我爱自然语言处理，银行在河边。",
    "e5-mlm": "巴黎是法国的[MASK]都。",
    "smollm2-instruct": "The capital of France is",
}


@pytest.mark.parametrize("key", CASES)
def test_every_stage_of_a_real_model_equals_its_formula(key):
    r = run_forward(ForwardRequest(key, CASES[key], top_k=5), RUNTIME)
    lm = RUNTIME.model(key)
    assert r.stage_names == list(points(lm.model))  # every stage of the table, none left out
    worst = max(r.stages, key=lambda s: s.error / max(1.0, s.scale))
    assert worst.error <= 1e-5 * max(1.0, worst.scale), (worst.name, worst.error, worst.scale)
    if r.top is not None:
        assert r.logits_error == 0.0  # the captured logits are the model's own
        assert r.lens[-1].ids == r.top.ids and r.top.answer_rank == 0
        assert len(r.lens) == r.layers + 1


@pytest.mark.parametrize("key", ["minilm-mlm", "e5-small", "smollm2-instruct"])
def test_every_stage_equals_its_formula_recomputed_in_float64(key):
    """The app checks in float32; here every stage is recomputed in float64 from the captured inputs."""
    import torch

    from playground.architectures import block_kind
    from playground.capture import capture
    from playground.forward import formulas, passes

    lm = RUNTIME.model(key)
    encoded = passes.encode(lm, CASES[key])
    with torch.inference_mode(), capture(lm.model) as cache:
        lm.model(**passes.model_inputs(lm, encoded["ids"], encoded["segments"]))
    kind = block_kind(lm.model)
    ctx = formulas.context(lm.model, kind, torch.tensor(encoded["ids"]), torch.tensor(encoded["segments"]))
    checks = formulas.verify(lm.model, kind, points(lm.model), cache, ctx)
    worst = max(checks.items(), key=lambda kv: kv[1].relative)
    assert len(checks) == len(cache) and worst[1].relative <= 1e-5, worst


def test_smollm2_reads_paris_and_the_lens_shows_it_forming():
    r = run_forward(ForwardRequest("smollm2-instruct", CASES["smollm2-instruct"]), RUNTIME)
    assert r.top.tokens[0] == "ĠParis" and r.rope and r.kv_heads < r.heads
    ranks = [row.answer_rank for row in r.lens]
    assert ranks[0] > 100 and ranks[-1] == 0  # not in the embeddings, the answer at the top


def test_chinese_on_e5_small_reads_as_characters_without_unknown_tokens():
    r = run_forward(ForwardRequest("e5-small", CASES["e5-small"]), RUNTIME)
    lm = RUNTIME.model("e5-small")
    assert lm.tokenizer.unk_token not in r.tokens
    shown = "".join((d or t).replace("▁", "") for t, d, s in zip(r.tokens, r.display, r.special) if not s)
    assert "银行" in shown and "河" in shown
    assert r.lens == [] and r.block_kind == "post_ln"  # an encoder: stages and norms, no head


@pytest.mark.parametrize("key, layer", [("minilm-mlm", 3), ("e5-small", 11), ("smollm2-instruct", 29)])
def test_the_take_home_block_reproduces_a_real_layer(key, layer):
    code = block_code(BlockCodeRequest(key, CASES.get(key, "The cat sat on the mat."), layer)).code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{key}.py", "exec"), {"__name__": "__main__"})  # noqa: S102 (our own generated script)
    text = out.getvalue()
    diff = float(re.search(r"max \|block\(x\) - layer\(x\)\| = (\S+)", text).group(1))
    scale = float(re.search(r"max \|layer\(x\)\| = (\S+)", text).group(1))
    assert f"layer {layer} " in text and diff <= 1e-5 * max(1.0, scale), text
