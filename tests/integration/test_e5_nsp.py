"""e5-nsp (multilingual-E5 small + a next-sentence head trained here on Chinese documentation) scores Chinese pairs
offline, through the app's one load path and its NSP view; e5-small's embeddings view says it reads one segment.

The held-out sample is assets/e5_nsp/held_out_sample.json: the first pairs of scripts/train_nsp_zh.py's test documents
(never trained on, whole documents held out), written by `train_nsp_zh.py --eval-only`.
"""

import json
from pathlib import Path

import pytest

from playground import models
from playground.inside.embeddings_input import EmbeddingsRequest, run_embeddings
from playground.inside.nsp import NspRequest, nsp_probabilities, run_nsp
from playground.registry import get_spec
from playground.runtime import Runtime
from playground.ui.inside import render

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = json.loads((ROOT / "assets" / "e5_nsp" / "summary.json").read_text(encoding="utf-8"))
SAMPLE = json.loads((ROOT / "assets" / "e5_nsp" / "held_out_sample.json").read_text(encoding="utf-8"))["pairs"]
DOCS = (ROOT / "docs" / "models-chinese.md").read_text(encoding="utf-8")
COURSE = "我爱NLP。NLP很有趣。\n\n北京是首都。"  # the course's NSP example: 北京是首都 is from another document
FAST = 96  # pairs of the sample scored here (the whole sample: `train_nsp_zh.py --eval-only`)


@pytest.fixture(scope="module")
def e5_nsp():
    return models.load("e5-nsp")


def test_e5_nsp_is_berts_nsp_class_on_the_whole_e5_encoder(e5_nsp):
    m = e5_nsp.model
    assert type(m).__name__ == "BertForNextSentencePrediction" and len(m.bert.encoder.layer) == 12
    pooler = m.bert.pooler.dense.weight.detach()
    assert float(pooler.abs().sum()) > 0  # the converted e5 has a zero pooler: the overlay's is trained


def test_the_courses_pairs_are_scored_offline_in_the_right_order(e5_nsp):
    run = run_nsp(NspRequest(COURSE, 0, 32), Runtime())
    assert run.model_id == get_spec("e5-nsp").hf_id and run.language == "zh"
    by_case = {p.case: p.p_is_next for p in run.probes}
    assert by_case["true_next"] > by_case["random"]  # 我爱NLP。→ NLP很有趣。 is more IsNext than → 北京是首都。
    assert run.tokenizer_id == get_spec("e5-small").hf_id and not run.layout.unknown_texts  # e5 reads every character
    assert run.bert_unknown[0] > 0  # MiniLM's BERT tokenizer would have shown [UNK]s
    assert run.trained_here is not None and run.trained_here.accuracy == SUMMARY["held_out"]["test"]["accuracy"]
    for lang in ("en", "zh"):
        top = render.nsp_view(run, lang)[0]
        assert f"{run.trained_here.accuracy:.1%}" in top  # the measured figure beside the scores
    related, unrelated = nsp_probabilities(e5_nsp, [("我爱NLP", "NLP很有趣"), ("我爱NLP", "北京是首都")])
    assert related[0] > unrelated[0]  # the course's own pairs, without the full stops


def test_held_out_accuracy_is_at_least_what_the_docs_say(e5_nsp):
    test = SUMMARY["held_out"]["test"]
    stated = (f"{test['accuracy']:.1%}", f"{100 * test['accuracy']:.1f} %")
    assert any(s in DOCS for s in stated) and f"{test['pairs']:,}" in DOCS  # the docs state the measurement
    sample = SAMPLE[:FAST]
    scores = nsp_probabilities(e5_nsp, [(p["a"], p["b"]) for p in sample])
    right = sum((p_next > 0.5) == pair["is_next"] for (p_next, _), pair in zip(scores, sample))
    # The fast subset is small: its accuracy may fall under the full test figure by chance, not by more than
    # three standard errors (a head that lost what was measured would).
    floor = test["accuracy"] - 3 * (test["accuracy"] * (1 - test["accuracy"]) / len(sample)) ** 0.5
    assert right / len(sample) >= floor, (right, len(sample), floor)
    assert sum(p["is_next"] for p in sample) not in (0, len(sample))  # both labels are in the subset


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_e5_smalls_embeddings_view_says_it_reads_one_segment(lang):
    run = run_embeddings(EmbeddingsRequest("我爱自然语言处理", "NLP很有趣", "e5-small"), Runtime())
    assert set(run.token_type_ids) == {0} and run.single_segment and not run.segments_given
    assert run.segment_types == models.load("e5-small").model.config.type_vocab_size
    text = render.embeddings_view(run, lang)[1]
    assert render.segment_note(run, lang) in text and render.segment_note(run, lang)
