"""Every model forward pass the API makes runs inside the one GPU wrapper (playground.device), none beside it.

On ZeroGPU there is no CUDA outside a `spaces.GPU` call: a forward pass beside the wrapper would fail on a Space
(or run on a model spaces never moved). The endpoints are read from the built app, so a new endpoint or a new
forward pass is covered without editing this file. Each runs its default view on a tiny model of the kind it
asks for, with `spaces.GPU` replaced by a decorator that runs the call in place; every torch module call (a whole
model, or a part called alone such as BERT's embeddings) is recorded with whether it happened inside a GPU call.
ELMo (the bundled one) and GloVe stay on the CPU by design (docs/hosting.md): ELMo's endpoints may run outside.
"""

from __future__ import annotations

import dataclasses
import inspect

import pytest
import torch

from playground import device, models
from playground.inside import nsp
from playground.registry import get_spec
from tests import tiny_models
from tests.unit.core.test_api_bad_values import _arguments, _no_lab_training
from tests.unit.inside.test_inside import tiny_nsp

TINY = {
    "encoder": tiny_models.tiny_bert_encoder,
    "masked": tiny_models.tiny_bert_mlm,
    "causal": tiny_models.tiny_gpt2,
    "static": tiny_models.tiny_glove,
    "nsp": tiny_nsp,
    "seq2seq": tiny_models.tiny_t5,
}
ARGUMENTS = {  # beyond test_api_bad_values' good values: a model of each kind the endpoint takes
    "fill_mask": {"models": ["bert", "gpt2"]},
    "masking": {"strategy": "electra", "generator": "masked:electra-generator"},  # the objective that runs models
    "code": {"request": '{"text": "the [MASK] sat on the mat."}'},
    "class_start": {"model": "minilm-mlm"},
    "text_to_text": {
        "model": "t5-small"
    },  # named: offline no encoder-decoder is available, so "" would be refused  # fill the blank: a masked LM
}
# ELMo's endpoints run the bundled ELMo on the CPU, no GPU call, by design (docs/hosting.md): only a transformers
# model would be wrong there.
CPU_BY_DESIGN = {"elmo_vectors", "elmo_bilm", "elmo_oov"}
NOT_GPU = {"mlm_lab_train", "warmup"}  # the lab trains in its own worker process; the warm-up calls the entries
# A live class's other endpoints read and write the session store only (no model); /class_start runs its model above.
NOT_GPU |= {"class_join", "class_answer", "class_tally", "class_control"}


@pytest.fixture(scope="module")
def endpoints():
    import app

    demo = app.build_app()
    return {
        fn.api_name: fn.fn
        for fn in demo.fns.values()
        if fn.api_name and fn.fn is not None and getattr(fn, "api_visibility", "public") == "public"
    }


def test_every_forward_pass_of_every_endpoint_runs_inside_a_gpu_call(endpoints, monkeypatch, app_runtime):
    built = {kind: build() for kind, build in TINY.items()}

    def tiny_load(key, *args, **kwargs):
        spec = get_spec(key)
        if spec.kind not in built:  # ELMo: the bundled one (9 MB), which runs on the CPU by design
            return real_load(key)
        return dataclasses.replace(built[spec.kind], spec=spec)

    real_load = models.load
    app_runtime(tiny_load, load_tokenizer=lambda key: tiny_load(key).tokenizer)
    monkeypatch.setattr(models, "load", tiny_load)
    monkeypatch.setattr(models, "load_tokenizer", lambda key: tiny_load(key).tokenizer)
    _no_lab_training(monkeypatch)
    monkeypatch.setattr(nsp, "nsp_model_key", lambda requested, text="": ("bert-nsp", ""))  # the hub's NSP model, as if cached

    forwards: list[tuple[str, str, bool]] = []  # (endpoint, module class, inside a GPU call)
    current = [""]
    call = torch.nn.Module.__call__

    def recording_call(self, *args, **kwargs):  # every module call: a whole model, or a part called alone
        forwards.append(
            (current[0], f"{type(self).__module__}.{type(self).__name__}", bool(getattr(device._inside, "active", False)))
        )
        return call(self, *args, **kwargs)

    monkeypatch.setattr(torch.nn.Module, "__call__", recording_call)
    gpu_calls = []

    def fake_gpu(task, duration):  # spaces.GPU as it is called, running the task in place
        def run(*args, **kwargs):
            gpu_calls.append(duration(*args, **kwargs))
            return task(*args, **kwargs)

        return run

    device.install(fake_gpu)
    try:
        for api_name, fn in endpoints.items():
            if api_name in NOT_GPU:
                continue
            current[0] = api_name
            out = fn(**(_arguments(api_name, fn) | ARGUMENTS.get(api_name, {})))
            if inspect.isgenerator(out):
                list(out)
    finally:
        device.install(None)
    outside = sorted(
        {(a, m) for a, m, inside in forwards if not inside and (a not in CPU_BY_DESIGN or m.startswith("transformers."))}
    )
    assert not outside, f"forward passes outside the GPU wrapper: {outside}"
    ran = {a for a, m, _ in forwards if m.startswith("transformers.")}
    # the demos' model-bound endpoints all ran a model here (a tiny one), each through the wrapper
    assert {
        "fill_mask",
        "polysemy",
        "masking",
        "next_token",
        "generate",
        "attention",
        "inside_embeddings",
        "inside_nsp",
        "text_to_text",
    } <= ran
    assert gpu_calls and all(device.MIN_SECONDS <= s <= device.MAX_SECONDS for s in gpu_calls)
