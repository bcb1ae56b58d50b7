"""T5's span corruption answered by a real T5: what the model writes for each sentinel of a corrupted sentence.

The draw (spans.t5_span_corruption) replaces each noise span by one sentinel of the tokenizer's own vocabulary
(`<extra_id_0>`, `<extra_id_1>`, ...); T5 was pre-trained to answer such an input with `<extra_id_0> span 0
<extra_id_1> span 1 ... <extra_id_n>`. This runs the encoder-decoder on the corrupted ids (greedy, as T5's
pre-training objective is scored) and splits its answer at the sentinels, so each dropped span can be shown beside
what the model put back. Only for a model of kind seq2seq whose tokenizer has real sentinels.
"""

from __future__ import annotations

from dataclasses import dataclass

from playground import device
from playground.models import LoadedModel


@dataclass(frozen=True)
class Fill:
    sentinel: str  # <extra_id_k>
    original: str  # the span the draw dropped
    filled: str  # what the model wrote after that sentinel ("" when it wrote nothing for it)


@device.entry(10)
def fill_sentinels(lm: LoadedModel, input_ids: list[int], sentinels: list[str], originals: list[str]) -> list[Fill]:
    """The model's answer to the corrupted ids, split at the sentinels it was asked about (greedy decoding)."""
    import torch  # deferred: the masking objectives import this module; only a T5's answer needs torch

    tok = lm.tokenizer
    sentinel_ids = tok.convert_tokens_to_ids(sentinels)
    with torch.inference_mode():
        out = lm.model.generate(
            input_ids=torch.tensor([input_ids], device=lm.device),
            attention_mask=torch.ones(1, len(input_ids), dtype=torch.long, device=lm.device),
            max_new_tokens=4 * len(input_ids) + 8,
            do_sample=False,
            num_beams=1,
        )[0].tolist()
    spans: dict[int, list[int]] = {}
    current = None
    for token in out[1:]:  # out[0] is the decoder's start token
        if token in sentinel_ids:
            current = sentinel_ids.index(token)
            spans.setdefault(current, [])
        elif token == tok.eos_token_id:
            break
        elif current is not None:
            spans[current].append(token)
    return [
        Fill(name, original, tok.decode(spans.get(k, []), skip_special_tokens=True).strip())
        for k, (name, original) in enumerate(zip(sentinels, originals))
    ]
