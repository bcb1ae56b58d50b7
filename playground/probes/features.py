"""Every probe token's vector at every layer: one forward pass per distinct sentence, mean over the word's pieces.

Transformers: the hidden states (embeddings + each block), pieces found by character offsets (playground.alignment),
so WordPiece, SentencePiece and Chinese characters need no rules of their own. ELMo: its three layers (char CNN and
the two biLSTMs, playground.elmo.embed) over the words of the polysemy demo's tokenizer. A table of kinds, not a ladder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from playground.alignment import align
from playground.models import LoadedModel

BATCH = 32  # sentences per forward pass
ELMO_WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")  # as playground.polysemy.vectors' ELMo rows


def _texts(tokens: Sequence[dict]) -> list[str]:
    return list(dict.fromkeys(t["text"] for t in tokens))


def _transformer(lm: LoadedModel, tokens: Sequence[dict]) -> np.ndarray:
    import torch  # deferred: the shipped curves are read without torch; only a rerun needs it

    tok = lm.tokenizer
    texts = _texts(tokens)
    where: dict[str, tuple[np.ndarray, list, list]] = {}
    for start in range(0, len(texts), BATCH):
        chunk = texts[start : start + BATCH]
        enc = tok(chunk, return_offsets_mapping=True, return_special_tokens_mask=True, padding=True, return_tensors="pt")
        with torch.inference_mode():
            out = lm.model(
                input_ids=enc["input_ids"].to(lm.device),
                attention_mask=enc["attention_mask"].to(lm.device),
                output_hidden_states=True,
            )
        hidden = torch.stack(out.hidden_states, dim=1).float().cpu().numpy()  # (batch, layers, T, H)
        for i, text in enumerate(chunk):
            where[text] = (hidden[i], enc["offset_mapping"][i].tolist(), enc["special_tokens_mask"][i].tolist())
    rows = []
    for t in tokens:
        hidden, offsets, special = where[t["text"]]
        positions = align(offsets, special, tuple(t["span"]))
        if not positions:
            raise ValueError(f"no piece of {lm.spec.label} covers {t['word']!r} in {t['text']!r}")
        rows.append(hidden[:, positions].mean(axis=1))
    return np.stack(rows, axis=1)  # (layers, tokens, H)


def _elmo(lm: LoadedModel, tokens: Sequence[dict]) -> np.ndarray:
    from playground.elmo import embed  # deferred: ELMo's modules bring torch, needed only by a rerun

    texts = _texts(tokens)
    spans = {text: [(m.start(), m.end(), m.group()) for m in ELMO_WORD.finditer(text)] for text in texts}
    out = embed(lm.model, [[w for _, _, w in spans[text]] for text in texts])
    vectors = dict(zip(texts, out.vectors))  # text -> (layers, words, H)
    rows = []
    for t in tokens:
        a, b = t["span"]
        hit = [j for j, (s, e, _) in enumerate(spans[t["text"]]) if s < b and e > a]
        rows.append(vectors[t["text"]][:, hit].mean(axis=1))
    return np.stack(rows, axis=1)


FEATURES = {"elmo": _elmo, "encoder": _transformer, "masked": _transformer}
LAYER_NAMES = {"elmo": lambda n: ("char CNN", *(f"biLSTM {i}" for i in range(1, n)))}


def token_features(lm: LoadedModel, tokens: Sequence[dict]) -> np.ndarray:
    """(layers, tokens, dim) float32 vectors of `tokens` ({"text", "span"} each) under `lm`."""
    return FEATURES[lm.spec.kind](lm, tokens).astype(np.float32)


def layer_names(kind: str, n: int) -> tuple[str, ...]:
    return LAYER_NAMES.get(kind, lambda n: ("embeddings", *map(str, range(1, n))))(n)
