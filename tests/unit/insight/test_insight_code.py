"""Each view's take-home script (plain transformers + hooks) runs and prints the view's own numbers, on tiny models
of every block kind saved in hub layout (the hub id in the script swapped for their folder, as the forward view's
code test does)."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pytest

from playground.code import code_for
from playground.errors import InputError
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
from playground.registry import get_spec
from playground.runtime import Runtime

HUB = {"bert": "tiny_mlm", "gpt2": "tiny_clm", "smollm2": "tiny_llama"}  # registry key (a hub model) -> tiny stand-in


@pytest.fixture
def saved(request, tmp_path):
    """key -> (the tiny model, a runtime serving it under that key, a function running a script on its folder)."""

    def make(key):
        lm = request.getfixturevalue(HUB[key])
        folder = tmp_path / key
        lm.model.save_pretrained(folder)
        lm.tokenizer.save_pretrained(folder)

        def run(view, params):
            code = code_for(view, {"model": key, **params}).code
            hub = f'"{get_spec(key).hf_id}"'
            assert hub in code
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code.replace(hub, repr(str(folder))), f"{view}.py", "exec"), {"__name__": "__main__"})  # noqa: S102
            return out.getvalue()

        return lm, Runtime(load=lambda k, **kw: lm), run

    return make


def _text(key: str) -> str:
    return "the bank of the [MASK] river" if key == "bert" else "the bank of the river"


@pytest.mark.parametrize("key", HUB)
def test_the_lens_script_prints_the_views_readout(key, saved):
    lm, runtime, run = saved(key)
    r = run_lens(LensRequest(key, _text(key), top_k=3), runtime)
    printed = run("insight_lens", {"text": _text(key), "top_k": 3})
    probs = [float(x) for x in re.findall(r"answer rank \d+ p=(\S+)", printed)]
    ranks = [int(x) for x in re.findall(r"answer rank (\d+)", printed)]
    assert ranks == [row.answer_rank for row in r.readouts]
    np.testing.assert_allclose(probs, [row.answer_prob for row in r.readouts], atol=2e-6)
    assert f"at position {r.position}" in printed


@pytest.mark.parametrize("key", HUB)
def test_the_attribution_script_prints_the_views_scores(key, saved):
    lm, runtime, run = saved(key)
    r = run_attribution(AttributionRequest(key, _text(key), layer=0, head=1, steps=20), runtime)
    printed = run("insight_attribution", {"text": _text(key), "layer": 0, "head": 1, "steps": 20})
    rows = re.findall(r"ig=(\S+) gxi=(\S+) head=(\S+) rollout=(\S+)", printed)
    got = np.array(rows, dtype=float).T
    np.testing.assert_allclose(got[0], r.ig, atol=1e-5)
    np.testing.assert_allclose(got[1], r.grad_input, atol=1e-5)
    np.testing.assert_allclose(got[2], r.attention, atol=1e-5)
    np.testing.assert_allclose(got[3], r.rollout, atol=1e-5)
    total = float(re.search(r"sum ig = (\S+);", printed).group(1))
    assert total == pytest.approx(r.ig_sum, abs=1e-5)


@pytest.mark.parametrize("key", HUB)
def test_the_knockout_script_prints_the_views_effects(key, saved):
    lm, runtime, run = saved(key)
    r = run_knockout(KnockoutRequest(key, _text(key), heads="0.1, 1"), runtime)
    printed = run("insight_knockout", {"text": _text(key), "heads": "0.1, 1"})
    after = float(re.search(r"heads silenced (\S+)", printed).group(1))
    assert after == pytest.approx(r.answer_after, abs=2e-6) and f"with {len(r.knocked)} heads" in printed
    deltas = {(int(a), int(b)): float(d) for a, b, d in re.findall(r"head (\d+)\.(\d+) delta=(\S+)", printed)}
    assert len(deltas) == r.layers * r.heads
    for (layer, head), delta in deltas.items():
        assert delta == pytest.approx(r.effects[layer, head], abs=2e-6)


@pytest.mark.parametrize("key", HUB)
def test_the_patching_script_prints_the_views_changes(key, saved):
    lm, runtime, run = saved(key)
    text = _text(key) + " is wide"
    source = text.replace("bank", "money")
    r = run_patching(PatchRequest(key, text, source, layer=1, position=-1), runtime)
    printed = run("insight_patching", {"text": text, "source": source, "layer": 1, "position": -1})
    changes = [float(x) for x in re.findall(r"change=(\S+)", printed)]
    np.testing.assert_allclose(changes, r.change, atol=2e-6)
    assert re.search(rf"^{r.position} .* patched", printed, re.M)


def test_the_scripts_refuse_what_the_views_refuse():
    with pytest.raises(InputError) as refused:
        code_for("insight_lens", {"model": "minilm", "text": "x"})
    assert refused.value.code == "input_model_kind"
    with pytest.raises(InputError) as unknown:
        code_for("insight_knockout", {"model": "roberta", "text": "x"})
    assert unknown.value.code == "forward_unknown_architecture"
    with pytest.raises(InputError) as heads:
        code_for("insight_knockout", {"model": "gpt2", "text": "x", "heads": "one"})
    assert heads.value.code == "insight_bad_heads"
    assert code_for("insight_patching", {"model": "minilm-mlm", "text": "x"}).runs_offline
