"""Polysemy backend on tiny random models: alignment, static vs contextual vectors, scores, projection."""

import numpy as np
import pytest

from playground.alignment import align, find_word, parse_line, parse_sentences
from playground.runtime import Runtime
from playground.polysemy import (
    PolysemyRequest,
    contextual_vectors,
    project,
    run_polysemy,
    sense_scores,
    static_vectors,
)
from playground.errors import InputError
from playground.polysemy.readings import separating_layer

BANK = """money | she deposited the money in the bank .
money | apple released a new phone and the bank paid .
river | he sat on the bank of the river .
river | the river bank was muddy after the rain ."""


def run(lms, word, sentences, **options):
    """run_polysemy with tiny models standing in for registry keys (the keys are the tiny models' own)."""
    by_key = {lm.spec.key: lm for lm in lms}
    request = PolysemyRequest(word, sentences, tuple(by_key), **options)
    return run_polysemy(request, Runtime(load=by_key.__getitem__))


def aligned_pieces(lm, line, word):
    target = parse_line(line, word)
    vectors, _ = contextual_vectors(lm, [target, target])
    return vectors.pieces[0]


def test_parse_labels_markers_and_missing():
    targets = parse_sentences("bank", "river | the bank [[bank]] x\nno word here\nmoney|the Bank.")
    by_text = {t.text: t for t in targets}
    marked = by_text["the bank bank x"]
    assert marked.label == "river" and marked.span == (9, 13)
    assert by_text["no word here"].span is None and by_text["no word here"].label == ""
    assert by_text["the Bank."].span == (4, 8)
    assert [t.label for t in targets] == ["river", "", "money"]  # first-seen order of labels


def test_targets_are_grouped_by_sense():
    targets = parse_sentences("bank", "a | bank 1\nb | bank 2\na | bank 3")
    assert [t.label for t in targets] == ["a", "a", "b"]


def test_whole_words_only_but_chinese_inside_a_run():
    assert find_word("the banking crisis hit the bank", "bank") == (27, 31)
    assert find_word("embankment", "bank") is None
    assert find_word("我在银行存钱", "银行") == (2, 4)


@pytest.mark.parametrize("count", [1, 65])
def test_sentence_count_limits(count):
    with pytest.raises(InputError) as err:
        parse_sentences("bank", "\n".join(["the bank"] * count))
    assert err.value.code == "polysemy_count"


def test_align_uses_overlap_and_skips_specials():
    offsets = [(0, 0), (0, 3), (3, 8), (8, 9), (0, 0)]
    assert align(offsets, [1, 0, 0, 0, 1], (4, 8)) == [2]
    assert align(offsets, [1, 0, 0, 0, 1], (0, 9)) == [1, 2, 3]


@pytest.mark.parametrize("word", ["riverbanks", "untokenizable"])
@pytest.mark.parametrize("fixture", ["tiny_mlm", "tiny_roberta", "tiny_clm", "tiny_llama"])
def test_multi_piece_word_is_covered_exactly(fixture, word, request):
    lm = request.getfixturevalue(fixture)
    pieces = aligned_pieces(lm, f"the {word} were muddy .", word)
    assert len(pieces) > 1  # the tiny vocabularies split it
    assert lm.tokenizer.convert_tokens_to_string(pieces).strip() == word


@pytest.mark.parametrize("fixture", ["tiny_mlm", "tiny_clm"])
def test_marker_picks_the_second_occurrence(fixture, request):
    lm = request.getfixturevalue(fixture)
    first, marked = parse_line("the bank and the bank .", "bank"), parse_line("the bank and the [[bank]] .", "bank")
    vectors, _ = contextual_vectors(lm, [first, marked])
    last = vectors.layers[-1]
    assert not np.allclose(last[0], last[1])  # same text, different occurrence -> different context


def test_chinese_word_aligns_to_its_characters(tiny_mlm, tiny_clm):
    assert aligned_pieces(tiny_mlm, "我在银行存钱。", "银行") == ["银", "行"]
    pieces = aligned_pieces(tiny_clm, "我在银行存钱。", "银行")
    assert tiny_clm.tokenizer.convert_tokens_to_string(pieces) == "银行"  # byte pieces of the two characters


def test_static_baselines_ignore_context(tiny_mlm, tiny_glove):
    targets = parse_sentences("bank", BANK)
    glove = static_vectors(tiny_glove, "bank", targets)
    contextual, rows = contextual_vectors(tiny_mlm, targets)
    for static in (glove, rows):
        assert static.layers.shape[0] == 1
        assert np.allclose(static.layers[0], static.layers[0][0])
    assert not np.allclose(contextual.layers[-1], contextual.layers[-1][0])


