"""ZeroGPU, emulated here: every model-bound entry runs in a forked worker with its arguments and result pickled.

On a ZeroGPU Space `spaces.GPU` forks a worker and pickles what crosses; nothing that cannot cross (a lock, an
open file, a generator, a CUDA tensor, a gr.State value that does not pickle) may be an argument or a result.
The emulation (playground.device) does the same on the CPU, so a wrong entry fails here, not in front of a class.
"""

import gc
import os
import pickle
import threading

import numpy as np
import pytest
import torch

from playground.runtime import Runtime
from playground import attention as att
from playground import device, models, sampling
from playground.attention.qkv import capture_layer
from playground.polysemy import PolysemyRequest, run_polysemy
from playground.errors import InputError
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.forward import ForwardRequest, run_forward
from playground import insight
from playground.inside import embeddings_input as emb
from playground.inside import nsp
from playground.masking import MaskingRequest, run_masking
from playground.masking import electra as me
from playground.sampling import generation
from playground.serialize import jsonable
from tests.unit.inside.test_inside import tiny_nsp

BANK = "I sat on the bank of the river.\nShe works at the bank downtown."


@pytest.fixture(autouse=True)
def own_entries(monkeypatch):
    """The entries a test declares (`@device.entry` on a local function) leave with it: left in the process-wide
    table, they were counted as the app's by whichever test ran after (by test order)."""
    monkeypatch.setattr(device, "ENTRIES", dict(device.ENTRIES))


@pytest.fixture
def emulated():
    device.install(None, emulated=True)
    yield
    device.install(None)


def scenarios(tiny_mlm, tiny_llama, tiny_encoder, tiny_glove, tiny_clm):
    """(name, call) for every entry: each call goes through the backend the way the tab does (tiny models)."""
    fill = {"bert": tiny_mlm, "gpt2": tiny_llama}
    poly = {"minilm": tiny_encoder, "glove": tiny_glove}
    causal = Runtime(load=lambda key: tiny_clm)  # no result caches: each call below computes (again, in the worker)
    nsp_lm = tiny_nsp()
    step = generation.StepRequest("the cat", "smollm2-instruct", 1.0, 0, 1.0, 5, 3)

    def three_steps():
        sampler, runs = None, []
        for _ in range(3):  # the sampler is the user's gr.State: it crosses out of a step and into the next
            sampler, run = generation.run_step(sampler, step, causal)
            runs.append(run)
        return runs

    return [
        (
            "fill-mask",
            lambda: run_fill_mask(FillMaskRequest("the river [MASK] was muddy .", ("bert", "gpt2"), 3), Runtime(load=fill.get)),
        ),
        (
            "attention",
            lambda: att.attention_maps("minilm", "the cat sat on the mat", "", Runtime(load=lambda key: tiny_encoder))[1],
        ),
        ("attention step", lambda: capture_layer(tiny_llama, att.AttentionText("the cat sat"), 0)),
        (
            "embeddings",
            lambda: emb.run_embeddings(emb.EmbeddingsRequest("the cat", "", "minilm"), Runtime(load=lambda key: tiny_encoder)),
        ),
        ("nsp", lambda: nsp.nsp_probabilities(nsp_lm, [("the cat sat", "it was tired")])),
        ("polysemy", lambda: run_polysemy(PolysemyRequest("bank", BANK, ("minilm", "glove")), Runtime(load=poly.get))),
        (
            "electra masked",
            lambda: run_masking(
                MaskingRequest("the cat sat on the mat", "bert", "electra", generator="masked:electra-generator", seed=2),
                Runtime(load=lambda key: tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer),
            ),
        ),
        ("electra causal", lambda: me.electra_causal(tiny_clm.tokenizer, tiny_clm, "the cat sat on the mat", 2, 0.5)),
        ("discriminator", lambda: me.discriminator_probs(tiny_mlm, [2, 7, 9, 3])),
        ("next token", lambda: sampling.run_next_token(sampling.NextTokenRequest("the cat", "smollm2-instruct"), causal)),
        (
            "generate",
            lambda: list(
                generation.stream_generate(
                    generation.GenerateRequest("the cat", "smollm2-instruct", 1.0, 0, 1.0, 6, 2, 3), causal, 2
                )
            ),
        ),
        (
            "compare",
            lambda: generation.run_compare(
                generation.CompareRequest("the cat", "smollm2-instruct", (0.1, 1.5), 0, 1.0, 4), causal
            ),
        ),
        ("step-through", three_steps),
        (
            "forward",
            lambda: _without_clock(run_forward(ForwardRequest("gpt2", "the cat sat"), Runtime(load=lambda key: tiny_clm))),
        ),
        (
            "attribution",
            lambda: _without_clock(
                insight.run_attribution(
                    insight.AttributionRequest("gpt2", "the cat sat", steps=4), Runtime(load=lambda key: tiny_clm)
                )
            ),
        ),
        (
            "knock-out",
            lambda: insight.run_knockout(
                insight.KnockoutRequest("minilm-mlm", "the [MASK] sat", "0"), Runtime(load=lambda key: tiny_mlm)
            ),
        ),
        (
            "patching",
            lambda: insight.run_patching(
                insight.PatchRequest("smollm2-instruct", "the cat sat", "the dog sat"), Runtime(load=lambda key: tiny_llama)
            ),
        ),
    ]


