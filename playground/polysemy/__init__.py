"""Contextual vs static word vectors: one word, many sentences, one vector per sentence per layer.

The demo's one entry is `run_polysemy(PolysemyRequest, runtime) -> PolysemyRun`, called by the page and the API;
the API returns the run as JSON (readings included: playground.polysemy.readings) and the tab renders it.

A contextual model gives "bank" a different vector in every sentence; GloVe and the
model's own input-embedding rows give the same one. Sense-separation scores per layer
show where in the network the senses come apart.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playground import checks, device, settings
from playground.alignment import Target, align, parse_sentences
from playground.errors import InputError
from playground.models import LoadedModel
from playground.polysemy.readings import Reading, read_run
from playground.runtime import Runtime
from playground.text_units import not_reading_chinese

KINDS = ("encoder", "masked", "causal")  # models with hidden states worth following
POOLING = ("mean", "first")
PROJECTIONS = ("pca", "tsne")
TSNE_MIN_POINTS = 5
MAX_MODELS = 12  # models in one request (the registry holds fewer; a longer list is a mistake or an attack)
MAX_TEXT = 20_000  # characters of sentences in one request (64 lines of ~300 characters)
MAX_WORD = 100  # characters of the target word


@dataclass(frozen=True)
class Note:
    """Why a model's panel lacks something, as a code and its parameters: the renderer words it in either language."""

    code: str  # "no_piece", "not_in_vocabulary", "unknown_word" (the word became the unknown token) or
    # "same_input" (sentences that are one and the same token sequence for this model): the last two void a reading
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SenseVectors:
    """Vectors of the target word in each found sentence, at every layer of one model (or one static table)."""

    key: str  # "minilm", "minilm:input", "glove"
    model_id: str
    label: str
    source: str  # "contextual", "input" (the model's input-embedding rows) or "static"
    family_kind: str  # the registry kind ("encoder", "masked", "causal", "static")
    device: str
    rows: list[int]  # indices into the targets of the sentences that have a vector
    pieces: list[list[str]]  # the subword pieces pooled for each row
    layers: np.ndarray  # (n_layers + 1, len(rows), hidden); layer 0 = embeddings
    notes: tuple[Note, ...] = ()  # why sentences are missing, if any; unknown tokens and identical inputs
    model_label: str = ""  # the registry label alone (`label` adds " · input embeddings" for the input rows)


@dataclass(frozen=True)
class PolysemyRequest:
    """One run of the polysemy demo: a word, its sentences (one per line, `label | text`), the models and the view."""

    word: str
    sentences: str | tuple[str, ...]
    models: tuple[str, ...]
    input_embeddings: bool = True  # also each transformer's input-embedding rows (its static vector)
    layer: int | str = "last"  # "last" or a layer number (0 = embeddings); a model without it shows its last
    pooling: str = "mean"
    projection: str = "pca"
    dims: int = 2
    seed: int = 0


@dataclass(frozen=True)
class Sentence:
    index: int  # position after grouping by sense (what `rows` refer to)
    label: str
    text: str
    span: tuple[int, int] | None  # characters of the word in `text`; None when not found


@dataclass(frozen=True)
class ModelView:
    """One model's (or static table's) panel: the plotted layer's points and similarities, scores at every layer."""

    key: str
    model_id: str
    label: str
    source: str
    device: str
    layer: int  # the layer shown
    num_layers: int  # 0 for a single-vector baseline
    layer_fallback: bool  # the requested layer does not exist in this model: its last layer is shown
    rows: list[int]
    pieces: list[list[str]]
    coords: np.ndarray  # (len(rows), dims)
    similarity: np.ndarray  # (len(rows), len(rows)) cosine at the shown layer
    separation: float  # at the shown layer: mean within-sense cosine minus mean cross-sense cosine
    nn_accuracy: float  # at the shown layer: leave-one-out nearest-neighbour sense accuracy
    separation_by_layer: np.ndarray  # (num_layers + 1,)
    nn_accuracy_by_layer: np.ndarray  # (num_layers + 1,)
    notes: tuple[Note, ...]
    family_kind: str = field(default="", repr=False)  # the registry kind: the reading adds a caveat for causal models
    model_label: str = field(default="", repr=False)  # the registry label alone, for the translated panel titles
    vectors: np.ndarray = field(default=None, repr=False)  # (len(rows), hidden) at the shown layer, for the CSV export
    # With few sentences (FEW or fewer), the cosine between each pair of uses at every layer: what exercise 1 asks
    # for. [{"pair": [sentence a, sentence b] (1-based), "by_layer": [cos at layer 0, 1, ...]}]
    pair_cosines: list = field(default_factory=list)