def test_static_score_is_zero_and_accuracy_is_chance(tiny_glove):
    (glove,) = run([tiny_glove], "bank", BANK).models
    assert glove.separation == glove.separation_by_layer[0] == pytest.approx(0.0, abs=1e-6)
    assert glove.nn_accuracy == pytest.approx(1 / 3)  # 1 of 3 tied neighbours shares the sense


def test_glove_out_of_vocabulary_is_a_note_not_a_crash(tiny_glove):
    (view,) = run([tiny_glove], "zzz", "a | zzz one\nb | zzz two").models
    assert view.rows == [] and [n.code for n in view.notes] == ["not_in_vocabulary"]
    assert view.notes[0].params == {"word": "zzz"}


@pytest.mark.parametrize("dims", [2, 3])
def test_shapes(tiny_mlm, tiny_glove, dims):
    result = run([tiny_mlm, tiny_glove], "bank", BANK + "\nno word at all", dims=dims)
    keys = [v.key for v in result.models]
    assert keys == ["tiny-bert", "tiny-bert:input", "tiny-glove"]
    for v in result.models:
        n = len(v.rows)
        assert n == 4 and v.coords.shape == (n, dims) and v.similarity.shape == (n, n)
        assert np.allclose(np.diag(v.similarity), 1.0, atol=1e-5)
        assert v.separation_by_layer.shape == v.nn_accuracy_by_layer.shape == (v.num_layers + 1,)
    assert result.models[0].layer == 2 and result.models[0].num_layers == 2  # default: last layer of a 2-layer model


def test_layer_choice_and_first_piece_pooling(tiny_mlm):
    lines = "a | unbelievable tokenization splits\nb | tokenization splits words"
    first = run([tiny_mlm], "tokenization", lines, layer=1, pooling="first", input_embeddings=False)
    mean = run([tiny_mlm], "tokenization", lines, layer=1, pooling="mean", input_embeddings=False)
    assert first.models[0].layer == 1 and len(first.models) == 1
    assert not np.allclose(first.models[0].vectors, mean.models[0].vectors)


def test_bad_options_and_word_nowhere(tiny_mlm):
    with pytest.raises(InputError):
        run([tiny_mlm], "bank", BANK, projection="umap")
    with pytest.raises(InputError) as err:
        run([tiny_mlm], "cat", "a | dog\nb | bird")
    assert err.value.code == "polysemy_not_found"


def test_sentence_longer_than_the_model_is_refused(tiny_mlm):
    long = "bank " * 80  # tiny BERT has 64 positions
    with pytest.raises(InputError) as err:
        run([tiny_mlm], "bank", f"a | {long}\nb | the bank")
    assert err.value.code == "polysemy_too_long"


def test_scores_on_hand_made_vectors():
    vectors = np.array([[1, 0], [0.9, 0.1], [0, 1], [0.1, 0.9]])
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    sim = unit @ unit.T
    separation, accuracy = sense_scores(sim, ["a", "a", "b", "b"])
    assert separation > 0.5 and accuracy == 1.0
    assert np.isnan(sense_scores(sim, ["a", "a", "a", ""])[0])  # one sense: nothing to separate


def test_separating_layer():
    assert separating_layer(np.array([0.5, 1.0, 0.6, 0.95, 1.0])) == 3
    assert separating_layer(np.array([1.0, 1.0])) == 0
    assert separating_layer(np.array([1.0, 0.5])) is None


def test_projection_pca_tsne_and_collapsed_points():
    rng = np.random.default_rng(0)
    points = rng.standard_normal((8, 16))
    assert project(points, "pca", 3).shape == (8, 3)
    assert np.allclose(project(points, "tsne", 2, seed=1), project(points, "tsne", 2, seed=1))
    assert np.allclose(project(np.ones((5, 4)), "pca", 2), 0.0)
    assert project(points[:2], "pca", 3).shape == (2, 3)


@pytest.mark.parametrize("fixture,sees_right", [("tiny_mlm", True), ("tiny_clm", False), ("tiny_llama", False)])
def test_only_bidirectional_models_see_the_right_context(fixture, sees_right, request):
    lm = request.getfixturevalue(fixture)
    pair = [
        parse_line("he sat on the bank of the river .", "bank"),
        parse_line("he sat on the bank of the money in a tree .", "bank"),
    ]
    vectors, _ = contextual_vectors(lm, pair)  # different lengths: padding must not leak into the vectors either
    assert np.allclose(vectors.layers[-1][0], vectors.layers[-1][1], atol=1e-5) != sees_right