def _without_clock(result) -> dict:
    """The whole-Transformer result without its pass's wall-clock time (the one field a second run changes)."""
    return {k: v for k, v in jsonable(result).items() if not k.endswith("seconds")}


def close(a, b) -> bool:
    """Equal, floats to 1e-4 (the worker runs one CPU thread: sums may add up in another order)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 1e-4 * max(1.0, abs(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    return a == b


def test_every_entry_crosses_the_worker_boundary_and_gives_the_same_result(
    tiny_mlm, tiny_llama, tiny_encoder, tiny_glove, tiny_clm
):
    cases = scenarios(tiny_mlm, tiny_llama, tiny_encoder, tiny_glove, tiny_clm)
    direct = {name: jsonable(call()) for name, call in cases}
    models_cache_before = models.STORE.keys()
    device.install(None, emulated=True)
    try:
        before = dict(device.STATS.by_entry)
        for name, call in cases:  # each call builds its own Runtime (fresh caches): it computes again, in the worker
            assert close(jsonable(call()), direct[name]), name
        ran = {k for k, n in device.STATS.by_entry.items() if n > before.get(k, 0)}
    finally:
        device.install(None)
    assert ran == set(device.ENTRIES), f"entries never run through the emulated worker: {set(device.ENTRIES) - ran}"
    assert models.STORE.keys() == models_cache_before


def test_a_lock_cannot_cross_and_the_error_names_it(emulated):
    @device.entry(4)
    def holds(lock, x):
        return x

    with pytest.raises(device.CannotCross, match="arguments could not cross"):
        holds(threading.Lock(), 1)


def test_a_result_that_cannot_cross_is_a_worker_error(emulated, tmp_path):
    @device.entry(4)
    def opens(path):
        return open(path, "w")

    with pytest.raises(RuntimeError, match="ZeroGPU worker error.*could not cross"):
        opens(str(tmp_path / "f.txt"))


def test_a_tensor_left_on_the_gpu_cannot_cross_either_way(emulated):
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():  # a tensor that is on CUDA as far as pickling can tell, with no GPU here
        on_gpu = torch.empty(2, device="cuda")
    with pytest.raises(device.CannotCross, match="tensor on cuda"):
        device.dumps(([on_gpu], {}), "arguments")

    @device.entry(4)
    def leaves_it_on_the_gpu():
        with FakeTensorMode():
            return {"logits": torch.empty(2, device="cuda")}

    with pytest.raises(RuntimeError, match="ZeroGPU worker error.*tensor on cuda"):
        leaves_it_on_the_gpu()


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_call_ends_its_worker_and_pipe_before_it_returns_or_raises(emulated):
    """Nothing waits for the garbage collector: a refusal's traceback kept the emulation's pipe open until then."""

    @device.entry(4)
    def answers(n):
        return n + 1

    @device.entry(4)
    def refuses_after_one(n):
        yield n
        raise InputError("sampling_too_long", "too long")

    gc.collect()
    gc.disable()
    try:
        before = _open_files()
        for _ in range(3):
            assert answers(1) == 2
            with pytest.raises(InputError):
                list(refuses_after_one(1))
            early = refuses_after_one(1)
            assert next(early) == 1
            early.close()  # a student who cancels
        left_open = _open_files() - before
    finally:
        gc.enable()
        gc.collect()  # what was left for the collector goes now, inside this test
    assert left_open == 0


def test_a_students_error_keeps_its_code_and_words_across(emulated, tiny_clm):
    request = generation.GenerateRequest("the cat " * 600, "smollm2-instruct", 1.0, 0, 1.0, 40, 1, 0)
    with pytest.raises(InputError) as err:
        list(generation.stream_generate(request, Runtime(load=lambda key: tiny_clm)))
    assert err.value.code == "sampling_too_long" and "positions" in str(err.value)


def test_what_a_worker_changes_stays_in_the_worker(emulated):
    seen = []

    @device.entry(4)
    def remember(x):
        seen.append(x)
        return len(seen)

    assert remember(1) == 1 and remember(2) == 1 and seen == []  # a fresh fork each call, as ZeroGPU promises nothing


def test_a_cached_model_crosses_as_its_key_not_its_weights(tiny_mlm):
    whole = len(pickle.dumps(tiny_mlm))
    with models.STORE.holding(tiny_mlm):  # as if the app had loaded it: the worker inherits the process's store
        by_key = pickle.dumps(tiny_mlm)
        assert len(by_key) < 2000 < whole
        assert pickle.loads(by_key) is tiny_mlm  # in a fork the worker's inherited cache answers


def test_the_step_through_sampler_pickles_with_its_cache_on_the_cpu(tiny_clm):
    s = sampling.settings(1.0, 0, 1.0)
    kept, crossed = generation.Sampler(tiny_clm, "the cat", s, 5, 2, 6), generation.Sampler(tiny_clm, "the cat", s, 5, 2, 6)
    for _ in range(6):
        kept.step(tiny_clm)
        crossed = pickle.loads(pickle.dumps(crossed))
        crossed.step(tiny_clm)
    assert [[c.token_id for c in row] for row in kept.choices] == [[c.token_id for c in row] for row in crossed.choices]


def test_recomputing_the_prefix_draws_the_same_tokens(tiny_clm, monkeypatch):
    s = sampling.settings(1.0, 0, 1.0)
    kept = generation.Sampler(tiny_clm, "the cat", s, 9, 2, 6)
    monkeypatch.setattr(generation.Sampler, "CROSS_WITH_CACHE", False)
    crossed = generation.Sampler(tiny_clm, "the cat", s, 9, 2, 6)
    for _ in range(6):
        kept.step(tiny_clm)
        crossed = pickle.loads(pickle.dumps(crossed))
        assert crossed._cache is None
        crossed.step(tiny_clm)
    for a, b in zip(kept.choices, crossed.choices):
        assert [c.token_id for c in a] == [c.token_id for c in b]
        np.testing.assert_allclose([c.prob for c in a], [c.prob for c in b], rtol=1e-4)


class FakeSpaces:
    """spaces.GPU as the real one is called: the task and a duration callable given the same arguments."""

    def __init__(self, refuse: bool = False):
        self.requested, self.wrapped, self.refuse = [], [], refuse

    def GPU(self, task, duration):
        self.wrapped.append(task)

        def run(*args, **kwargs):
            self.requested.append(duration(*args, **kwargs))
            if self.refuse:
                error = RuntimeError("You have exceeded your free ZeroGPU quota (8s requested vs. 0s left).")
                error.title = "ZeroGPU quota exceeded"
                raise error
            return task(*args, **kwargs)

        return run


def test_every_entry_is_wrapped_at_start_with_a_short_duration_from_its_request(tiny_mlm, tiny_clm):
    fake = FakeSpaces()
    device.install(fake.GPU)
    try:
        assert len(fake.wrapped) == len(device.ENTRIES)  # decorated at start, as ZeroGPU's startup report wants
        run_fill_mask(FillMaskRequest("the [MASK] sat .", ("bert",), 3), Runtime(load=lambda key: tiny_mlm))
        short = generation.GenerateRequest("the cat", "smollm2-instruct", 1.0, 0, 1.0, 5, 1, 0)
        long = generation.GenerateRequest("the cat", "smollm2-instruct", 1.0, 0, 1.0, 50, 2, 0)  # the tiny model has 64 positions
        generation.run_generate(short, Runtime(load=lambda key: tiny_clm))
        generation.run_generate(long, Runtime(load=lambda key: tiny_clm))
    finally:
        device.install(None)
    fill, short_s, long_s = fake.requested
    assert device.MIN_SECONDS <= fill <= 6 and fill <= short_s < long_s <= device.MAX_SECONDS  # never spaces' 60 s default


def test_quota_refusals_are_counted_for_the_load_panel(tiny_mlm):
    fake = FakeSpaces(refuse=True)
    device.install(fake.GPU)
    before = device.STATS.quota_refusals
    try:
        with pytest.raises(RuntimeError, match="quota"):
            run_fill_mask(FillMaskRequest("the [MASK] sat .", ("bert",), 3), Runtime(load=lambda key: tiny_mlm))
    finally:
        device.install(None)
    assert device.STATS.quota_refusals == before + 1
