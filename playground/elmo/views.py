"""The ELMo tab's three views as backend entries: request in, frozen result out (no gradio, no HTML).

- run_elmo_mix: one word in several sentences; per-layer vectors (one forward pass, cached) and their
  scalar mix for given weights, projected on a basis fitted once on all three layers together, so
  moving a slider moves the points without a forward pass and without changing the axes.
- run_elmo_bilm: the forward and backward LMs' top guesses at each word, side by side.
- run_elmo_oov: a made-up word still gets a layer-0 vector from the character CNN; beside GloVe.

Each is `run_elmo_<view>(Elmo<View>Request, runtime) -> Elmo<View>Result`; the runtime gives the models and the
caches (tests build one with a tiny ELMo).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Sequence

import numpy as np
import torch

from playground import checks
from playground.errors import InputError
from playground.text_units import labelled_lines

from .api import BilmPredictions, bilm_predictions, embed
from .chars import batch_char_ids
from .mix import scalar_mix

if TYPE_CHECKING:  # the entries are handed a Runtime; ELMo itself is loaded by models.py, which imports this package
    from playground.runtime import Runtime

N_LAYERS = 3  # ELMo: char-CNN token layer + two biLSTM layers
MAX_SENTENCES = 24
MAX_WORDS = 60
MAX_OOV_WORDS = 8
MAX_TEXT = 20_000  # characters of the sentences (or words) of one request
MAX_WEIGHT = 100.0  # |s_j|: softmax(s) is already one-hot far below this (the page's sliders go to ±4)
MAX_GAMMA = 10.0  # the page's slider goes to 2
MAX_TOP_K = 20
KINDS = ("elmo",)
_TOKEN = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")

# Per (model, word, sentences): the word's vectors in each layer and the fixed projection basis.
LAYER_CACHE = 32  # (model, word, sentences) layer vectors kept (the runtime's "elmo-layers" cache)
# Per model: the layer-0 vectors of its whole vocabulary (for OOV neighbours).
VOCAB_CACHE = 4  # models whose vocabulary layer-0 matrix is kept (the runtime's "elmo-vocab" cache)


def tokenize(text: str) -> list[str]:
    """Words and punctuation marks, as ELMo's training text was split."""
    return _TOKEN.findall(text or "")


def _parse_lines(text: str) -> tuple[list[str], list[str]]:
    """`label | sentence` per line (label optional) -> (labels, sentences)."""
    lines = labelled_lines(text or "")
    return [label or "?" for label, _ in lines], [sentence for _, sentence in lines]


@dataclass(frozen=True)
class LayerVectors:
    vectors: np.ndarray  # (3, n_sentences, dim): the word's vector in each layer
    mean: np.ndarray  # (dim,) of all three layers' vectors together
    basis: np.ndarray  # (2, dim) principal axes of all three layers' vectors together


@dataclass(frozen=True)
class ElmoMixResult:
    model_id: str
    word: str
    labels: tuple[str, ...]
    sentences: tuple[str, ...]
    raw_weights: tuple[float, ...]  # s_0, s_1, s_2 as given
    weights: tuple[float, ...]  # softmax(s): what the mix uses
    gamma: float
    points: np.ndarray  # (n, 2): the mixed vectors, projected
    layer_points: np.ndarray  # (3, n, 2): each layer alone, same projection (where the mix moves between)
    layer_separation: tuple[float | None, ...]  # per layer: same-sense minus cross-sense cosine (None: one label)
    mix_separation: float | None
    in_vocab: bool | None  # is the word in the model's softmax vocabulary (None: no vocabulary)
    layer_vectors: np.ndarray  # (3, n, dim): the word's vector in each layer (what the API returns)
    mixed_vectors: np.ndarray  # (n, dim): gamma * sum_j softmax(s)_j * layer_j


@dataclass(frozen=True)
class ElmoBilmResult:
    model_id: str
    has_softmax: bool
    tokens: tuple[str, ...]
    predictions: BilmPredictions | None  # None when the model has no word softmax
    vocab_size: int = 0


@dataclass(frozen=True)
class OovWord:
    word: str
    in_elmo_vocab: bool | None  # None: the model has no vocabulary
    elmo_norm: float  # length of its layer-0 vector (finite: the char CNN always gives one)
    elmo_vector: np.ndarray  # layer-0 vector (projection_dim,)
    neighbours: tuple[tuple[str, float], ...]  # nearest vocabulary words by layer-0 cosine
    glove_found: bool
    glove_neighbours: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class ElmoOovResult:
    model_id: str
    glove_id: str
    words: tuple[OovWord, ...]


def separation(vectors: np.ndarray, labels) -> float | None:
    """Mean cosine between uses with the same label minus mean cosine across labels (None if not both exist)."""
    unit = vectors / (np.linalg.norm(vectors, axis=-1, keepdims=True) + 1e-12)
    same, cross = [], []
    for i, j in combinations(range(len(labels)), 2):
        (same if labels[i] == labels[j] else cross).append(float(unit[i] @ unit[j]))
    return float(np.mean(same) - np.mean(cross)) if same and cross else None


