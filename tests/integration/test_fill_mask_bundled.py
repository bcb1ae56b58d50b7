"""Fill-mask and static vectors on the bundled real weights, offline."""

import numpy as np
import pytest

from playground.fill_mask.causal import fill_blanks_causal
from playground.runtime import Runtime
from playground.fill_mask import FillMaskRequest, default_models, run_fill_mask


@pytest.fixture(scope="module")
def probes(smollm):
    texts = [
        "The capital of France is [MASK].",
        "I was thirsty, so I drank a glass of [MASK].",
        "He opened the [MASK] and walked into the room.",
    ]
    return dict(zip(texts, fill_blanks_causal(smollm, texts, top_k=5)))


@pytest.mark.parametrize(
    "text, answers",
    [
        ("The capital of France is [MASK].", {"Paris"}),
        ("I was thirsty, so I drank a glass of [MASK].", {"water", "beer", "wine", "milk", "juice", "lemonade"}),
        ("He opened the [MASK] and walked into the room.", {"door", "doors", "gate"}),
    ],
)
def test_unambiguous_answers_are_in_the_top5(probes, text, answers):
    for reading in (probes[text].left, probes[text].whole):
        assert answers & {p.word for p in reading.predictions[0]}, (reading.method, reading.predictions[0])


def test_whole_sentence_uses_the_right_context(smollm):
    """'The [MASK] barked': left of the blank is only 'The'; the whole sentence says it is a dog."""
    (fill,) = fill_blanks_causal(smollm, ["The [MASK] barked at the mailman."], top_k=5)
    assert fill.whole.predictions[0][0].word == "dog"
    assert "dog" not in [p.word for p in fill.left.predictions[0][:1]]


def test_offline_the_backend_entry_reads_the_bundled_causal_model_both_ways(smollm):
    """With no hub, the default selection is the bundled masked LMs trained here; SmolLM2 is read both ways."""
    assert default_models() == ["minilm-mlm", "e5-mlm"]
    run = run_fill_mask(FillMaskRequest("The capital of France is [MASK].", ("smollm2-instruct",)), Runtime())
    (fill,) = run.fills
    assert [r.method for r in fill.readings] == ["left-context", "whole-sentence"]
    assert fill.readings[1].predictions[0][0].word == "Paris"
    assert [n.code for n in run.notes] == ["pool"] and run.notes[0].params["n"] == fill.pool_size


def test_glove_neighbours_of_bank_are_financial(glove):
    near = set(glove.model.nearest("bank", k=10).words)
    assert (
        len(near & {"banks", "banking", "credit", "financial", "lending", "loans", "investment", "central", "deposit", "fund"})
        >= 3
    )


def test_minilm_bank_vectors_cluster_by_sense(minilm):
    import torch

    lm = minilm
    sentences = {
        "river": [
            "He sat on the bank of the river.",
            "The river bank was muddy.",
            "Fish swam near the grassy bank of the stream.",
        ],
        "money": ["She deposited money at the bank.", "The bank approved my loan.", "He works as a teller at the bank downtown."],
    }
    vecs = {}
    for sense, texts in sentences.items():
        for text in texts:
            enc = lm.tokenizer(text, return_tensors="pt")
            with torch.no_grad():
                hidden = lm.model(**enc).last_hidden_state[0]
            pos = lm.tokenizer.convert_ids_to_tokens(enc.input_ids[0]).index("bank")
            vecs.setdefault(sense, []).append(hidden[pos].numpy())
    unit = {s: [v / np.linalg.norm(v) for v in vs] for s, vs in vecs.items()}
    within = np.mean([a @ b for s in unit for i, a in enumerate(unit[s]) for b in unit[s][i + 1 :]])
    across = np.mean([a @ b for a in unit["river"] for b in unit["money"]])
    assert within > across


@pytest.mark.parametrize("text", ["我[MASK]自然语言处理。", "今天天气很[MASK]。", "[MASK]天我去北京。"])
def test_gpt_zh_fills_a_chinese_blank_with_chinese_characters(text):
    """Issue 36: gpt-zh's candidates for a Chinese blank were `Debian`, `LibreOffice` (space-led Latin words)."""
    from playground.text_units import stands_alone

    run = run_fill_mask(FillMaskRequest(text, ("gpt-zh",), 5), Runtime())
    (fill,) = run.fills
    for reading in fill.readings:
        (preds,) = reading.predictions
        assert len(preds) == 5 and all(all(stands_alone(ch) for ch in p.word) for p in preds), (reading.method, preds)
