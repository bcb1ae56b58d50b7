"""playground.capture: stable stage names from the architectures table, hooks that leave no trace, and replacement
(the knock-out that head_mask cannot do: transformers 5.23 ignores head_mask for most families)."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from playground.architectures import KINDS, T5_DECODER, block_kind, stage_names
from playground.capture import capture, knock_out_heads, points
from playground.errors import InputError

MODELS = ["tiny_mlm", "tiny_encoder", "tiny_clm", "tiny_llama"]
TEXT = "the bank of the river"


def _run(lm, names=None, replace=None):
    enc = lm.tokenizer(TEXT, return_tensors="pt")
    with torch.inference_mode(), capture(lm.model, names, replace) as cache:
        out = lm.model(**enc, output_hidden_states=True)
    return cache, out


@pytest.mark.parametrize("name", MODELS)
def test_every_stage_of_the_table_is_captured_in_forward_order(name, request):
    lm = request.getfixturevalue(name)
    kind = block_kind(lm.model)
    cache, out = _run(lm)
    expected = [n for n in stage_names(kind, lm.model.config.num_hidden_layers) if n in points(lm.model)]
    assert list(cache) == expected
    assert {"blocks.1.attn.pattern", "blocks.1.attn.concat", "blocks.1.attn.out", "blocks.1.resid_mid", "blocks.1.ln1",
            "blocks.1.mlp.pre_act", "blocks.1.mlp.post_act", "blocks.1.mlp.out", "blocks.1.resid_post"} <= set(cache)  # fmt: skip
    layers, heads = lm.model.config.num_hidden_layers, lm.model.config.num_attention_heads
    assert cache["blocks.0.attn.pattern"].shape == (1, heads, len(out.hidden_states[0][0]), len(out.hidden_states[0][0]))
    for i in range(layers - 1):  # each block reads what the one before wrote
        assert torch.equal(cache[f"blocks.{i + 1}.resid_pre"], cache[f"blocks.{i}.resid_post"])
    for i in range(layers):  # hidden_states[i] is what block i reads (the last one may be after the final norm)
        assert torch.equal(cache[f"blocks.{i}.resid_pre"], out.hidden_states[i].float())
    if "logits" in cache:
        assert torch.equal(cache["logits"], out.logits.float())


def _hooks(model) -> int:
    """Hooks on the model (transformers installs its own output-recording ones on a first pass: they stay)."""
    return sum(len(m._forward_hooks) + len(m._forward_pre_hooks) for m in model.modules())


def test_patterns_ask_for_only_what_a_view_needs_and_the_hooks_leave(tiny_llama):
    _run(tiny_llama, [])
    before = _hooks(tiny_llama.model)
    cache, _ = _run(tiny_llama, ["blocks.*.resid_post", "logits"])
    assert list(cache) == ["blocks.0.resid_post", "blocks.1.resid_post", "logits"]
    assert _hooks(tiny_llama.model) == before


def test_the_hooks_go_also_when_the_pass_raises(tiny_clm):
    before = _hooks(tiny_clm.model)
    with pytest.raises(RuntimeError), capture(tiny_clm.model) as cache:
        assert _hooks(tiny_clm.model) > before
        raise RuntimeError("boom")
    assert _hooks(tiny_clm.model) == before and cache == {}


@pytest.mark.parametrize("name", MODELS)
def test_knocking_out_every_head_changes_the_output_and_none_changes_nothing(name, request):
    lm = request.getfixturevalue(name)
    plain, out = _run(lm)
    config = lm.model.config
    every = [(layer, head) for layer in range(config.num_hidden_layers) for head in range(config.num_attention_heads)]
    last = f"blocks.{config.num_hidden_layers - 1}.resid_post"
    silenced, _ = _run(lm, [last, "blocks.0.attn.concat"], knock_out_heads(lm.model, every))
    none, _ = _run(lm, [last], knock_out_heads(lm.model, []))
    assert torch.equal(none[last], plain[last])
    assert not torch.allclose(silenced[last], plain[last], atol=1e-3)
    assert torch.count_nonzero(silenced["blocks.0.attn.concat"]) == 0  # what W^O received
    one, _ = _run(lm, ["blocks.1.attn.concat"], knock_out_heads(lm.model, [(1, 2)]))
    d = one["blocks.1.attn.concat"].shape[-1] // config.num_attention_heads
    kept = torch.cat([one["blocks.1.attn.concat"][..., : 2 * d], one["blocks.1.attn.concat"][..., 3 * d :]], -1)
    assert torch.count_nonzero(one["blocks.1.attn.concat"][..., 2 * d : 3 * d]) == 0 and torch.count_nonzero(kept) > 0


def test_replacing_one_third_of_gpt2s_fused_projection_touches_only_that_third(tiny_clm):
    plain, _ = _run(tiny_clm, ["blocks.0.attn.*"])
    patched, _ = _run(tiny_clm, ["blocks.0.attn.*"], {"blocks.0.attn.v": torch.zeros_like})
    assert torch.equal(patched["blocks.0.attn.q"], plain["blocks.0.attn.q"])
    assert torch.count_nonzero(patched["blocks.0.attn.v"]) == 0
    assert torch.count_nonzero(patched["blocks.0.attn.concat"]) == 0  # weighted sums of zero values


def test_an_unknown_stage_or_architecture_is_refused_in_words(tiny_roberta, tiny_mlm):
    with pytest.raises(ValueError, match="no stage named"), capture(tiny_mlm.model, replace={"blocks.9.x": abs}):
        pass
    with pytest.raises(InputError) as refused:
        block_kind(tiny_roberta.model, "tiny RoBERTa")
    assert refused.value.code == "forward_unknown_architecture"
    assert "tiny RoBERTa" in str(refused.value) and "bert, gpt2, llama" in str(refused.value)


def test_the_t5_decoder_row_has_its_three_sublayers_in_order():
    names = [s.name for s in T5_DECODER.block]
    assert names.index("attn.out") < names.index("cross.out") < names.index("mlp.out")
    assert KINDS["t5"] is T5_DECODER  # verified by hooks in tests/unit/forward/test_t5_block.py
    fields = {f.name for f in dataclasses.fields(T5_DECODER)}
    assert {"embed", "block", "final", "norm", "causal", "rope"} <= fields


@pytest.mark.parametrize("name", MODELS)
def test_patching_the_last_blocks_output_from_another_sentence_gives_that_sentences_output(name, request):
    """Activation patching through `replace`: the head reads only the last block's output, so patching it in from
    another sentence of the same length makes the whole output that sentence's."""
    lm = request.getfixturevalue(name)
    last = f"blocks.{lm.model.config.num_hidden_layers - 1}.resid_post"
    final = "logits" if "logits" in points(lm.model) else last
    a = lm.tokenizer(TEXT, return_tensors="pt")
    b = {**a, "input_ids": a["input_ids"].flip(-1)}  # another "sentence" of the same length: the tokens reversed
    with torch.inference_mode(), capture(lm.model, [last, final]) as theirs:
        lm.model(**b)
    with torch.inference_mode(), capture(lm.model, [final], {last: lambda x: theirs[last].to(x.dtype)}) as patched:
        lm.model(**a)
    torch.testing.assert_close(patched[final], theirs[final])