@dataclass(frozen=True)
class PolysemyRun:
    word: str
    pooling: str
    projection: str
    dims: int
    sentences: list[Sentence]
    models: list[ModelView]
    readings: tuple[Reading, ...] = ()  # what the numbers say, per panel and for the run (playground.polysemy.readings)
    notes: tuple[Note, ...] = ()  # about the run: "not_chinese" (a Chinese word, models not trained on Chinese)


def _pool(hidden: np.ndarray, positions: list[int], pooling: str) -> np.ndarray:
    return hidden[..., positions[0], :] if pooling == "first" else hidden[..., positions, :].mean(axis=-2)


def contextual_vectors(lm: LoadedModel, targets: list[Target], pooling: str = "mean") -> tuple[SenseVectors, SenseVectors]:
    """Hidden states of all layers for the target word, in one padded forward pass; plus the input-embedding rows."""
    import torch

    tok, spec = lm.tokenizer, lm.spec
    limit = min(spec.max_length or 10**9, getattr(lm.model.config, "max_position_embeddings", None) or 10**9)
    found = [i for i, t in enumerate(targets) if t.span is not None]
    enc = tok([targets[i].text for i in found], return_offsets_mapping=True, return_special_tokens_mask=True)
    rows, positions, ids = [], [], []
    for i, input_ids, offsets, special in zip(found, enc["input_ids"], enc["offset_mapping"], enc["special_tokens_mask"]):
        if len(input_ids) > limit:
            raise InputError(
                "polysemy_too_long",
                "Sentence {n} is {tokens} tokens long; {model} reads at most {limit}.",
                n=i + 1,
                tokens=len(input_ids),
                model=spec.label,
                limit=limit,
            )
        where = align(offsets, special, targets[i].span)
        if where:
            rows.append(i)
            positions.append(where)
            ids.append(input_ids)
    if not rows:
        raise InputError("polysemy_not_aligned", "No token of {model} covers the word in any sentence.", model=spec.label)
    # Padded by hand on the right: causal tokenizers (GPT-2) have no pad token, and right
    # padding leaves the real tokens' positions (and so their vectors) unchanged.
    width = max(map(len, ids))
    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
    input_ids = torch.tensor([x + [pad] * (width - len(x)) for x in ids], device=lm.device)
    mask = torch.tensor([[1] * len(x) + [0] * (width - len(x)) for x in ids], device=lm.device)
    with torch.inference_mode():
        out = lm.model(input_ids=input_ids, attention_mask=mask, output_hidden_states=True)
        hidden = torch.stack(out.hidden_states, dim=1).float().cpu().numpy()  # (batch, layers + 1, T, H)
        table = lm.model.get_input_embeddings()(input_ids).float().cpu().numpy()  # (batch, T, H)
    layers = np.stack([_pool(h, p, pooling) for h, p in zip(hidden, positions)], axis=1)  # (layers + 1, n, H)
    static = np.stack([_pool(e, p, pooling) for e, p in zip(table, positions)])[None]  # (1, n, H)
    pieces = [tok.convert_ids_to_tokens([x[j] for j in p]) for x, p in zip(ids, positions)]
    missing = len(found) - len(rows)
    notes = (Note("no_piece", {"n": missing}),) if missing else ()
    notes += input_notes(ids, positions, rows, tok.unk_token_id, tok.unk_token)
    common = dict(
        model_id=spec.hf_id,
        family_kind=spec.kind,
        device=lm.device,
        rows=rows,
        pieces=pieces,
        notes=notes,
        model_label=spec.label,
    )
    return (
        SenseVectors(spec.key, label=spec.label, source="contextual", layers=layers, **common),
        SenseVectors(f"{spec.key}:input", label=f"{spec.label} · input embeddings", source="input", layers=static, **common),
    )


def input_notes(
    ids: list[list[int]], positions: list[list[int]], rows: list[int], unk_id: int | None, unk_token: str | None
) -> tuple[Note, ...]:
    """What makes a model's vectors say nothing about the senses, from its own token ids.

    "unknown_word": the target's pieces include the unknown token (MiniLM reads 银 as [UNK]), so the model
    never saw the word. "same_input": sentences that are one and the same token sequence, target at the
    same place (for MiniLM 我在银行存钱 and 我在银行散步 both read 我 在 [UNK] 行 [UNK] [UNK]), so their vectors are
    equal whatever the model: cosine 1 is the tokenizer's doing, not a finding. Sentence numbers are 1-based.
    """
    notes = []
    if unk_id is not None:
        unknown = [row + 1 for row, x, p in zip(rows, ids, positions) if any(x[j] == unk_id for j in p)]
        if unknown:
            notes.append(Note("unknown_word", {"rows": unknown, "token": unk_token or "?"}))
    groups: dict[tuple, list[int]] = {}
    for row, x, p in zip(rows, ids, positions):
        groups.setdefault((tuple(x), tuple(p)), []).append(row + 1)
    same = [g for g in groups.values() if len(g) > 1]
    if same:
        notes.append(Note("same_input", {"groups": same}))
    return tuple(notes)