def _find(word: str, tokens: list[str], n: int) -> int:
    low = [w.lower() for w in tokens]
    if word.lower() not in low:
        raise InputError("elmo_word_missing", "Sentence {n} does not contain the word {word!r}.", n=n, word=word)
    return low.index(word.lower())


def _layer_vectors(model, word: str, sentences: tuple[tuple[str, ...], ...]) -> LayerVectors:
    """One forward pass over the sentences; the word's vector per layer; a 2-D basis fitted on all layers."""
    out = embed(model, [list(s) for s in sentences])
    vecs = np.stack([out.vectors[i][:, _find(word, list(s), i + 1)] for i, s in enumerate(sentences)], axis=1).astype(
        np.float64
    )  # (3, n, dim)
    flat = vecs.reshape(-1, vecs.shape[-1])
    mean = flat.mean(axis=0)
    # PCA by SVD of all 3n vectors at once (sklearn's PCA would refit per call; one fixed basis is the point)
    _, _, vt = np.linalg.svd(flat - mean, full_matrices=False)
    basis = vt[:2] if vt.shape[0] >= 2 else np.vstack([vt, np.zeros_like(vt)])[:2]
    return LayerVectors(vecs, mean, basis)


def _check_word(word: str) -> str:
    word = checks.text(word, "word", MAX_TEXT).strip()
    if not word or len(tokenize(word)) != 1:
        raise InputError("elmo_one_word", "Give one word (no spaces).")
    return word


# The mix view's example (the tab opens with it, and so does the ELMo lesson's notebook): one word, two senses.
DEFAULT_WORD = "bank"
DEFAULT_SENTENCES = "\n".join(
    [
        "river | they pulled the canoe up on the bank of the river",
        "river | he sat on the bank of the stream and watched the water",
        "river | the river overflowed its bank after the heavy rain",
        "river | grass grew along the muddy bank of the creek",
        "money | he deposited his money in the bank",
        "money | the bank approved the loan for the new house",
        "money | she withdrew cash from her account at the bank",
        "money | the bank charged interest on the loan",
    ]
)


@dataclass(frozen=True)
class ElmoMixRequest:
    model: str
    word: str
    sentences: str  # one per line, `sense | sentence`
    weights: Sequence[float] = (0.0, 0.0, 0.0)  # s_0, s_1, s_2 (softmaxed by the mix)
    gamma: float = 1.0


@dataclass(frozen=True)
class ElmoBilmRequest:
    model: str
    sentence: str
    top_k: int = 5


@dataclass(frozen=True)
class ElmoOovRequest:
    model: str
    words: str  # separated by spaces or commas
    glove: str = "glove"  # the static vectors shown beside (skipped when they cannot load)
    k: int = 8  # vocabulary neighbours per word


def run_elmo_mix(request: ElmoMixRequest, runtime: Runtime) -> ElmoMixResult:
    """The word's ELMo vectors in each sentence, mixed with softmax(weights) and scaled by gamma."""
    model_key = checks.model_key(request.model, "model", KINDS)
    word, weights, gamma = _check_word(request.word), request.weights, request.gamma
    labels, sents = _parse_lines(checks.text(request.sentences, "sentences", MAX_TEXT))
    if len(sents) < 2:
        raise InputError("elmo_two_sentences", "Give at least two sentences, one per line.")
    if len(sents) > MAX_SENTENCES:
        raise InputError("elmo_too_many", "At most {n} sentences.", n=MAX_SENTENCES)
    toks = tuple(tuple(tokenize(s)[:MAX_WORDS]) for s in sents)
    for i, s in enumerate(toks):
        _find(word, list(s), i + 1)
    if not isinstance(weights, (list, tuple)) or len(weights) != N_LAYERS:
        raise InputError("elmo_weights", "Give three layer weights s_0, s_1, s_2.")
    w = [checks.number(x, f"s{j}", -MAX_WEIGHT, MAX_WEIGHT) for j, x in enumerate(weights)]
    gamma = checks.number(gamma, "gamma", 0, MAX_GAMMA, low_open=True)
    lm = runtime.model(model_key)
    layers = runtime.cache("elmo-layers", LAYER_CACHE)
    lv = layers.get((model_key, word.lower(), toks), lambda: _layer_vectors(lm.model, word, toks))
    mix = scalar_mix(lv.vectors, w, gamma)
    proj = lambda x: (x - lv.mean) @ lv.basis.T  # noqa: E731  (the same axes for every slider position)
    seps = tuple(separation(lv.vectors[k], labels) for k in range(N_LAYERS))
    vocab = lm.model.vocab
    return ElmoMixResult(
        model_id=lm.spec.hf_id,
        word=word,
        labels=tuple(labels),
        sentences=tuple(sents),
        raw_weights=tuple(w),
        weights=tuple(float(x) for x in mix.weights),
        gamma=float(gamma),
        points=proj(mix.vectors.astype(np.float64)).astype(np.float32),
        layer_points=np.stack([proj(lv.vectors[k]) for k in range(N_LAYERS)]).astype(np.float32),
        layer_separation=seps,
        mix_separation=separation(mix.vectors, labels),
        in_vocab=None if vocab is None else word.lower() in {v.lower() for v in vocab},
        layer_vectors=lv.vectors.astype(np.float32),
        mixed_vectors=mix.vectors,
    )


