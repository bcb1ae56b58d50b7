"""Sampling backend on tiny random causal models: the sampler agrees with generate, greedy limits, top-p's set."""

import numpy as np
import pytest
import torch

from playground import sampling
from playground.sampling import generation
from playground.errors import InputError
from playground.runtime import Runtime

PROMPT = "the cat sat on"


def token_ids(result):
    return [[c.token_id for c in s.tokens] for s in result.samples]


def reference(lm, prompt, s, max_new, n, seed):
    """What transformers' generate draws with the same settings, seeding the global RNG it uses."""
    ids = torch.tensor([sampling.encode_prompt(lm, prompt)])
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        out = lm.model.generate(
            ids,
            do_sample=not s.greedy,
            temperature=s.temperature or None,
            top_k=s.top_k,
            top_p=s.top_p,
            max_new_tokens=max_new,
            num_return_sequences=n,
            pad_token_id=lm.tokenizer.eos_token_id,
        )
    return out[:, ids.shape[1] :].tolist()


@pytest.fixture(params=["tiny_clm", "tiny_llama"])
def lm(request):
    return request.getfixturevalue(request.param)


@pytest.mark.parametrize(
    "temperature,top_k,top_p,n,seed", [(0.8, 0, 1.0, 1, 0), (1.5, 10, 0.9, 3, 5), (1.0, 0, 0.5, 2, 7), (0.3, 5, 1.0, 1, 1)]
)
def test_tokens_match_model_generate(lm, temperature, top_k, top_p, n, seed):
    s = sampling.settings(temperature, top_k, top_p)
    ours = token_ids(generation.generate(lm, PROMPT, s, 25, n, seed))
    theirs = [reference(lm, PROMPT, s, 25, 1, seed + k)[0] for k in range(n)]  # sample k + 1 is seeded seed + k
    assert [t[: len(o)] for o, t in zip(ours, theirs)] == ours
    assert all(len(o) > 0 for o in ours)


def test_greedy_matches_generate_without_sampling(lm):
    s = sampling.settings(0, 0, 1.0)
    ours = token_ids(generation.generate(lm, PROMPT, s, 20, 1, 0))[0]
    assert ours == reference(lm, PROMPT, s, 20, 1, 0)[0][: len(ours)]


@pytest.mark.parametrize("seed", [0, 3])
def test_temperature_to_zero_and_top_k_one_equal_greedy(lm, seed):
    greedy = token_ids(generation.generate(lm, PROMPT, sampling.settings(0, 0, 1.0), 20, 2, seed))
    assert greedy[0] == greedy[1]  # greedy ignores the seed and the sample index
    assert token_ids(generation.generate(lm, PROMPT, sampling.settings(1e-4, 0, 1.0), 20, 2, seed)) == greedy
    assert token_ids(generation.generate(lm, PROMPT, sampling.settings(1.5, 1, 1.0), 20, 2, seed)) == greedy


def test_same_seed_same_text_other_seed_other_text(lm):
    s = sampling.settings(1.5, 0, 1.0)
    first = generation.generate(lm, PROMPT, s, 20, 2, 11)
    assert first == generation.generate(lm, PROMPT, s, 20, 2, 11)
    others = {tuple(token_ids(generation.generate(lm, PROMPT, s, 20, 1, seed))[0]) for seed in range(4)}
    assert len(others) > 1


@pytest.mark.parametrize("top_p", [0.3, 0.6, 0.9])
def test_top_p_keeps_the_smallest_set_reaching_p(tiny_clm, top_p):
    logits = sampling.next_token_logits(tiny_clm, sampling.encode_prompt(tiny_clm, PROMPT))
    s = sampling.settings(2.0, 0, top_p)  # hot: a wide distribution, so the nucleus has many tokens
    kept = sampling.distribution(tiny_clm, logits, s).kept["top_p"]
    mass = np.cumsum(np.sort((logits / 2.0).softmax(-1).numpy())[::-1])
    assert mass[kept - 1] >= top_p - 1e-6
    assert kept == 1 or mass[kept - 2] < top_p + 1e-6
    assert 1 < kept < len(mass)


