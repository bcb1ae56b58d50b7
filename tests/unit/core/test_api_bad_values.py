"""Every public API endpoint, every parameter, through ONE table of bad values.

The endpoints are read from the built app (`app.build_app().fns`), so a new endpoint is covered without
editing this file. A malformed value must be refused with a gr.Error in the one wording of its kind of
field (playground/checks.py WORDINGS, naming the parameter as the API spells it) before any model loads,
never with a traceback or a library's message; a registered model of a kind the endpoint cannot use is
refused before it loads, and one it accepts runs on a tiny model of that kind without crashing.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import re
import types
import typing

import gradio as gr
import pytest

from playground import checks, models
from playground.registry import get_spec, registry
from tests import tiny_models


class LoadAttempted(Exception):
    """The entry accepted the request and asked for a model: nothing real loads in this test."""


def _no_load(key, *args, **kwargs):
    raise LoadAttempted(key)


@pytest.fixture(scope="module")
def endpoints(built_app):
    demo = built_app
    found = {
        fn.api_name: fn.fn
        for fn in demo.fns.values()
        if fn.api_name and fn.fn is not None and getattr(fn, "api_visibility", "public") == "public"
    }
    assert len(found) >= 14  # fill_mask, polysemy, elmo x3, masking, next_token, generate, attention, inside x4, mlm_lab
    return found


# Good values for the parameters without a default, and where the default alone would be refused first.
GOOD = {
    "text": "The capital of France is [MASK].",
    "word": "bank",
    "sentences": "river | the bank of the river .\nmoney | the bank lent money .",
    "prompt": "the cat",
    "sentence": "the bank of the river",
    "words": "bank",
    "text_a": "the cat sat",
    "models": ["minilm"],
    "model": "minilm",
    "view": "fill_mask",  # /code: which view's script
}
GOOD_FOR = {("inside_nsp", "text"): "The cat sat on the mat. It purred. Then it slept."}

# name -> value: the one table every parameter meets.
BAD = {
    "none": None,
    "list": [1],
    "dict": {"a": 1},
    "nan": math.nan,
    "inf": math.inf,
    "-inf": -math.inf,
    "fraction": 2.9,
    "negative-fraction": -0.5,
    "negative": -1,
    "huge": 2**70,
    "seed-cap": checks.MAX_SEED + 1,
    "lone-surrogate": "a\ud800b",
    "true": True,
    "digits": "3",
}
# What each kind of parameter must refuse (the others may be valid for some parameter of that kind, e.g. -1 for an
# ELMo layer score, "3" for a text, 2.9 for a temperature; those may pass, or be refused, but never crash).
MUST_REFUSE = {
    int: {"list", "dict", "nan", "inf", "-inf", "fraction", "negative-fraction", "negative", "huge", "seed-cap"}
    | {"lone-surrogate", "true", "digits"},
    float: {"list", "dict", "nan", "inf", "-inf", "huge", "lone-surrogate", "true", "digits"},
    str: {"list", "dict", "nan", "inf", "-inf", "fraction", "negative", "huge", "lone-surrogate", "true"},
    bool: {"none", "list", "dict", "nan", "inf", "fraction", "negative", "huge", "lone-surrogate", "digits"},
    list: {"dict", "nan", "inf", "fraction", "huge", "lone-surrogate", "true", "digits"},
}
# (endpoint, parameter) -> bad values that are valid there: the polysemy page's dims radio sends "2" / "3".
ALSO_VALID = {("polysemy", "dims"): {"digits"}, ("code", "request"): {"dict"}}  # /code also takes the object itself
EXEMPT = {"lang"}  # the page's language: any value reads as English unless it starts with "zh" (never refused)


def _kind(annotation) -> type:
    """The parameter's JSON kind from its annotation (`list[str] | None` -> list)."""
    if isinstance(annotation, str):
        annotation = eval(annotation, {"typing": typing})  # noqa: S307  (the app's own annotations)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(kinds) > 1:  # e.g. `bool | str`: either is valid, so only "never a traceback" applies
            return object
        (annotation,) = kinds
        origin = typing.get_origin(annotation)
    return list if origin is list or annotation is list else annotation


def _wording(name: str) -> re.Pattern:
    """Any of the checks' wordings, naming parameter `name`."""
    alternatives = []
    for template in checks.WORDINGS.values():
        pattern = re.escape(template).replace(re.escape("{name}"), re.escape(name)).replace(re.escape("{name!r}"), ".+")
        alternatives.append(re.sub(r"\\\{\w+(?:!r)?\\\}", ".+", pattern))
    return re.compile("^(?:" + "|".join(alternatives) + ")$")


def _api_params(fn) -> dict[str, inspect.Parameter]:
    """The parameters a client sends (Gradio injects a gr.Request itself; no client can set it)."""
    params = inspect.signature(fn).parameters.items()
    return {n: p for n, p in params if p.annotation not in (gr.Request, "gr.Request", "gr.Request | None")}


def _call(fn, kwargs):
    out = fn(**kwargs)
    return list(out) if inspect.isgenerator(out) else out


def _arguments(api_name: str, fn) -> dict:
    params = inspect.signature(fn).parameters
    args = {
        name: GOOD_FOR.get((api_name, name), GOOD[name]) for name, p in params.items() if p.default is inspect.Parameter.empty
    }
    if "models" in params:
        args["models"] = GOOD["models"]
    return args


