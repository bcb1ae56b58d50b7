"""Self-attention maps: softmax(QKᵀ/√d) for every layer and head of a real model, and summaries of them.

One forward pass per (model, text) gives all maps; the runtime's cache keeps them so that switching layer, head
or view costs no model call. The demo's request (`AttentionRequest`) and the API's JSON of a view
(`attention_json`, in row windows) are here; its entry, `run_attention`, is in playground.attention.view.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from playground import checks, device, settings, text_units
from playground.errors import InputError
from playground.runtime import Runtime

MAX_TOKENS = 512  # longest input the tab accepts (BERT's limit; longer maps stop being readable)
MAX_TEXT_CHARS = 5000  # characters per sentence (checked before tokenizing)
MAX_LAYERS = 64  # layer / head indices a request may name (more than any registered model has; the model's own range
MAX_HEADS = 64  # is checked once it is loaded)
KINDS = ("encoder", "masked", "discriminator", "causal")  # model kinds with self-attention maps to show
CAUSAL_KINDS = ("causal",)  # kinds whose self-attention is masked to the past


@dataclass(frozen=True)
class AttentionText:
    """What one forward pass reads: a sentence and, for pair models, a second one."""

    text: str
    text_pair: str = ""  # segment B for sentence-pair models (token_type_ids = 1)


@dataclass(frozen=True, eq=False)
class AttentionResult:
    model_key: str
    tokens: list[str]
    token_type_ids: list[int]  # 0 = segment A, 1 = segment B
    special: list[bool]  # True for [CLS], [SEP], <s>, ... added by the tokenizer
    causal: bool
    attentions: np.ndarray  # (layers, heads, T, T); row i = how query token i spreads its attention
    display: list[str] = field(default_factory=list)  # how each token reads (byte pieces completed; "" = as `tokens`)
    unknown: list[str] = field(default_factory=list)  # per token: the text the tokenizer replaced by its unknown token, or ""

    @property
    def labels(self) -> list[str]:
        """Token labels for figures: the vocabulary spelling, the completed character for byte pieces,
        and for an unknown token the text it replaced ("[UNK] (银)")."""
        display = self.display or [""] * len(self.tokens)
        unknown = self.unknown or [""] * len(self.tokens)
        return [f"{d or t} ({u})" if u else d or t for t, d, u in zip(self.tokens, display, unknown)]

    @property
    def unknown_texts(self) -> list[str]:
        return [u for u in self.unknown if u]

    @property
    def shape(self) -> tuple[int, int, int]:
        layers, heads, length, _ = self.attentions.shape
        return layers, heads, length


@dataclass(frozen=True, eq=False)
class AttentionSummary:
    mean_over_heads: np.ndarray  # (T, T) for one layer
    rollout: np.ndarray  # (T, T), attention flow through all layers (Abnar & Zuidema, 2020)
    first_share: np.ndarray  # (layers,) mean attention mass on the first token
    special_share: np.ndarray  # (layers,) mean mass on the other special tokens ([SEP], </s>)
    entropy: np.ndarray  # (layers, heads) mean row entropy in bits


def supports_pairs(lm: Any) -> bool:
    """Whether the model has segment (token type) embeddings, as BERT does."""
    return int(getattr(lm.model.config, "type_vocab_size", 0) or 0) > 1


def token_limit(lm: Any) -> int:
    limits = [MAX_TOKENS, lm.spec.max_length or MAX_TOKENS]
    limits.append(int(getattr(lm.model.config, "max_position_embeddings", MAX_TOKENS) or MAX_TOKENS))
    return min(limits)


def encode(lm: Any, request: AttentionText) -> dict[str, list[int]]:
    """Token ids, segment ids and special-token flags of one request (no padding)."""
    if not request.text.strip():
        raise InputError("attention_empty_text", "Type a sentence first.")
    pair = request.text_pair.strip() or None
    if pair and not supports_pairs(lm):
        raise InputError(
            "attention_pair_unsupported", "{model} has no segment embeddings: leave sentence B empty.", model=lm.spec.label
        )
    fast = getattr(lm.tokenizer, "is_fast", False)
    enc = lm.tokenizer(
        request.text, pair, return_special_tokens_mask=True, return_token_type_ids=True, return_offsets_mapping=fast
    )
    limit, n = token_limit(lm), len(enc["input_ids"])
    if n > limit:
        raise InputError("attention_too_long", "The text has {n} tokens; this view reads at most {limit}.", n=n, limit=limit)
    types = list(enc.get("token_type_ids") or [0] * n)
    unk = lm.tokenizer.unk_token_id
    offsets = enc.get("offset_mapping") or [(0, 0)] * n
    sources = [request.text, pair or ""]
    unknown = [
        (sources[min(segment, 1)][start:stop] or "?") if unk is not None and token == unk else ""
        for token, segment, (start, stop) in zip(enc["input_ids"], types, offsets)
    ]
    return {
        "input_ids": list(enc["input_ids"]),
        "token_type_ids": types,
        "special": [bool(s) for s in enc["special_tokens_mask"]],
        "unknown": unknown,
    }


def extract_attention(lm: Any, requests: list[AttentionText], dtype: Any = np.float32) -> list[AttentionResult]:
    """All attention maps for each request, from one padded forward pass (a class's requests share it)."""
    import torch  # deferred: torch takes seconds to import; importing this module needs none

    encoded = [encode(lm, r) for r in requests]
    length = max(len(e["input_ids"]) for e in encoded)
    # Right padding: real tokens keep positions 0..n-1 (RoPE and learned positions unchanged), pads are masked.
    ids = torch.zeros((len(encoded), length), dtype=torch.long)
    types, mask = torch.zeros_like(ids), torch.zeros_like(ids)
    for row, e in enumerate(encoded):
        n = len(e["input_ids"])
        ids[row, :n], types[row, :n], mask[row, :n] = torch.tensor(e["input_ids"]), torch.tensor(e["token_type_ids"]), 1
    inputs = {"input_ids": ids, "attention_mask": mask}
    if supports_pairs(lm):
        inputs["token_type_ids"] = types
    with torch.inference_mode():
        out = lm.model(**{k: v.to(lm.device) for k, v in inputs.items()}, output_attentions=True)
    stacked = torch.stack([a.float() for a in out.attentions], dim=1).cpu().numpy()  # (B, layers, heads, T, T)
    results = []
    for row, e in enumerate(encoded):
        n = len(e["input_ids"])
        results.append(
            AttentionResult(
                model_key=lm.spec.key,
                tokens=lm.tokenizer.convert_ids_to_tokens(e["input_ids"]),
                token_type_ids=e["token_type_ids"],
                special=e["special"],
                causal=lm.spec.kind in CAUSAL_KINDS,
                attentions=np.ascontiguousarray(stacked[row, :, :, :n, :n], dtype=dtype),
                display=display_labels(lm.tokenizer, e["input_ids"]),
                unknown=e["unknown"],
            )
        )
    return results


def display_labels(tokenizer: Any, ids: list[int]) -> list[str]:
    """Per token, "" where its vocabulary spelling reads (##ing, [CLS], bank), else what it reads as.

    A token with a leading space reads "␣bank", as in the sampling tab, not byte-level BPE's "Ġbank" (a student
    reads Ġ as a letter: the walk-through found it raw on the axes). Byte-level BPE spells 银 as three byte pieces
    ("é", "ĵ", "¶"): those show as "银(1/3)" ... and a piece that completes nothing as `<0xE9>`, never as mojibake or "�".
    """
    out = []
    raws = tokenizer.convert_ids_to_tokens(ids)
    for raw, piece in zip(raws, text_units.display_pieces(tokenizer, ids)):
        word = piece.strip()
        spelled = word and word in raw and not piece[:1].isspace()
        out.append("" if spelled else text_units.visible(piece))
    return out


def head_map(result: AttentionResult, layer: int, head: int) -> np.ndarray:
    """(T, T) attention of one head, float32; layer and head must be in range."""
    layers, heads, _ = result.shape
    if not (0 <= layer < layers and 0 <= head < heads):
        raise InputError("attention_bad_head", "Layer must be 0-{layers} and head 0-{heads}.", layers=layers - 1, heads=heads - 1)
    return result.attentions[layer, head].astype(np.float32)


def rollout(attentions: np.ndarray) -> np.ndarray:
    """Attention rollout: average heads, add the residual path (½·I), renormalise, multiply through layers.

    Written by hand: no maintained library computes it (Abnar & Zuidema, 2020, "Quantifying attention flow").
    """
    layers, _, length, _ = attentions.shape
    flow = np.eye(length)
    for layer in range(layers):
        a = 0.5 * attentions[layer].astype(np.float64).mean(axis=0) + 0.5 * np.eye(length)
        a /= a.sum(axis=-1, keepdims=True)
        flow = a @ flow
    return flow.astype(np.float32)


def row_entropy(maps: np.ndarray) -> np.ndarray:
    """Entropy in bits of each attention row, averaged over queries: (..., T, T) -> (...)."""
    p = maps.astype(np.float64)
    return -(p * np.log2(np.where(p > 0, p, 1.0))).sum(axis=-1).mean(axis=-1)


def summarize(result: AttentionResult, layer: int) -> AttentionSummary:
    """Mean over heads for `layer`, rollout, attention on special tokens per layer, head entropies."""
    att = result.attentions
    # Layer by layer: a 512-token, 30-layer model would need gigabytes as one float64 array.
    per_layer = np.stack([a.astype(np.float32).mean(axis=(0, 1)) for a in att])  # (layers, T): mass each key receives
    others = np.array(result.special, dtype=bool)
    others[0] = False
    return AttentionSummary(
        mean_over_heads=att[layer].astype(np.float32).mean(axis=0),
        rollout=rollout(att),
        first_share=per_layer[:, 0],
        special_share=per_layer[:, others].sum(axis=-1),
        entropy=np.stack([row_entropy(a) for a in att]).astype(np.float32),
    )


FLOAT16_ABOVE = 64 * 2**20  # maps bigger than this are kept as float16 (a 512-token SmolLM2 input: 141 MB)
API_CELLS = 40_000  # cells per T x T matrix in one API response, so the JSON stays under 1 MB


def cache(runtime: Runtime, name: str):
    """The runtime's attention cache `name` ("maps", "captures"; PLAYGROUND_ATTENTION_CACHE entries each)."""
    return runtime.cache(f"attention {name}", settings.current().attention_cache)


def cached(runtime: Runtime, name: str, key: Any, compute: Callable[[], Any], model: str) -> Any:
    """`compute()` through the runtime's attention cache `name` ("maps", "captures"; PLAYGROUND_ATTENTION_CACHE
    entries each), shared by every session of the app (a class on one sentence costs one forward pass); a session's
    own `model` is computed for the call alone (Runtime.cached)."""
    return runtime.cached(f"attention {name}", settings.current().attention_cache, key, compute, model)


@device.entry(lambda lm, request: 4 + len(request.text + request.text_pair) / 300)
def _extract(lm: Any, request: AttentionText) -> AttentionResult:
    (result,) = extract_attention(lm, [request])
    if result.attentions.nbytes > FLOAT16_ABOVE:
        return replace(result, attentions=result.attentions.astype(np.float16))
    return result


def attention_maps(model: Any, text: Any, text_b: Any, runtime: Runtime) -> tuple[Any, AttentionResult]:
    """The loaded model and all its maps for this text (one forward pass per model and text, then cached).

    A key of `runtime.session` (the caller's own models, e.g. its MLM lab model) names that model as given, past
    the allow-list; its maps are computed for this call only and never enter the shared cache.
    """
    key = runtime.spec(model, "model", KINDS).key
    request = AttentionText(
        checks.text(text, "text", MAX_TEXT_CHARS, allow_none=True) or "",
        checks.text(text_b, "text_b", MAX_TEXT_CHARS, allow_none=True) or "",
    )
    lm = runtime.model(key)
    return lm, cached(runtime, "maps", (lm.spec.key, request), lambda: _extract(lm, request), key)


def check_model(model: Any) -> str:
    """An allow-listed key whose kind has attention maps; any other is refused before loading."""
    return checks.model_key(model, "model", KINDS)


@dataclass(frozen=True)
class AttentionRequest:
    """One view of the attention demo: the page's (any view) and the API's (one head, in row windows)."""

    model: str
    text: str
    text_b: str = ""
    layer: int = 0
    head: int = 0
    row_start: int = 0  # the first row of the window the API returns (the page draws 256 rows at a time)
    view: str = "head"  # one of view.VIEWS
    query: int = -1  # -1 = no query picked (the step view then takes the last token)
    other: str = ""  # the second model of the comparison view
    # The page: indices outside the model's range show the nearest (its sliders follow the model only after a run,
    # a link or a model switch may carry layer 11 to a 6-layer model). The API refuses them instead.
    fit: bool = False


@dataclass(frozen=True)
class AttentionRun:
    """The JSON of /attention: one head's matrix and the summaries, T x T matrices in row windows (< 1 MB)."""

    model: str
    model_id: str
    device: str
    tokens: list[str]
    token_type_ids: list[int]
    special: list[bool]
    causal: bool
    layers: int
    heads: int
    layer: int
    head: int
    row_start: int
    row_stop: int
    matrix: list[list[float]]  # rows row_start..row_stop-1 of the head's map, 4 decimals
    mean_over_heads: list[list[float]]
    rollout: list[list[float]]
    first_token_share: list[float]  # per layer
    special_share: list[float]  # per layer
    head_entropy_bits: list[list[float]]  # (layers, heads)


def clamp(value: Any, low: int, high: int) -> int:
    try:
        return min(max(int(value), low), high)
    except (TypeError, ValueError, OverflowError):
        return low


def attention_json(shown: Any, row_start: int = 0) -> AttentionRun:
    """The API's JSON of one view's result (an AttentionView): one head plus the summaries, T x T in a row window."""
    result, layer, head = shown.maps, shown.layer, shown.head
    layers, heads, length = result.shape
    matrix = head_map(result, layer, head)
    summary = summarize(result, layer)
    rows = max(1, min(length, API_CELLS // length))
    start = clamp(row_start, 0, length - 1)
    stop = min(length, start + rows)
    window = lambda m: np.round(m[start:stop].astype(np.float64), 4).tolist()  # noqa: E731
    return AttentionRun(
        model=shown.model,
        model_id=shown.model_id,
        device=shown.device,
        tokens=list(result.tokens),
        token_type_ids=list(result.token_type_ids),
        special=list(result.special),
        causal=result.causal,
        layers=layers,
        heads=heads,
        layer=layer,
        head=head,
        row_start=start,
        row_stop=stop,
        matrix=window(matrix),
        mean_over_heads=window(summary.mean_over_heads),
        rollout=window(summary.rollout),
        first_token_share=np.round(summary.first_share, 4).tolist(),
        special_share=np.round(summary.special_share, 4).tolist(),
        head_entropy_bits=np.round(summary.entropy, 3).tolist(),
    )
