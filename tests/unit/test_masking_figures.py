"""Masking figures and the tab's event, on tiny tokenizers (structure, not pixels)."""

from playground.masking import permutation as am
from playground.masking import bert as m
from playground.figures import masking as figs


def test_token_grid_has_one_row_per_row_and_legend_for_each_fate(tiny_mlm):
    r = m.dynamic_masking(tiny_mlm.tokenizer, "the cat sat on the mat today", seed=1, epochs=3, mlm_probability=0.5)
    fig = figs.token_grid_figure([r.tokens] * len(r.rows), r.rows, {}).to_dict()
    heat = fig["data"][0]
    assert heat["type"] == "heatmap" and len(heat["z"]) == 6 and len(heat["z"][0]) == len(r.tokens)
    fates = {a for _, row in r.rows for a in row}
    assert {d["name"] for d in fig["data"][1:]} == fates


def test_matrices_side_by_side(tiny_mlm):
    r = am.attention_families(tiny_mlm.tokenizer, "the cat sat", prefix_len=2)
    fig = figs.matrices_figure({k: r.details[k] for k in ("bidirectional", "causal", "prefix")}, r.tokens).to_dict()
    assert [d["type"] for d in fig["data"]] == ["heatmap"] * 3
    assert all(len(d["z"]) == len(r.tokens) for d in fig["data"])