def test_distribution_stages(tiny_llama):
    logits = sampling.next_token_logits(tiny_llama, sampling.encode_prompt(tiny_llama, PROMPT))
    view = sampling.distribution(tiny_llama, logits, sampling.settings(1.2, 8, 0.8))
    vocab = logits.shape[-1]
    assert view.kept["raw"] == view.kept["temperature"] == vocab
    assert view.kept["top_p"] <= view.kept["top_k"] == 8
    assert list(view.probs["raw"]) == sorted(view.probs["raw"], reverse=True)
    assert len(view.tokens) == len(view.token_ids) == sampling.N_SHOWN
    for stage, probs in view.probs.items():
        assert 0 <= probs.min() and probs.sum() <= 1 + 1e-5, stage
    assert (view.probs["top_k"][8:] == 0).all() and (view.probs["top_k"][:8] > 0).all()
    assert view.entropy["temperature"] > view.entropy["raw"]  # T > 1 flattens
    greedy = sampling.distribution(tiny_llama, logits, sampling.settings(0, 0, 1.0))
    assert greedy.probs["top_p"][0] == 1 and greedy.nucleus_size == 1 and greedy.entropy["top_p"] == 0


def test_entropy_rises_with_temperature(tiny_clm):
    result = sampling.next_token(tiny_clm, PROMPT, [sampling.settings(t, 0, 1.0) for t in (0.1, 0.8, 1.5)])
    entropies = [v.entropy["temperature"] for v in result.views]
    assert entropies == sorted(entropies) and entropies[0] < entropies[-1]
    assert result.to_dict()["views"][2]["temperature"] == 1.5


def test_step_through_replays_generate_with_its_views(lm):
    s = sampling.settings(1.0, 20, 0.95)
    expected = generation.generate(lm, PROMPT, s, 12, 1, 4)
    sampler = generation.Sampler(lm, PROMPT, s, seed=4, n=1, max_new_tokens=12)
    views = []
    while not sampler.done:
        views.append(sampler.step(lm, view=True))
    assert sampler.step(lm, view=True) is None
    assert sampler.result(lm).samples == expected.samples
    for view, choice in zip(views, expected.samples[0].tokens):
        assert view.chosen == choice.token_id and view.chosen_rank == choice.rank
        assert view.chosen_prob == pytest.approx(choice.prob) and choice.prob > 0
        assert choice.alternatives[0][1] >= choice.prob


def test_pieces_rebuild_the_text_including_chinese(tiny_llama, tiny_clm):
    for lm in (tiny_llama, tiny_clm):
        result = generation.generate(lm, "人工智能的未来是", sampling.settings(1.0, 0, 1.0), 15, 2, 0)
        for sample in result.samples:
            assert "".join(c.text for c in sample.tokens) == sample.text


def test_streaming_yields_growing_results(tiny_clm):
    steps = list(generation.generate_stream(tiny_clm, PROMPT, sampling.settings(0.8, 0, 1.0), 6, 2, 0))
    assert [s.done for s in steps] == [False] * (len(steps) - 1) + [True]
    lengths = [len(r.samples[0].tokens) for r in steps]
    assert lengths == sorted(lengths) and steps[-1] == generation.generate(
        tiny_clm, PROMPT, sampling.settings(0.8, 0, 1.0), 6, 2, 0
    )


@pytest.mark.parametrize(
    "args,code",
    [
        ((-0.1, 0, 1.0), "temperature"),
        ((2.5, 0, 1.0), "temperature"),
        ((1.0, -1, 1.0), "top_k"),
        ((1.0, 2.5, 1.0), "top_k"),
        ((1.0, 0, 0.0), "top_p"),
        ((1.0, 0, 1.5), "top_p"),
    ],
)
def test_bad_settings_are_refused(args, code):
    with pytest.raises(InputError) as err:
        sampling.settings(*args)
    assert code in (err.value.code, err.value.params.get("name"))


def test_bad_runs_are_refused(tiny_clm):
    s = sampling.settings(1.0, 0, 1.0)
    for kwargs, code in [
        (dict(max_new_tokens=0), "max_new_tokens"),
        (dict(max_new_tokens=201), "max_new_tokens"),
        (dict(n_samples=6), "n_samples"),
        (dict(seed=-1), "seed"),
        (dict(max_new_tokens=60), "sampling_too_long"),
    ]:  # tiny GPT-2 has 64 positions
        with pytest.raises(InputError) as err:
            generation.generate(tiny_clm, PROMPT, s, **kwargs)
        assert code in (err.value.code, err.value.params.get("name"))