def static_vectors(lm: LoadedModel, word: str, targets: list[Target]) -> SenseVectors:
    """The static table's one vector for `word`, repeated for every sentence where the word occurs."""
    vector = lm.model.lookup(word)
    rows = [i for i, t in enumerate(targets) if t.span is not None] if vector is not None else []
    notes = () if vector is not None else (Note("not_in_vocabulary", {"word": word}),)
    layers = np.tile(vector, (1, len(rows), 1)) if rows else np.zeros((1, 0, lm.model.dim), np.float32)
    return SenseVectors(
        lm.spec.key,
        lm.spec.hf_id,
        lm.spec.label,
        "static",
        lm.spec.kind,
        lm.device,
        rows,
        [[word.lower()]] * len(rows),
        layers,
        notes,
        lm.spec.label,
    )


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
    return np.clip(unit @ np.swapaxes(unit, -1, -2), -1.0, 1.0)


def sense_scores(similarity: np.ndarray, labels: list[str]) -> tuple[float, float]:
    """(within-minus-cross cosine, leave-one-out nearest-neighbour accuracy) over the labelled rows; NaN if undefined.

    The accuracy needs at least two sentences of every sense: a sentence alone in its sense has no
    neighbour of its own sense, so it would count as a miss whatever the vectors (NaN instead).
    Ties for the nearest neighbour (identical static vectors) earn the share of tied
    neighbours with the right sense: the expected accuracy of breaking ties at random.
    """
    keep = [i for i, label in enumerate(labels) if label]
    lab = np.array([labels[i] for i in keep])
    if len(set(lab)) < 2:
        return float("nan"), float("nan")
    sim = similarity[np.ix_(keep, keep)]
    same, off = lab[:, None] == lab[None, :], ~np.eye(len(keep), dtype=bool)
    within = sim[same & off]
    separation = float(within.mean() - sim[~same].mean()) if within.size else float("nan")
    if min(np.unique(lab, return_counts=True)[1]) < 2:
        return separation, float("nan")
    hits = []
    for i in range(len(keep)):
        others = np.flatnonzero(off[i])
        best = others[sim[i, others] >= sim[i, others].max() - 1e-6]
        hits.append(float(np.mean(lab[best] == lab[i])))
    return separation, float(np.mean(hits))


def project(vectors: np.ndarray, method: str = "pca", dims: int = 2, seed: int = 0) -> np.ndarray:
    """(n, H) -> (n, dims) with scikit-learn; identical points stay at the origin."""
    from sklearn.decomposition import PCA
    from sklearn.manifold import TSNE

    n = len(vectors)
    out = np.zeros((n, dims))
    spread = np.ptp(vectors, axis=0).max() if n else 0.0
    if n < 2 or spread < 1e-6:
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "tsne" and n >= TSNE_MIN_POINTS:
            tsne = TSNE(n_components=dims, perplexity=min(30.0, (n - 1) / 3), init="pca", random_state=seed)
            return tsne.fit_transform(vectors.astype(np.float64))
        k = min(dims, n, vectors.shape[1])
        out[:, :k] = PCA(n_components=k, random_state=seed).fit_transform(vectors.astype(np.float64))
    return out


def _static_rows(lm: LoadedModel, word: str, targets: list[Target], pooling: str, input_embeddings: bool) -> list[SenseVectors]:
    return [static_vectors(lm, word, targets)]


def _contextual_rows(
    lm: LoadedModel, word: str, targets: list[Target], pooling: str, input_embeddings: bool
) -> list[SenseVectors]:
    contextual, rows = contextual_vectors(lm, targets, pooling)
    return [contextual, rows] if input_embeddings else [contextual]


