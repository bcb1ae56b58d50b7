"""Every public API endpoint, every parameter, through ONE table of bad values.

The endpoints are read from the built app (`app.build_app().fns`), so a new endpoint is covered without
editing this file. A malformed value must be refused with a gr.Error in the one wording of its kind of
field (playground/checks.py WORDINGS, naming the parameter as the API spells it) before any model loads,
never with a traceback or a library's message; a registered model of a kind the endpoint cannot use is
refused before it loads, and one it accepts runs on a tiny model of that kind without crashing.

Each refusal must come from the backend (a frame of a `playground` module outside `playground.ui` raised the
InputError behind the gr.Error): the endpoint calls the demo's `run_<demo>` entry, so this one table proves what
each entry refuses, and the demos' own tests need no per-field refusal tables (they keep what is not a value class
here: ranges, a field's own codes, cross-field rules).
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
from playground.errors import InputError
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
    "too-long": "x" * 200_001,  # more than any text parameter takes (the largest, the lab's corpus, 200,000)
    "too-many": [f"m{i}" for i in range(1_001)],  # more (distinct) items than any list parameter takes (12 at most)
    "none-item": [None],
}
# What each kind of parameter must refuse (the others may be valid for some parameter of that kind, e.g. -1 for an
# ELMo layer score, "3" for a text, 2.9 for a temperature; those may pass, or be refused, but never crash).
MUST_REFUSE = {
    int: {"none", "list", "dict", "nan", "inf", "-inf", "fraction", "negative-fraction", "negative", "huge", "seed-cap"}
    | {"lone-surrogate", "true", "digits", "too-long", "too-many", "none-item"},
    float: {"none", "list", "dict", "nan", "inf", "-inf", "huge", "lone-surrogate", "true", "digits", "too-long"}
    | {"too-many", "none-item"},
    str: {"list", "dict", "nan", "inf", "-inf", "fraction", "negative", "huge", "lone-surrogate", "true", "too-long"}
    | {"too-many", "none-item"},
    bool: {"none", "list", "dict", "nan", "inf", "fraction", "negative", "huge", "lone-surrogate", "digits", "too-long"}
    | {"too-many", "none-item"},
    list: {"dict", "nan", "inf", "fraction", "huge", "lone-surrogate", "true", "digits", "too-long", "too-many"} | {"none-item"},
}
# (kind, bad value) -> the wordings that alone may refuse it: a list too long must be refused for its length (its
# items are valid model keys, which another check would refuse as unknown), a text for its length or as none of a
# choice's options (a layer menu's too).
ONE_WORDING = {
    (list, "too-many"): ("input_not_list",),
    (str, "too-long"): ("input_text_too_long", "input_not_choice", "input_not_layer"),
}
# (endpoint, parameter) -> bad values that are valid there.
ALSO_VALID = {
    ("polysemy", "dims"): {"digits"},  # the polysemy page's dims radio sends "2" / "3"
    ("code", "request"): {"dict"},  # /code also takes the object itself
    ("masking", "prefix_len"): {"none"},  # None: the objective's own prefix length
    ("mlm_lab_train", "seed"): {"none"},  # an emptied seed box means the default
    ("forward", "token"): {"negative"},  # -1: follow the first [MASK] (else the last token that is not special)
    ("insight_attribution", "layer"): {"negative"},  # -1: the last layer's head
    ("insight_patching", "position"): {"negative"},  # -1: the first position where the two sentences differ
}
# (endpoint, parameter) -> bad values refused in that field's own words: the lab's corpus size names its limit.
OWN_WORDS = {("mlm_lab_train", "corpus"): {"too-long"}}
# (endpoint, parameter) checked in ui/ today, not by a backend entry: the lab's choice of text and the lesson and
# Code panel endpoints, whose code issue 31 moves out of ui/ (then these lines go).
UI_CHECKED = {("mlm_lab_train", "use_sample"), ("mlm_lab_train", "sample"), ("lesson_notebook", "lesson"), ("code", "request")}
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


def _wording(name: str, codes: tuple[str, ...] | None = None) -> re.Pattern:
    """Any of the checks' wordings (or those of `codes`), naming parameter `name`."""
    alternatives = []
    for template in (checks.WORDINGS[c] for c in codes) if codes else checks.WORDINGS.values():
        pattern = re.escape(template).replace(re.escape("{name}"), re.escape(name)).replace(re.escape("{name!r}"), ".+")
        alternatives.append(re.sub(r"\\\{\w+(?:!r)?\\\}", ".+", pattern))
    return re.compile("^(?:" + "|".join(alternatives) + ")$")