def _in_another_thread(fn):
    import threading

    box = {}
    worker = threading.Thread(target=lambda: box.update(value=fn()))
    worker.start()
    worker.join()
    return box["value"]


@pytest.mark.parametrize("name", ["tiny_mlm", "tiny_clm"])
def test_a_capture_acts_only_on_its_own_threads_pass(name, request):
    """The server shares one model object between requests running at once: while one request's knock-out hooks are
    on the model, another thread's pass must give the model's own output and leave nothing in the first one's record
    (in the full browser tier a knock-out beside a patching call changed the patching answer)."""
    lm = request.getfixturevalue(name)
    enc = lm.tokenizer(TEXT, return_tensors="pt")

    def plain():
        with torch.inference_mode():
            return lm.model(**enc).logits

    clean = plain()
    layers = lm.model.config.num_hidden_layers
    every_head = [(layer, head) for layer in range(layers) for head in range(lm.model.config.num_attention_heads)]
    with torch.inference_mode(), capture(lm.model, ["logits"], knock_out_heads(lm.model, every_head)) as cache:
        meanwhile = _in_another_thread(plain)  # another request, while this one's hooks are on the model
        knocked = lm.model(**enc).logits
    torch.testing.assert_close(meanwhile, clean)
    assert not torch.allclose(knocked, clean)  # the hooks did act on their own thread's pass
    assert cache["logits"].shape[0] == 1  # one pass recorded: this thread's


def test_the_attention_capture_takes_only_its_own_threads_layers(tiny_llama):
    """capture_layers' slots (the n-th call is layer n) must not gain another thread's pass run in the middle."""
    from playground.attention.maps import AttentionText
    from playground.attention.qkv import capture_layers

    enc = tiny_llama.tokenizer(TEXT, return_tensors="pt")
    alone = capture_layers(tiny_llama, AttentionText(TEXT))
    real, calls = tiny_llama.model.forward, []

    def forward_with_a_neighbour(*args, **kwargs):
        if not calls:  # the first pass: another request runs its own pass while this one's hooks are attached
            calls.append(1)
            with torch.inference_mode():
                _in_another_thread(lambda: real(**enc))
        return real(*args, **kwargs)

    tiny_llama.model.forward = forward_with_a_neighbour
    try:
        crowded = capture_layers(tiny_llama, AttentionText(TEXT))
    finally:
        del tiny_llama.model.forward
    assert calls and len(crowded) == len(alone)
    for a, b in zip(alone, crowded):
        assert a.q.shape == b.q.shape
        torch.testing.assert_close(torch.tensor(b.q), torch.tensor(a.q))