def test_empty_prompt_starts_from_the_start_token(tiny_clm):
    assert sampling.encode_prompt(tiny_clm, "") == [tiny_clm.tokenizer.bos_token_id]
    assert generation.generate(tiny_clm, "", sampling.settings(1.0, 0, 1.0), 3).samples[0].tokens


def test_backend_entries_on_tiny_models(tiny_clm, tiny_llama):
    """run_next_token / run_generate / run_compare / run_step with the loader swapped for tiny models."""
    for tiny in (tiny_clm, tiny_llama):
        load = Runtime(load=lambda key: tiny)  # "smollm2-instruct" is a registered causal key: the allow-list check runs
        nxt = sampling.run_next_token(sampling.NextTokenRequest("the cat", "smollm2-instruct", temperatures=(0.1, 1.5)), load)
        data = nxt.to_dict()
        assert [v["temperature"] for v in data["views"]] == [0.1, 1.5] and "no_chinese" not in data
        request = generation.GenerateRequest("the cat", "smollm2-instruct", 1.0, 0, 1.0, 6, 2, 3)
        run = generation.run_generate(request, load)
        assert run.done and len(run.samples) == 2 and "model_label" not in run.to_dict()
        # the entry draws what the sampler (checked against transformers' generate above) draws with the request's
        # settings and seed; another seed, other text (comparing the entry with itself would pass if it ignored them)
        drawn = generation.generate(tiny, "the cat", sampling.settings(1.0, 0, 1.0), 6, 2, 3)
        assert token_ids(run) == token_ids(drawn) and [x.text for x in run.samples] == [x.text for x in drawn.samples]
        assert token_ids(run) != token_ids(generation.generate(tiny, "the cat", sampling.settings(1.0, 0, 1.0), 6, 2, 4))
        snapshots = list(generation.stream_generate(request, load, every=2))
        assert snapshots[-1].to_dict() == run.to_dict() and not any(s.done for s in snapshots[:-1])
        compare = generation.run_compare(generation.CompareRequest("the cat", "smollm2-instruct", (0.1, 1.5), 0, 1.0, 4), load)
        assert len(compare.continuations) == 2 and len(compare.to_dict()["continuations"]) == 2
        sampler, step = generation.run_step(None, generation.StepRequest("the cat", "smollm2-instruct", 1.0, 0, 1.0, 4, 3), load)
        assert step.step == 1 and step.distribution.chosen == run_first_token(tiny, 3)


def run_first_token(lm, seed):
    return generation.generate(lm, "the cat", sampling.settings(1.0, 0, 1.0), 4, 1, seed).samples[0].tokens[0].token_id


def test_backend_entries_refuse_bad_requests_before_loading():
    def never(key):
        raise AssertionError("no model may load")

    for request, code in [
        (sampling.NextTokenRequest("x", "minilm"), "input_model_kind"),
        (sampling.NextTokenRequest("x", "smollm2-instruct", temperature=9), "temperature"),
        (sampling.NextTokenRequest("x", "nope"), "unknown_model"),
    ]:
        with pytest.raises(InputError) as err:
            sampling.run_next_token(request, Runtime(load=never))
        assert code in (err.value.code, err.value.params.get("name"))


@pytest.mark.parametrize("temperature", [0.1, 0.8, 1.5])
def test_sample_one_of_a_batch_is_the_single_sample_of_that_seed(lm, temperature):
    """The comparison draws one sample per temperature with the seed; a temperature's link draws three: its sample 1
    must be the comparison's text (issue 19: under one seed they differed)."""
    s = sampling.settings(temperature, 0, 1.0)
    three = token_ids(generation.generate(lm, PROMPT, s, 20, 3, 4))
    assert three[0] == token_ids(generation.generate(lm, PROMPT, s, 20, 1, 4))[0]
    assert three[2] == token_ids(generation.generate(lm, PROMPT, s, 20, 1, 6))[0]
    compare = generation.run_compare(
        generation.CompareRequest(PROMPT, "smollm2-instruct", (temperature,), max_new_tokens=20, seed=4),
        Runtime(load=lambda key: lm),
    )  # a registry key (the entry checks it); the loader hands out the tiny model
    assert token_ids(compare.continuations[0])[0] == three[0]
