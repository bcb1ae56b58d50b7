"""Fill-mask with a masked language model: BERT's pre-training task, asked directly.

The user writes [MASK]; each model's own mask token is substituted. Every mask is
predicted from the same single forward pass, independently of the others — the
conditional-independence assumption of the MLM objective, visible when two
adjacent masks get a grammatical answer each but not together.
"""

from __future__ import annotations

import numpy as np
import torch

from playground.errors import InputError
from playground.fill_mask.data import Prediction, Reading, check_top_k, count_masks, substitute_masks
from playground.models import LoadedModel, max_tokens
from playground.text_units import display_pieces, token_texts, visible


def _window(ids: list[int], marks: list[int], limit: int) -> tuple[list[int], bool]:
    """Keep at most `limit` tokens, centred on the masks, or refuse when the masks alone span more."""
    if len(ids) <= limit:
        return ids, False
    first, last = marks[0], marks[-1]
    if last - first + 1 > limit:
        raise InputError("masks_too_far", "The [MASK]s are too far apart for this model ({limit} tokens at most).", limit=limit)
    start = max(0, min(first - (limit - (last - first + 1)) // 2, len(ids) - limit))
    return ids[start : start + limit], True


def encode_masked(lm: LoadedModel, text: str) -> tuple[list[int], bool]:
    """Token ids with special tokens, the model's own mask token in place of each [MASK]."""
    tok = lm.tokenizer
    if tok.mask_token is None:
        raise InputError("no_mask_token", "{model} has no mask token: it cannot fill in blanks.", model=lm.spec.label)
    count_masks(text)
    text = substitute_masks(text, tok.mask_token)
    full, body = tok(text).input_ids, tok(text, add_special_tokens=False).input_ids
    # The tokenizer's own template ([CLS] x [SEP], <s> x </s>, ...) around the body, kept when the body is cut.
    start = next(i for i in range(len(full) - len(body) + 1) if full[i : i + len(body)] == body)
    prefix, suffix = full[:start], full[start + len(body) :]
    marks = [i for i, t in enumerate(body) if t == tok.mask_token_id]
    limit = max_tokens(lm) - len(prefix) - len(suffix)
    body, cut = _window(body, marks, limit)
    return prefix + body + suffix, cut


@torch.inference_mode()
def fill_blanks_masked(lm: LoadedModel, texts: list[str], top_k: int = 5) -> list[Reading]:
    """Top-k predictions for every [MASK] in each text, all texts in one padded forward pass."""
    top_k = check_top_k(top_k)
    encoded = [encode_masked(lm, text) for text in texts]
    batch = lm.tokenizer.pad({"input_ids": [ids for ids, _ in encoded]}, return_tensors="pt").to(lm.device)
    logits = lm.model(**batch).logits.float()  # (batch, T, vocab)
    readings = []
    for row, (ids, cut) in enumerate(encoded):
        where = (batch["input_ids"][row] == lm.tokenizer.mask_token_id).nonzero(as_tuple=True)[0]
        probs = logits[row, where].softmax(-1)  # (masks, vocab)
        p, idx = probs.topk(top_k, dim=-1)
        per_mask = [
            [
                Prediction(tt.word, tt.raw, i, float(q), visible(display_pieces(lm.tokenizer, [i])[0]))
                for tt, i, q in zip(token_texts(lm.tokenizer, ids_k), ids_k, p_k)
            ]
            for ids_k, p_k in zip(idx.tolist(), p.cpu().numpy().astype(np.float64))
        ]
        shown = lm.tokenizer.decode(ids, skip_special_tokens=False)
        readings.append(Reading("masked", shown, per_mask, cut))
    return readings
