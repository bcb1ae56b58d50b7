"""One forward pass with every stage captured and checked against its formula: what the view reads, per sentence.

The pass is computed once per (model, sentence) and kept in the runtime's cache; choosing another token reads
the same pass. Stage tensors are kept whole (float32, batch axis dropped), so it is bounded in tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import time

from playground import device
from playground.attention import display_labels
from playground.capture import capture, points
from playground.forward import formulas
from playground.architectures import BlockKind, block_kind
from playground.errors import InputError
from playground.fill_mask.data import substitute_masks
from playground.models import max_tokens

MAX_TOKENS = 128  # a sentence, not a document: a 128-token SmolLM2 pass keeps ~150 MB of stage tensors
MAX_TEXT_CHARS = 2000


@dataclass(frozen=True, eq=False)
class Pass:
    model_key: str
    kind: BlockKind
    ids: list[int]
    segments: list[int]
    tokens: list[str]  # the vocabulary's spelling ("##ing", "Ġbank")
    display: list[str]  # per token: how it reads where the spelling does not ("␣bank", "银(1/3)"), else ""
    special: list[bool]  # added by the tokenizer ([CLS], [SEP], <s>)
    mask: list[bool]  # the model's mask token (the [MASK] the student typed)
    stages: dict[str, np.ndarray]  # name -> float32 tensor without the batch axis, in forward order
    errors: dict[str, tuple[float, float]]  # name -> (max |hooks - formula|, max |hooks|)
    logits_error: float  # max |captured logits - the logits the model returned| (nan: no head)
    seconds: float  # the capture pass alone, wall clock


def prepared_text(lm: Any, text: str) -> str:
    """The text as the model reads it: the playground's [MASK] becomes the model's own mask token."""
    mask = getattr(lm.tokenizer, "mask_token", None)
    return substitute_masks(text, mask) if mask else text


def encode(lm: Any, text: str) -> dict[str, Any]:
    """Token ids, segment ids and special-token flags of one sentence (no padding), or the view's refusal."""
    if not text.strip():
        raise InputError("forward_empty_text", "Type a sentence first.")
    enc = lm.tokenizer(prepared_text(lm, text), return_special_tokens_mask=True, return_token_type_ids=True)
    n, limit = len(enc["input_ids"]), min(MAX_TOKENS, max_tokens(lm))
    if n > limit:
        raise InputError("forward_too_long", "The text has {n} tokens; this view reads at most {limit}.", n=n, limit=limit)
    return {
        "ids": list(enc["input_ids"]),
        "segments": list(enc.get("token_type_ids") or [0] * n),
        "special": [bool(s) for s in enc["special_tokens_mask"]],
    }


def model_inputs(lm: Any, ids: list[int], segments: list[int]) -> dict[str, Any]:
    """What the model is called with: ids, and segment ids where it has segment embeddings (BERT)."""
    import torch  # deferred: importing the forward package (the UI, the docs' checks) loads no torch

    inputs = {"input_ids": torch.tensor([ids], device=lm.device)}
    if int(getattr(lm.model.config, "type_vocab_size", 0) or 0) > 1:
        inputs["token_type_ids"] = torch.tensor([segments], device=lm.device)
    return inputs


@device.entry(lambda lm, text: 4 + len(text) / 300)
def capture_pass(lm: Any, text: str) -> Pass:
    """Run the model once on `text` with every stage hooked; check each stage against its formula."""
    import torch  # deferred: importing the forward package (the UI, the docs' checks) loads no torch

    kind = block_kind(lm.model, lm.spec.label)
    encoded = encode(lm, text)
    inputs = model_inputs(lm, encoded["ids"], encoded["segments"])
    table = points(lm.model, kind)
    start = time.perf_counter()
    with torch.inference_mode(), capture(lm.model) as cache:
        out = lm.model(**inputs)
    seconds = time.perf_counter() - start
    ids = torch.tensor(encoded["ids"])
    ctx = formulas.context(lm.model, kind, ids, torch.tensor(encoded["segments"]), torch.float32)
    checks = formulas.verify(lm.model, kind, table, cache, ctx)
    logits = getattr(out, "logits", None)
    logits_error = float((cache["logits"] - logits.float().cpu()).abs().max()) if "logits" in cache else float("nan")
    mask_id = getattr(lm.tokenizer, "mask_token_id", None)
    return Pass(
        model_key=lm.spec.key,
        kind=kind,
        ids=encoded["ids"],
        segments=encoded["segments"],
        tokens=lm.tokenizer.convert_ids_to_tokens(encoded["ids"]),
        display=display_labels(lm.tokenizer, encoded["ids"]),
        special=encoded["special"],
        mask=[mask_id is not None and i == mask_id for i in encoded["ids"]],
        stages={name: tensor[0].numpy() for name, tensor in cache.items()},
        errors={name: (c.error, c.scale) for name, c in checks.items()},
        logits_error=logits_error,
        seconds=seconds,
    )


def lens_logits(lm: Any, kind: BlockKind, vectors: np.ndarray) -> np.ndarray:
    """The model's own output head on residual-stream vectors (n, d) -> logits (n, vocab): the "logit lens".

    The head is the block kind's final stages run in order (BERT: the MLM transform and decoder; GPT-2 and
    Llama: the final norm and the LM head), so on the last block's output it gives the model's own logits.
    """
    import torch  # deferred: importing the forward package (the UI, the docs' checks) loads no torch

    table = points(lm.model, kind)
    x = torch.tensor(vectors, device=lm.device, dtype=next(lm.model.parameters()).dtype)
    with torch.inference_mode():
        for stage in kind.final:
            if stage.name in table:
                x = table[stage.name].module(x)
    return x.float().cpu().numpy()


@device.entry(4)
def read_lens(lm: Any, vectors: np.ndarray) -> np.ndarray:
    """The logit lens on a few vectors (the chosen token's residual stream at each layer): only they cross to the
    accelerator, not the whole pass."""
    return lens_logits(lm, block_kind(lm.model, lm.spec.label), vectors)


def residual_stream(pass_: Pass, token: int) -> np.ndarray:
    """(layers + 1, d) at `token`: what block 0 reads (the embeddings' output), then each block's output."""
    layers = sum(1 for name in pass_.stages if name.endswith(".resid_post"))
    first = pass_.stages["blocks.0.resid_pre"][token]
    return np.stack([first] + [pass_.stages[f"blocks.{i}.resid_post"][token] for i in range(layers)])


def has_head(pass_: Pass) -> bool:
    return "logits" in pass_.stages
