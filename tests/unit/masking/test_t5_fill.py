"""T5 span corruption with a real T5's sentinels: the encoder-decoder answers the corrupted sentence, and each
sentinel shows the span dropped beside what the model wrote for it (a tiny random T5; no hub)."""

from __future__ import annotations

import torch

from playground.masking.objectives import run_masking
from playground.masking.results import MaskingRequest
from playground.runtime import Runtime

TEXT = "she deposited the money in the bank of the river near the old mill"


def test_a_t5_fills_each_sentinel_of_its_own_vocabulary(tiny_t5):
    loads = []
    runtime = Runtime(load=lambda key, **_: loads.append(key) or tiny_t5, load_tokenizer=lambda key: tiny_t5.tokenizer)
    run = run_masking(MaskingRequest(TEXT, "t5-small", "t5", seed=2), runtime)
    d = run.details
    assert d["sentinels_real"] and loads == ["t5-small"]
    fills = d["filled"]
    assert [f["sentinel"] for f in fills] == d["sentinels"][: d["spans"]] and len(fills) == d["spans"] >= 1
    # the originals are the spans the draw dropped, in order: the target lists them after their sentinels
    dropped = [tok for tok, action in zip(run.tokens, run.actions) if action == "sentinel"]
    assert "".join(f["original"].replace(" ", "") for f in fills) == "".join(dropped).replace("▁", "")
    # what each sentinel got is the model's own greedy answer to the corrupted ids, split at its sentinels
    tok = tiny_t5.tokenizer
    ids = tok.convert_tokens_to_ids(run.corrupted)
    with torch.no_grad():
        out = tiny_t5.model.generate(input_ids=torch.tensor([ids]), max_new_tokens=4 * len(ids) + 8, do_sample=False)[0]
    written = tok.decode(out, skip_special_tokens=False)
    for f in fills:
        if f["filled"]:
            assert f["filled"].split()[0] in written


def test_a_model_without_sentinels_loads_nothing_and_fills_nothing(tiny_mlm):
    loads = []
    runtime = Runtime(load=lambda key, **_: loads.append(key) or tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer)
    run = run_masking(MaskingRequest(TEXT, "bert", "t5", seed=2), runtime)
    assert loads == [] and "filled" not in run.details and not run.details["sentinels_real"]


def test_the_masking_view_shows_the_fills_as_text(tiny_t5):
    from playground.ui.masking import render

    runtime = Runtime(load=lambda key, **_: tiny_t5, load_tokenizer=lambda key: tiny_t5.tokenizer)
    run = run_masking(MaskingRequest(TEXT, "t5-small", "t5", seed=2), runtime)
    for lang, words in (("en", "writes for each sentinel"), ("zh", "每个哨兵")):
        lines = [line for line in render._t5(run, lang) if words in line]
        assert len(lines) == 1 and r"<code>&lt;extra\_id\_0&gt;</code>" in lines[0]  # escaped: shown, never a tag
        assert "<extra_id_0>" not in lines[0]
