"""Exercise 1's cosine curve gets a reference (issue 37 low item): per layer, the word in one sentence against the
other words of the other sentence, so 0.95 can be read against what unrelated tokens score at that layer."""

import numpy as np
import torch

from playground.polysemy import PolysemyRequest, run_polysemy
from playground.runtime import Runtime
from playground.ui.polysemy import render

PAIR = "river | he sat on the bank of the river .\nmoney | she paid cash at the bank ."


def _run(lm):
    return run_polysemy(PolysemyRequest("bank", PAIR, (lm.spec.key,)), Runtime(load=lambda key: lm))


def _cos(a, b):
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_the_reference_is_the_mean_cosine_of_the_word_and_the_other_sentences_other_tokens(tiny_encoder):
    result = _run(tiny_encoder)
    contextual = next(v for v in result.models if v.source == "contextual")
    (pair,) = contextual.pair_cosines
    tok, texts = tiny_encoder.tokenizer, [line.split(" | ")[1] for line in PAIR.splitlines()]
    hidden, words, others = [], [], []
    for text in texts:  # an independent computation: each sentence alone, its tokens found by text
        enc = tok(text, return_tensors="pt")
        with torch.no_grad():
            states = torch.stack(tiny_encoder.model(**enc, output_hidden_states=True).hidden_states)[:, 0].numpy()
        pieces = tok.convert_ids_to_tokens(enc.input_ids[0])
        at = pieces.index("bank")
        hidden.append(states)
        words.append(at)
        others.append([j for j, p in enumerate(pieces) if j != at and p not in tok.all_special_tokens])
    expected = []
    for layer in range(len(pair["by_layer"])):
        one = np.mean([_cos(hidden[0][layer, words[0]], hidden[1][layer, u]) for u in others[1]])
        two = np.mean([_cos(hidden[1][layer, words[1]], hidden[0][layer, u]) for u in others[0]])
        expected.append((one + two) / 2)
    np.testing.assert_allclose(pair["reference_by_layer"], expected, atol=1e-4)
    assert not any("reference_by_layer" in p for v in result.models if v.source != "contextual" for p in v.pair_cosines)


def test_the_pair_figure_draws_the_reference_dotted_and_names_it_in_both_languages(tiny_encoder):
    result = _run(tiny_encoder)
    for lang, words in (("en", "vs the other words"), ("zh", "与其他词")):
        figure = render.figures(result, lang)[0]
        dotted = [trace for trace in figure.data if trace.line.dash == "dot"]
        assert len(dotted) == 1 and words in dotted[0].name, [t.name for t in figure.data]
        assert ("dotted reference" if lang == "en" else "虚线是参照") in render.notes(result, lang)  # what it is


def test_the_pair_figure_keeps_its_titles_short_for_a_phone(tiny_encoder):
    """Issue 37 item 7: on a 390 px phone the long title, the pair's panel title, the mode bar and a wrapped axis
    title collided and left the plot ~150 px high. One pair: no panel title; titles short; the legend below, with
    its room added to the height (the layout in Chromium: tests/e2e/test_polysemy.py)."""
    result = _run(tiny_encoder)
    for lang in ("en", "zh"):
        figure = render.figures(result, lang)[0]
        assert not figure.layout.annotations  # one pair: the figure's title names what it shows
        title, axis = figure.layout.title.text, figure.layout.xaxis.title.text
        width = sum(2 if ord(c) > 0x2E80 else 1 for c in title + axis)  # a CJK character is about two Latin ones
        assert len(title) <= 45 and len(axis) <= 30 and width <= 80, (title, axis)
        assert figure.layout.legend.orientation == "h" and figure.layout.height > 380
        assert figure.layout.modebar.orientation == "v"  # not across the title's line