def _frames(err: BaseException) -> list[str]:
    """The modules of the frames that raised the InputError behind a gr.Error (the UI converts it `from None`)."""
    cause = err.__context__
    while cause is not None and not isinstance(cause, InputError):
        cause = cause.__context__
    frames, tb = [], cause.__traceback__ if cause is not None else None
    while tb is not None:
        frames.append(tb.tb_frame.f_globals.get("__name__", "?"))
        tb = tb.tb_next
    return frames


def _asked_for_a_model(err: BaseException) -> bool:
    cause = err.__context__
    while cause is not None and not isinstance(cause, LoadAttempted):
        cause = cause.__context__
    return cause is not None


def _refused_by_the_backend(err: BaseException) -> bool:
    return any(m.startswith("playground.") and not m.startswith(("playground.ui", "playground.checks")) for m in _frames(err))


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
            wordings = ONE_WORDING.get((kind, bad))
            checked += 1
            try:
                _call(fn, {**base, name: value})
            except gr.Error as err:
                message = err.message
                if "Traceback" in message or "Overflow" in message or "\ud800" in message:
                    failures.append(f"/{api_name} {name}={bad}: library text in {message!r}")
                elif must and _asked_for_a_model(err):  # the runtime tells a failed load as a refusal
                    failures.append(f"/{api_name} {name}={bad}: accepted, and a model was asked for")
                elif must and bad not in OWN_WORDS.get((api_name, name), ()) and not _wording(name, wordings).match(message):
                    failures.append(f"/{api_name} {name}={bad}: not the checks' wording for {name!r}: {message!r}")
                elif must and (api_name, name) not in UI_CHECKED and not _refused_by_the_backend(err):
                    failures.append(f"/{api_name} {name}={bad}: refused by the UI layer only: {_frames(err)}")
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

    loads = []

    def tiny_load(key, *args, **kwargs):
        loads.append(key)
        spec = get_spec(key)
        if spec.kind not in tiny_by_kind:
            raise LoadAttempted(key)
        return dataclasses.replace(tiny_by_kind[spec.kind], spec=spec)

    app_runtime(tiny_load, load_tokenizer=lambda key: tiny_load(key).tokenizer)  # fresh caches: a tiny model per kind
    monkeypatch.setattr(models, "load", tiny_load)
    _no_lab_training(monkeypatch)
    monkeypatch.setattr(models, "load_tokenizer", lambda key: tiny_load(key).tokenizer)
    failures, refused_by_kind, accepted = [], set(), []
    for api_name, fn in endpoints.items():
        base = _arguments(api_name, fn)
        for name in _model_params(fn):
            kinds = set()  # the kinds this parameter takes, as its refusals name them (filled in as the loop goes)
            for key in registry():
                value = [key] if name == "models" else key
                loads.clear()
                try:
                    _call(fn, {**base, name: value})
                    accepted.append((api_name, name, key, kinds))
                except gr.Error as err:
                    if "cannot be used here" in err.message:
                        kinds.update(err.message.rsplit("of kind ", 1)[-1].rstrip(".").split(" or "))
                        if not _wording(name).match(err.message):
                            failures.append(f"/{api_name} {name}={key}: {err.message!r}")
                        if key in loads:
                            failures.append(f"/{api_name} {name}={key}: refused by kind only after it loaded")
                        if not _refused_by_the_backend(err):
                            failures.append(f"/{api_name} {name}={key}: refused by the UI layer only: {_frames(err)}")
                        refused_by_kind.add(api_name)
                    elif "Traceback" in err.message:
                        failures.append(f"/{api_name} {name}={key}: {err.message!r}")
                    else:  # a kind with no tiny model here: accepted, then its load failed (the runtime says so)
                        accepted.append((api_name, name, key, kinds))
                except Exception as exc:  # noqa: BLE001
                    failures.append(f"/{api_name} {name}={key}: {type(exc).__name__}: {exc}")
    failures += [
        f"/{a} {n}={key}: accepted, not of kind {' or '.join(sorted(k))}"
        for a, n, key, k in accepted
        if get_spec(key).kind not in k
    ]
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