def _elmo_rows(lm: LoadedModel, word: str, targets: list[Target], pooling: str, input_embeddings: bool) -> list[SenseVectors]:
    """ELMo: layer 0 = the char-CNN token vector (context-free: ELMo's built-in static baseline), layers 1-2 = the
    biLSTMs. The scalar mix is not a fourth "layer" here: the layer menu and the per-layer curve are about depth,
    and a mix of all three would read as a deeper layer; the ELMo tab's layer-mix view shows the mix."""
    import re

    from playground.elmo import embed

    token = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")  # as playground.elmo.views.tokenize, with character spans
    rows, positions, sents = [], [], []
    for i, t in enumerate(targets):
        if t.span is None:
            continue
        spans = [(m.start(), m.end(), m.group()) for m in token.finditer(t.text)][:200]
        hit = [j for j, (a, b, _) in enumerate(spans) if a < t.span[1] and b > t.span[0]]
        if hit:
            rows.append(i)
            positions.append(hit)
            sents.append([w for _, _, w in spans])
    if not rows:
        raise InputError("polysemy_not_aligned", "No token of {model} covers the word in any sentence.", model=lm.spec.label)
    out = embed(lm.model, sents)
    layers = np.stack([_pool(v, p, pooling) for v, p in zip(out.vectors, positions)], axis=1)
    pieces = [[sents[k][j] for j in p] for k, p in enumerate(positions)]
    missing = sum(t.span is not None for t in targets) - len(rows)
    common = dict(
        model_id=lm.spec.hf_id,
        family_kind=lm.spec.kind,
        device=lm.device,
        rows=rows,
        pieces=pieces,
        notes=(Note("no_piece", {"n": missing}),) if missing else (),
        model_label=lm.spec.label,
    )
    contextual = SenseVectors(lm.spec.key, label=lm.spec.label, source="contextual", layers=layers, **common)
    if not input_embeddings:
        return [contextual]
    char_cnn = SenseVectors(
        f"{lm.spec.key}:input", label=f"{lm.spec.label} · input embeddings", source="input", layers=layers[:1], **common
    )
    return [contextual, char_cnn]


# How each registry kind turns into vectors: a static table gives one vector per word, a transformer one per layer.
VECTORS = {"static": _static_rows, "elmo": _elmo_rows, **{kind: _contextual_rows for kind in KINDS}}


@device.entry(lambda lm, word, targets, *a, **k: 4 + len(targets) / 8)  # one padded forward pass per batch
def sense_vectors(
    lm: LoadedModel, word: str, targets: list[Target], pooling: str = "mean", input_embeddings: bool = True
) -> list[SenseVectors]:
    """One model's vectors for `word`: all layers from one forward pass, or the static table's one vector."""
    make = VECTORS.get(lm.spec.kind)
    if make is None:
        raise _kind_error(lm.spec.label)
    return make(lm, word, targets, pooling, input_embeddings)


VECTORS_CACHE = "polysemy-vectors"  # the runtime's cache of vectors (PLAYGROUND_POLYSEMY_CACHE entries)


def cached_vectors(
    key: str, word: str, targets: list[Target], pooling: str, input_embeddings: bool, runtime: Runtime
) -> list[SenseVectors]:
    """`sense_vectors` of model `key`, loaded through the runtime only when not cached.

    Vectors are pure in (model, word, sentences, pooling, input rows): another layer, projection or dimension
    reuses the forward pass, and 30 students on one preset share one pass (single-flight). A session's own model
    is computed for this call only: its key is never a registry key, and no other session may be served it."""

    def compute() -> list[SenseVectors]:
        return sense_vectors(runtime.model(key), word, targets, pooling, input_embeddings)

    cached = (key, word, tuple(targets), pooling, bool(input_embeddings))
    return runtime.cached(VECTORS_CACHE, settings.current().polysemy_cache, cached, compute, key)


def _kind_error(label: str) -> InputError:
    return checks.fail("input_model_kind", model=label, name="models", kinds=" or ".join(VECTORS))


def check_options(pooling: Any, projection: Any, dims: Any) -> int:
    """Pooling and projection from their lists; dims 2 or 3 (the page's radio sends "2" / "3", JSON sends 2 / 3)."""
    checks.choice(pooling, "pooling", POOLING)
    checks.choice(projection, "projection", PROJECTIONS)
    return int(dims) if dims in ("2", "3") else checks.whole(dims, "dims", 2, 3)


MAX_LAYER = 200  # deeper than any registered model: a layer past a model's depth shows its last


def parse_layer(value: Any) -> int | None:
    """'last' (or empty) -> None; a whole layer number from 0 (the page's menu sends "3") -> that number."""
    return checks.layer(value, "layer", MAX_LAYER)


def check_models(value: Any) -> tuple[str, ...]:
    """A list of model keys, at most MAX_MODELS, each allow-listed and of a kind with vectors; duplicates once."""
    keys = checks.keys(value, "models", MAX_MODELS)
    if not keys:
        raise InputError("polysemy_no_models", "Choose at least one model.")
    for key in keys:
        checks.model_key(key, "models", VECTORS)
    return keys


