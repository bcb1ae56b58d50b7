"""The probes' take-home script runs and prints the backend's own numbers: on tiny models (a BERT encoder, an ELMo)
standing in for the bundled ones and on small data of the shipped files' shape (English: one split; Chinese: a
split for part of speech and leave-one-out for senses)."""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import io
import json
import re

import pytest
import torch

from playground import models
from playground.code import code_for
from playground.elmo import ElmoBiLm, ElmoModel
from playground.registry import get_spec
from tests.tiny_models import tiny_bert_encoder, tiny_elmo_options

compute_module = importlib.import_module("playground.probes.compute")  # the module (the package exports its function)

EN = [
    ("the bank of the river", "bank", "n", "bank:river"),
    ("a bank by the water", "bank", "n", "bank:river"),
    ("the river bank was wet", "bank", "n", "bank:river"),
    ("the bank gave a loan", "bank", "n", "bank:money"),
    ("money in the bank", "bank", "n", "bank:money"),
    ("the bank took the money", "bank", "n", "bank:money"),
    ("we run to the river", "run", "v", "run:go"),
    ("they run by the bank", "run", "v", "run:go"),
    ("i run every day", "run", "v", "run:go"),
    ("a long run by the river", "run", "n", "run:trip"),
    ("the run was long", "run", "n", "run:trip"),
    ("after the run we slept", "run", "n", "run:trip"),
]
ZH_SENSE = [
    ("我在银行存钱", "银行", "n", "银行:钱"),
    ("银行的钱", "银行", "n", "银行:钱"),
    ("河边的银行", "银行", "n", "银行:河"),
    ("银行外的河", "银行", "n", "银行:河"),
]


def _token(text, word, pos, sense, split=None):
    start = text.index(word)
    out = {"text": text, "span": [start, start + len(word)], "word": word, "pos": pos, "sense": sense}
    return out | ({"split": split} if split else {})


def _data(lang: str):
    en = [_token(*row, split="test" if i % 3 == 0 else "train") for i, row in enumerate(EN)]
    if lang == "en":
        return en
    zh_pos = [_token(t, w, p, "", split="test" if i % 4 == 0 else "train") for i, (t, w, p, _) in enumerate(ZH_SENSE * 3)]
    return {"pos": [{k: v for k, v in t.items() if k != "sense"} for t in zh_pos], "sense": [_token(*r) for r in ZH_SENSE]}


def _tiny(key: str):
    spec = get_spec(key)
    if spec.kind == "elmo":
        torch.manual_seed(0)  # test-only: the same random weights in every run
        opts = tiny_elmo_options()
        vocab = ("<S>", "</S>", "<UNK>", "the", "bank")
        return models.LoadedModel(spec, ElmoModel("tiny", ElmoBiLm(opts, vocab_size=len(vocab)).eval(), opts, vocab), None, "cpu")
    return dataclasses.replace(tiny_bert_encoder(), spec=spec)


@pytest.mark.parametrize("key, lang", [("minilm", "en"), ("elmo-small", "en"), ("e5-small", "zh")])
def test_script_prints_the_backends_numbers(key, lang, tmp_path, monkeypatch):
    (tmp_path / f"data-{lang}.json").write_text(json.dumps(_data(lang), ensure_ascii=False), encoding="utf-8")
    lm = _tiny(key)
    monkeypatch.setattr(compute_module, "DATA", tmp_path)
    result = compute_module.compute(lm, lang)
    monkeypatch.setattr(models, "load", lambda k, **kw: lm)  # the script's `load(key)` gets the tiny stand-in
    code = code_for("insight_probes", {"model": key, "data": lang}).code
    assert f'load("{key}")' in code and f"assets/probes/data-{lang}.json" in code
    code = code.replace(f"assets/probes/data-{lang}.json", str(tmp_path / f"data-{lang}.json"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "probes.py", "exec"), {"__name__": "__main__"})  # noqa: S102
    printed = re.findall(r"layer (\d+): accuracy ([\d.]+)  control ([\d.]+)", out.getvalue())
    expected = [(str(i), f"{c.accuracy[i]:.4f}", f"{c.control[i]:.4f}") for c in (result.pos, result.sense)
                for i in range(len(c.accuracy))]  # fmt: skip
    assert printed == expected
    assert len(printed) == 2 * len(result.layers)


def test_unknown_parameters_and_models_are_refused():
    from playground.errors import InputError

    with pytest.raises(InputError):
        code_for("insight_probes", {"model": "minilm", "text": "x"})
    with pytest.raises(ValueError):
        code_for("insight_probes", {"model": "minilm", "data": "zh"})