@pytest.fixture
def no_loads(monkeypatch, app_runtime):
    app_runtime(_no_load, load_tokenizer=_no_load)  # the endpoints' runtime: fresh caches, and nothing may load
    monkeypatch.setattr(models, "load", _no_load)
    monkeypatch.setattr(models, "load_tokenizer", _no_load)
    _no_lab_training(monkeypatch)  # a valid lab request (use_sample=true) must not train for real


def _no_lab_training(monkeypatch):
    """The app's lab runner asks for the base model instead of starting its worker."""
    from playground.mlm_lab.runner import runner_for
    from playground.serve.runtime import APP

    monkeypatch.setattr(runner_for(APP), "train", lambda request, progress: _no_load(request.settings.base))


@pytest.mark.parametrize("bad", list(BAD))
def test_every_parameter_of_every_endpoint_refuses_bad_values_clearly(endpoints, no_loads, bad):
    value, failures, checked = BAD[bad], [], 0
    for api_name, fn in endpoints.items():
        base = _arguments(api_name, fn)
        for name, param in _api_params(fn).items():
            kind = _kind(param.annotation)
            must = name not in EXEMPT and bad in MUST_REFUSE.get(kind, set()) - ALSO_VALID.get((api_name, name), set())
            checked += 1
            try:
                _call(fn, {**base, name: value})
            except gr.Error as err:
                message = err.message
                if "Traceback" in message or "Overflow" in message or "\ud800" in message:
                    failures.append(f"/{api_name} {name}={bad}: library text in {message!r}")
                elif must and not _wording(name).match(message):
                    failures.append(f"/{api_name} {name}={bad}: not the checks' wording for {name!r}: {message!r}")
                continue
            except LoadAttempted:
                if must:
                    failures.append(f"/{api_name} {name}={bad}: accepted, and a model was asked for")
                continue
            except Exception as exc:  # noqa: BLE001  (the point: nothing else may escape)
                failures.append(f"/{api_name} {name}={bad}: {type(exc).__name__}: {exc}")
                continue
            if must:
                failures.append(f"/{api_name} {name}={bad}: accepted")
    assert checked > 80 and not failures, "\n".join(failures)


def _model_params(fn) -> list[str]:
    """The parameters that name a registered model: model / models, and the lab's base (a config name elsewhere)."""
    return [n for n, p in _api_params(fn).items() if n in ("model", "models") or (n == "base" and p.default in registry())]


TINY = {  # a tiny random model for each kind there is one of (tests/tiny_models.py)
    "encoder": tiny_models.tiny_bert_encoder,
    "masked": tiny_models.tiny_bert_mlm,
    "causal": tiny_models.tiny_gpt2,
    "static": tiny_models.tiny_glove,
}


@pytest.fixture(scope="module")
def tiny_by_kind():
    return {kind: build() for kind, build in TINY.items()}


def test_every_model_parameter_refuses_kinds_it_cannot_use_and_runs_those_it_can(
    endpoints, tiny_by_kind, monkeypatch, app_runtime
):
    """Each registered model through each endpoint's model parameter: refused by kind before it loads (the checks'
    wording), or run on a tiny model of its kind with no traceback. `/elmo_vectors` with "minilm" used to load
    MiniLM and crash with an AttributeError."""

    def tiny_load(key, *args, **kwargs):
        spec = get_spec(key)
        if spec.kind not in tiny_by_kind:
            raise LoadAttempted(key)
        return dataclasses.replace(tiny_by_kind[spec.kind], spec=spec)

    app_runtime(tiny_load, load_tokenizer=lambda key: tiny_load(key).tokenizer)  # fresh caches: a tiny model per kind
    monkeypatch.setattr(models, "load", tiny_load)
    _no_lab_training(monkeypatch)
    monkeypatch.setattr(models, "load_tokenizer", lambda key: tiny_load(key).tokenizer)
    failures, refused_by_kind = [], set()
    for api_name, fn in endpoints.items():
        base = _arguments(api_name, fn)
        for name in _model_params(fn):
            for key in registry():
                value = [key] if name == "models" else key
                try:
                    _call(fn, {**base, name: value})
                except gr.Error as err:
                    if "cannot be used here" in err.message:
                        if not _wording(name).match(err.message):
                            failures.append(f"/{api_name} {name}={key}: {err.message!r}")
                        refused_by_kind.add(api_name)
                    elif "Traceback" in err.message:
                        failures.append(f"/{api_name} {name}={key}: {err.message!r}")
                except LoadAttempted:
                    pass  # a kind with no tiny model here: it was accepted before loading, as it should be
                except Exception as exc:  # noqa: BLE001
                    failures.append(f"/{api_name} {name}={key}: {type(exc).__name__}: {exc}")
    assert not failures, "\n".join(failures)
    # every endpoint with a model parameter takes only some kinds, and says so
    assert refused_by_kind == {a for a, fn in endpoints.items() if _model_params(fn)}


@pytest.mark.parametrize("value", ["nope", "../../etc/passwd", "<svg onload=alert(1)>"])
def test_an_unknown_model_key_gets_the_one_unknown_model_wording(endpoints, no_loads, value):
    failures = []
    for api_name, fn in endpoints.items():
        for name in _model_params(fn):
            with pytest.raises(gr.Error) as err:
                _call(fn, {**_arguments(api_name, fn), name: [value] if name == "models" else value})
            if not err.value.message.startswith("Unknown model") or "<svg" in err.value.message:
                failures.append(f"/{api_name} {name}: {err.value.message!r}")
    assert not failures, "\n".join(failures)
