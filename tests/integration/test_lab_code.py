"""The MLM lab's Code panel is the course's Trainer exercise, and it runs: the generated script, in a fresh
interpreter, fine-tunes a tiny BERT saved in hub layout (its hub id swapped for the folder) for two steps and
prints the held-out loss before and after, on the same held-out split the lab used."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from playground.mlm_lab import corpus
from playground.registry import get_spec
from playground.code import code_for
from tests import tiny_models

REPO = Path(__file__).resolve().parents[2]
ENGLISH = "\n".join(line for line in tiny_models.CORPUS if line.isascii()) * 3
WITH_CHINESE = "\n".join(tiny_models.TEXTS) * 3  # whole words of the Chinese lines are jieba's (word_gaps)


@pytest.mark.parametrize("text", [ENGLISH, WITH_CHINESE], ids=["english", "with-chinese"])
def test_the_lab_script_trains_with_the_trainer_and_prints_the_held_out_loss(tmp_path, text):
    tiny = tiny_models.tiny_bert_mlm()
    hub = tmp_path / "bert"
    tiny.model.save_pretrained(hub)
    tiny.tokenizer.save_pretrained(hub)
    request = {"base": "bert", "max_steps": 2, "seed": 5, "whole_word": True, "corpus_file": "my corpus.txt"}
    snippet = code_for("mlm_lab", json.dumps(request))
    assert not snippet.runs_offline  # a hub model: the script says so
    code = snippet.code.replace(f'"{get_spec("bert").hf_id}"', repr(str(hub)))
    (tmp_path / "train_mlm.py").write_text(code, encoding="utf-8")
    (tmp_path / "my corpus.txt").write_text(text, encoding="utf-8")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO), "TRANSFORMERS_VERBOSITY": "error"}
    done = subprocess.run([sys.executable, "train_mlm.py"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    train, held = corpus.split(corpus.sentences(text), 5)
    assert f"{len(train)} training sentences, {len(held)} held out" in done.stdout
    losses = {m[0]: float(m[1]) for m in re.findall(r"held-out loss (before|after): +(\d+\.\d+)", done.stdout)}
    assert set(losses) == {"before", "after"} and all(0 < v < 20 for v in losses.values()), done.stdout
    assert (tmp_path / "my-mlm" / "config.json").exists()  # the model a student keeps
    assert "'loss'" in done.stdout  # the Trainer's own log of each step (logging_steps=1)
