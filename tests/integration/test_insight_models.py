"""Look inside a prediction on the bundled models: IG is complete within 1 % at the page's default 32 steps, patching
a Chinese GPT leaves the left untouched while MiniLM changes it, every head silenced changes the answer, and the lens
ends at the model's own prediction."""

from __future__ import annotations

import pytest

from playground.insight import (
    AttributionRequest,
    KnockoutRequest,
    LensRequest,
    PatchRequest,
    run_attribution,
    run_knockout,
    run_lens,
    run_patching,
)
from playground.runtime import Runtime

RUNTIME = Runtime()  # the bundled models through the one load path; caches of this module's own
CASES = {"minilm-mlm": ("The capital of France is [MASK].", "The capital of Italy is [MASK]."),
         "gpt-zh": ("我爱北京天安", "我爱上海天安")}  # fmt: skip


@pytest.mark.parametrize("key", CASES)
def test_integrated_gradients_is_complete_at_the_default_steps(key):
    r = run_attribution(AttributionRequest(key, CASES[key][0]), RUNTIME)
    assert r.steps == 32 and r.completeness < 0.01, (r.ig_sum, r.f_input - r.f_baseline)
    assert sum(r.attributable) >= 3


@pytest.mark.parametrize("key", CASES)
def test_patching_reaches_left_only_in_the_bidirectional_model(key):
    text, source = CASES[key]
    r = run_patching(PatchRequest(key, text, source, layer=1), RUNTIME)
    assert r.source_tokens[r.position] != r.tokens[r.position]
    left = r.logit_change[: r.position]
    if r.causal:
        assert max(left) <= 1e-5 and r.left_change == pytest.approx(0, abs=1e-6)
    else:
        assert min(left) > 1e-4 and r.left_change > 0.01
    assert r.right_change > 0.01


@pytest.mark.parametrize("key", CASES)
def test_every_head_silenced_changes_the_answer_and_the_lens_ends_at_it(key):
    lens = run_lens(LensRequest(key, CASES[key][0]), RUNTIME)
    assert lens.readouts[-1].answer_rank == 0 and lens.readouts[-1].tokens[0] == lens.answer
    every = run_knockout(KnockoutRequest(key, CASES[key][0], "*"), RUNTIME)
    assert every.answer == lens.answer and every.total_variation > 0.05
