"""One word's vectors, sentence by sentence and layer by layer, from each kind of model (a table, not a ladder):
a transformer's hidden states, a static table's one vector per word, ELMo's char CNN and biLSTMs; cached per
(model, word, sentences, pooling) in the runtime, so another layer or projection runs no model.
"""

from __future__ import annotations

import re

import numpy as np

from playground import checks, device, settings
from playground.alignment import Target, align
from playground.errors import InputError
from playground.models import LoadedModel
from playground.polysemy.results import Note, SenseVectors
from playground.runtime import Runtime

KINDS = ("encoder", "masked", "causal")  # models with hidden states worth following


def _pool(hidden: np.ndarray, positions: list[int], pooling: str) -> np.ndarray:
    return hidden[..., positions[0], :] if pooling == "first" else hidden[..., positions, :].mean(axis=-2)


def contextual_vectors(lm: LoadedModel, targets: list[Target], pooling: str = "mean") -> tuple[SenseVectors, SenseVectors]:
    """Hidden states of all layers for the target word, in one padded forward pass; plus the input-embedding rows."""
    import torch  # deferred: importing the demo (its results, its checks) needs no torch

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
    others = np.stack([_others(h, x, p, tok) for h, x, p in zip(hidden, ids, positions)], axis=1)  # (layers + 1, n, H)
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
        SenseVectors(spec.key, label=spec.label, source="contextual", layers=layers, others=others, **common),
        SenseVectors(f"{spec.key}:input", label=f"{spec.label} · input embeddings", source="input", layers=static, **common),
    )


def _others(hidden: np.ndarray, ids: list[int], positions: list[int], tok) -> np.ndarray:
    """(layers + 1, H): the mean unit vector of a sentence's tokens other than the word and the special tokens
    (zeros when there is none), at every layer."""
    special = set(tok.all_special_ids)
    keep = [j for j, x in enumerate(ids) if j not in positions and x not in special]
    if not keep:
        return np.zeros((hidden.shape[0], hidden.shape[-1]), np.float32)
    rows = hidden[:, keep, :]
    return (rows / np.maximum(np.linalg.norm(rows, axis=-1, keepdims=True), 1e-12)).mean(axis=1)


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
    from playground.elmo import embed  # the ELMo package imports torch: only where an ELMo model runs

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


def _kind_error(label: str) -> InputError:
    return checks.fail("input_model_kind", model=label, name="models", kinds=" or ".join(VECTORS))


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
