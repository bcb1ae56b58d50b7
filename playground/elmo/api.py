"""Pure backend entry points for ELMo: layer vectors for sentences, and the biLM's predictions.

Every function takes a batch (a list of sentences) so concurrent classroom
requests can share one forward pass; the single-sentence helpers wrap it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from playground import checks

from .chars import batch_char_ids
from .model import ElmoModel

DEFAULT_BATCH = 64


@dataclass(frozen=True)
class ElmoLayers:
    """Per sentence, an array (3, n_tokens, 2 * projection_dim).

    Layer 0: the char-CNN token vector, written twice ([v; v]) so all layers
    have one width, as the original does; it ignores context. Layers 1 and 2:
    [forward LSTM; backward LSTM] of that layer. Sentence markers are dropped.
    """

    model_name: str
    tokens: tuple[tuple[str, ...], ...]
    vectors: tuple[np.ndarray, ...]


@dataclass(frozen=True)
class DirectionPrediction:
    words: tuple[str, ...]  # top-k, most probable first
    probs: tuple[float, ...]
    actual_prob: float  # probability of the token actually there (of <UNK> if out of vocabulary)


@dataclass(frozen=True)
class TokenPrediction:
    token: str
    in_vocab: bool
    forward: DirectionPrediction  # from the left context only
    backward: DirectionPrediction  # from the right context only


@dataclass(frozen=True)
class BilmPredictions:
    model_name: str
    tokens: tuple[str, ...]
    positions: tuple[TokenPrediction, ...]


def _check_sentences(sentences) -> list[list[str]]:
    if isinstance(sentences, str) or not isinstance(sentences, (list, tuple)) or not sentences:
        raise ValueError("Give a non-empty list of sentences, each a list of words.")
    out = []
    for i, s in enumerate(sentences):
        if isinstance(s, str) or not isinstance(s, (list, tuple)) or not s:
            raise ValueError(f"Sentence {i + 1} is empty or not a list of words.")
        if not all(isinstance(w, str) and w for w in s):
            raise ValueError(f"Sentence {i + 1} has a word that is not a non-empty string.")
        out.append(list(s))
    return out


@torch.no_grad()
def _run(model: ElmoModel, sentences: list[list[str]], batch_size: int):
    """Yields, per chunk of similar-length sentences: (their indices, token vectors, [(fwd, bwd) per layer]).

    Tensors are (chunk, longest + 2, dim), markers included, padded rows zero.
    Grouping by length only saves padding; results do not depend on it.
    """
    module = model.module
    module.eval()
    order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
    for start in range(0, len(order), batch_size):
        idx = order[start : start + batch_size]
        tokens, layers, _ = module(torch.from_numpy(batch_char_ids([sentences[i] for i in idx])))
        yield idx, tokens, layers


def embed(model: ElmoModel, sentences: list[list[str]], batch_size: int = DEFAULT_BATCH) -> ElmoLayers:
    """All ELMo layers for pre-tokenized sentences, in one batched pass per `batch_size` sentences."""
    sentences = _check_sentences(sentences)
    vectors: list[np.ndarray | None] = [None] * len(sentences)
    for idx, tok, layers in _run(model, sentences, batch_size):
        stacked = torch.stack([torch.cat([tok, tok], dim=-1)] + [torch.cat([f, b], dim=-1) for f, b in layers], dim=1)
        for row, i in enumerate(idx):
            vectors[i] = stacked[row, :, 1 : len(sentences[i]) + 1].numpy().copy()  # drop <S>, </S>, padding
    return ElmoLayers(model_name=model.name, tokens=tuple(tuple(s) for s in sentences), vectors=tuple(vectors))


def _direction(probs: torch.Tensor, actual: int | None, top_k: int, vocab) -> DirectionPrediction:
    p, ix = probs.topk(top_k)
    return DirectionPrediction(
        words=tuple(vocab[j] for j in ix.tolist()),
        probs=tuple(float(x) for x in p),
        # a vocabulary without <UNK> gives an unknown word no probability at all
        actual_prob=float(probs[actual]) if actual is not None else 0.0,
    )


def bilm_predictions_batch(model: ElmoModel, sentences: list[list[str]], top_k: int = 5) -> list[BilmPredictions]:
    """For each word: the forward LM's guess from the words before it, the backward LM's from the words after."""
    if not model.has_softmax:
        raise ValueError(
            f"The ELMo model {model.name!r} has no word softmax (the published AllenNLP files ship only the "
            "encoder), so it cannot predict words. Use a model trained with a vocabulary, such as the bundled one."
        )
    top_k = checks.whole(top_k, "top_k", 1, 10_000)
    sentences = _check_sentences(sentences)
    vocab = model.vocab
    w2i = {w: i for i, w in enumerate(vocab)}
    unk = w2i.get("<UNK>")
    k = min(top_k, len(vocab))
    results: list[BilmPredictions | None] = [None] * len(sentences)
    with torch.no_grad():
        for idx, _tok, layers in _run(model, sentences, DEFAULT_BATCH):
            fo, bo = layers[-1]
            # forward output at marker-index j predicts word j+1; backward at j predicts word j-1;
            # one softmax call for the whole chunk (padded rows are computed and ignored)
            f_all = torch.softmax(model.module.softmax(fo[:, :-2]), dim=-1)
            b_all = torch.softmax(model.module.softmax(bo[:, 2:]), dim=-1)
            for row, i in enumerate(idx):
                results[i] = _sentence_predictions(model, sentences[i], f_all[row], b_all[row], w2i, unk, k)
    return results


def _sentence_predictions(model, sentence, fp, bp, w2i, unk, k) -> BilmPredictions:
    vocab = model.vocab
    positions = []
    for j, w in enumerate(sentence):
        target = w2i.get(w, unk)
        positions.append(
            TokenPrediction(
                token=w,
                in_vocab=w in w2i,
                forward=_direction(fp[j], target, k, vocab),
                backward=_direction(bp[j], target, k, vocab),
            )
        )
    return BilmPredictions(model_name=model.name, tokens=tuple(sentence), positions=tuple(positions))


def bilm_predictions(model: ElmoModel, sentence: list[str], top_k: int = 5) -> BilmPredictions:
    return bilm_predictions_batch(model, [sentence], top_k)[0]
