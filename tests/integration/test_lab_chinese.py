"""The MLM lab on its Chinese sample (the GIMP manual, text e5-mlm never trained on), with e5-mlm, offline."""

from playground.mlm_lab import corpus
from playground.mlm_lab.lab import LabRequest, run_mlm_lab
from playground.mlm_lab.training import LabSettings
from playground.runtime import Runtime


def test_a_few_steps_of_e5_mlm_on_the_gimp_manual_lower_held_out_loss_with_chinese_domain_words_probed():
    """A short budget (CI); docs/models-chinese.md states what a run measured."""
    settings = LabSettings(base="e5-mlm", max_steps=5, max_seconds=300, learning_rate=1e-4, seed=0)
    result, tuned = run_mlm_lab(LabRequest(corpus.sample_corpus("gimp-zh"), settings), Runtime())
    assert result.steps > 0 and tuned is not None
    assert result.after.loss < result.before.loss, (result.before, result.after)
    rows = [(r.word, r.probe, r.before.rank, r.after.rank) for r in result.domain]
    assert any(r[3] < r[2] for r in rows), rows
    assert len(rows) >= 6 and all(corpus.is_chinese(w) for w, *_ in rows), rows
    assert all(p.count("[MASK]") == 1 and w[:-1] + "[MASK]" in p for w, p, *_ in rows), rows  # the last character hidden