def check_sentences(value: Any) -> str | tuple[str, ...]:
    """Text, one sentence per line (the Python API may pass a tuple of lines)."""
    if isinstance(value, tuple) and all(isinstance(line, str) for line in value):  # the Python API's one-line-each form
        checks.text("\n".join(value), "sentences", MAX_TEXT)
        return value
    return checks.text(value, "sentences", MAX_TEXT)


def check_request(request: PolysemyRequest) -> tuple[str, list[Target], int | None, int]:
    """Validate a request before any model loads: (word, grouped sentences, layer or None for last, dims).

    Types first (the API hands on whatever JSON a client sent): every refusal is an InputError a student can read.
    """
    if request.word is None:
        raise InputError("polysemy_no_word", "Enter the word to follow through the sentences.")
    word = checks.text(request.word, "word", MAX_WORD).strip()
    sentences = check_sentences(request.sentences)
    check_models(request.models)
    checks.flag(request.input_embeddings, "input_embeddings")
    layer = parse_layer(request.layer)
    dims = check_options(request.pooling, request.projection, request.dims)
    checks.seed(request.seed)
    targets = parse_sentences(word, sentences)
    if all(t.span is None for t in targets):
        raise InputError("polysemy_not_found", "'{word}' occurs in none of the sentences.", word=word)
    return word, targets, layer, dims


FEW = 4  # up to this many sentences, each pair's cosine per layer is part of the result


def view(vectors: SenseVectors, targets: list[Target], layer: int | None, projection: str, dims: int, seed: int) -> ModelView:
    """Project and compare one model's vectors at `layer` (None, or a layer it lacks = its last); scores at every layer."""
    depth = len(vectors.layers) - 1
    fallback = layer is not None and not 0 <= layer <= depth
    shown = depth if layer is None or fallback else layer
    labels = [targets[i].label for i in vectors.rows]
    sims = cosine_matrix(vectors.layers)
    scores = np.array([sense_scores(s, labels) for s in sims]).reshape(-1, 2)
    return ModelView(
        key=vectors.key,
        model_id=vectors.model_id,
        label=vectors.label,
        source=vectors.source,
        device=vectors.device,
        layer=shown,
        num_layers=depth,
        layer_fallback=fallback,
        rows=vectors.rows,
        pieces=vectors.pieces,
        coords=project(vectors.layers[shown], projection, dims, seed),
        similarity=sims[shown],
        separation=float(scores[shown, 0]),
        nn_accuracy=float(scores[shown, 1]),
        separation_by_layer=scores[:, 0],
        nn_accuracy_by_layer=scores[:, 1],
        notes=vectors.notes,
        family_kind=vectors.family_kind,
        model_label=vectors.model_label or vectors.label,
        vectors=vectors.layers[shown],
        pair_cosines=[
            {"pair": [vectors.rows[a] + 1, vectors.rows[b] + 1], "by_layer": [float(x) for x in sims[:, a, b]]}
            for a in range(len(vectors.rows))
            for b in range(a + 1, len(vectors.rows))
        ]
        if len(vectors.rows) <= FEW
        else [],
    )


def not_chinese(word: str, keys: tuple[str, ...], runtime: Runtime) -> tuple[Note, ...]:
    """A Chinese word and models not trained on Chinese: the one rule (text_units.not_reading_chinese), as a note."""
    deaf = not_reading_chinese(word, [runtime.spec(key, "models") for key in keys])
    return (Note("not_chinese", {"models": [s.label for s in deaf]}),) if deaf else ()


def run_polysemy(request: PolysemyRequest, runtime: Runtime) -> PolysemyRun:
    """The polysemy demo's one entry: every chosen model's vectors for the word, projected, compared, scored, read.

    `runtime.model(key)` gives the models (tests build a Runtime with tiny ones); the vectors are kept in the
    runtime's cache, so another layer or projection of the same sentences runs no model."""
    word, targets, layer, dims = check_request(request)
    keys = check_models(request.models)
    found = [v for key in keys for v in cached_vectors(key, word, targets, request.pooling, request.input_embeddings, runtime)]
    sentences = [Sentence(i, t.label, t.text, t.span) for i, t in enumerate(targets)]
    views = [view(v, targets, layer, request.projection, dims, checks.seed(request.seed)) for v in found]
    return PolysemyRun(
        word=word,
        pooling=request.pooling,
        projection=request.projection,
        dims=dims,
        sentences=sentences,
        models=views,
        readings=read_run(word, sentences, views),
        notes=not_chinese(word, keys, runtime),
    )