def run_elmo_bilm(request: ElmoBilmRequest, runtime: Runtime) -> ElmoBilmResult:
    """Each direction's top guesses for every word of `sentence`, from its one side of context."""
    model_key = checks.model_key(request.model, "model", KINDS)
    tokens = tokenize(checks.text(request.sentence, "sentence", MAX_TEXT))[:MAX_WORDS]
    top_k = checks.whole(request.top_k, "top_k", 1, MAX_TOP_K)
    if not tokens:
        raise InputError("elmo_empty", "Type a sentence.")
    lm = runtime.model(model_key)
    model = lm.model
    if not model.has_softmax:
        return ElmoBilmResult(lm.spec.hf_id, False, tuple(tokens), None)
    return ElmoBilmResult(lm.spec.hf_id, True, tuple(tokens), bilm_predictions(model, tokens, top_k), len(model.vocab))


@torch.no_grad()
def _layer0(model, words: list[str]) -> np.ndarray:
    """Context-free char-CNN vectors of words (no sentence markers, no LSTM)."""
    ids = torch.from_numpy(batch_char_ids([[w] for w in words], add_boundaries=False))[:, 0]
    return model.module.char_cnn.encode_unique(ids).numpy().astype(np.float32)


def _vocab_matrix(model) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """Vocabulary words, their layer-0 vectors centred on the vocabulary mean and normalised, and that mean.

    Centred: the char-CNN vectors share one large common direction (raw cosines are all ~0.99), which would
    make every word everyone's neighbour; the neighbours are by cosine after removing it.
    """
    words = tuple(w for w in model.vocab if not (w.startswith("<") and w.endswith(">")))
    mat = np.concatenate([_layer0(model, list(words[i : i + 512])) for i in range(0, len(words), 512)])
    mean = mat.mean(axis=0)
    mat = mat - mean
    return words, mat / (np.linalg.norm(mat, axis=1, keepdims=True) + 1e-12), mean


def _nearest(query: np.ndarray, words, unit: np.ndarray, k: int, skip: str) -> tuple[tuple[str, float], ...]:
    sims = unit @ (query / (np.linalg.norm(query) + 1e-12))
    out = []
    for i in np.argsort(-sims):
        if words[i].lower() != skip.lower():
            out.append((words[i], float(sims[i])))
        if len(out) == k:
            break
    return tuple(out)


def run_elmo_oov(request: ElmoOovRequest, runtime: Runtime) -> ElmoOovResult:
    """Made-up or misspelled words: ELMo's char CNN gives each a vector; GloVe has one only for known words."""
    model_key, words, glove_key = checks.model_key(request.model, "model", KINDS), request.words, request.glove
    k = checks.whole(request.k, "k", 1, 50)
    items = [w for w in re.split(r"[\s,;，、]+", checks.text(words, "words", MAX_TEXT)) if w][:MAX_OOV_WORDS]
    if not items:
        raise InputError("elmo_empty_words", "Type one or more words, separated by spaces or commas.")
    lm = runtime.model(model_key)
    model = lm.model
    vecs = _layer0(model, items)
    if model.vocab is not None:
        vocab_words, unit, centre = runtime.cache("elmo-vocab", VOCAB_CACHE).get(model_key, lambda: _vocab_matrix(model))
        known = {w.lower() for w in model.vocab}
    else:
        vocab_words, unit, centre, known = (), None, None, None
    glove = None
    try:
        glove = runtime.model(glove_key)
    except InputError:  # GloVe not installed (or not listed): the ELMo side still works
        glove = None
    out = []
    for w, v in zip(items, vecs):
        gv = glove.model.lookup(w) if glove is not None else None
        g_nn: tuple = ()
        if gv is not None:
            nn = glove.model.nearest(w, 5)
            g_nn = tuple((x, float(c)) for x, c in zip(nn.words, nn.cosines))
        out.append(
            OovWord(
                word=w,
                in_elmo_vocab=None if known is None else w.lower() in known,
                elmo_norm=float(np.linalg.norm(v)),
                elmo_vector=v,
                neighbours=_nearest(v - centre, vocab_words, unit, k, w) if unit is not None else (),
                glove_found=gv is not None,
                glove_neighbours=g_nn,
            )
        )
    return ElmoOovResult(lm.spec.hf_id, glove.spec.hf_id if glove is not None else glove_key, tuple(out))
