"""BERT's input embeddings, taken apart: token + segment + position, summed, then LayerNorm.

The parts are looked up in the model's own embedding tables (named per architecture in `EMBEDDING_PARTS`),
summed and normalised by hand, and the result is compared with the model's own embedding layer
(`model.embeddings(input_ids, token_type_ids)`): the difference shows the decomposition is the real one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from playground import device
from playground.runtime import Runtime
from playground import checks
from playground.errors import InputError
from playground.models import LoadedModel
from playground.registry import get_spec

# Architecture -> (token table, segment table, position table, normalisation): attribute names on `embeddings`.
# BERT adds position embeddings counted from 0; RoBERTa's start after the padding index, so it is not listed.
EMBEDDING_PARTS = {"bert": ("word_embeddings", "token_type_embeddings", "position_embeddings", "LayerNorm")}
KINDS = ("encoder", "masked")
MAX_CHARS = 2000  # characters of each sentence (the token limit below applies too)
MAX_TOKENS = 64  # rows of the heatmaps; longer pairs are refused (the picture would be unreadable)
TOLERANCE = 1e-5
RESULTS_KEPT = 64  # decompositions kept (the runtime's "inside_embeddings" cache)


@dataclass(frozen=True)
class EmbeddingsRequest:
    text_a: str
    text_b: str = ""
    model: str = "minilm"


@dataclass(frozen=True)
class EmbeddingsRun:
    request: EmbeddingsRequest
    model_id: str
    device: str
    tokens: list[str]
    token_type_ids: list[int]
    position_ids: list[int]
    token: np.ndarray  # (tokens, hidden): the word-piece's row of the token table
    segment: np.ndarray  # the segment (A = 0 / B = 1) row
    position: np.ndarray  # the position row
    summed: np.ndarray  # token + segment + position
    normed: np.ndarray  # LayerNorm(summed): what the first layer reads
    model_output: np.ndarray  # model.embeddings(input_ids, token_type_ids), in eval mode (no dropout)
    max_abs_diff: float  # max |normed - model_output|
    tolerance: float = TOLERANCE
    segment_types: int = 2  # rows of the model's segment table (config.type_vocab_size): 1 = one segment type
    segments_given: bool = True  # False: the tokenizer makes no segment ids (XLM-R's): every token is segment 0
    separator: str = "[SEP]"  # the tokenizer's separator token (what alone marks B's start when segments do not)

    @property
    def single_segment(self) -> bool:
        """Every pair this model reads has one segment: its table has one row, or its tokenizer never picks another."""
        return self.segment_types < 2 or not self.segments_given


def _check(request: EmbeddingsRequest) -> None:
    checks.text(request.text_b, "text_b", MAX_CHARS)
    if not checks.text(request.text_a, "text_a", MAX_CHARS).strip():
        raise InputError("empty_text", "Please type a sentence.")
    spec = get_spec(checks.model_key(request.model, "model", KINDS))
    if spec.model_type not in EMBEDDING_PARTS:
        raise InputError(
            "no_bert_embeddings", "{model} does not build its input the BERT way (token + segment + position).", model=spec.label
        )


def gives_segments(tokenizer) -> bool:
    """Whether the tokenizer puts a pair's second sentence in another segment (asked of it, on a two-word pair):
    BERT's does (segment 1); XLM-R's and RoBERTa's give every token segment 0."""
    return any(tokenizer("a", "b", return_token_type_ids=True)["token_type_ids"])


@device.entry(4)
def decompose(lm: LoadedModel, text_a: str, text_b: str = "") -> EmbeddingsRun:
    import torch  # deferred: torch takes seconds to import; importing this module needs none

    tok = lm.tokenizer
    enc = tok(text_a, text_b or None, return_tensors="pt", return_token_type_ids=True)
    n = enc["input_ids"].shape[1]
    if n > MAX_TOKENS:
        raise InputError(
            "embeddings_too_long", "The pair is {n} tokens long; this view draws at most {limit}.", n=n, limit=MAX_TOKENS
        )
    embeddings = lm.model.base_model.embeddings
    word, segment, position, norm = (getattr(embeddings, name) for name in EMBEDDING_PARTS[lm.model.config.model_type])
    ids = enc["input_ids"].to(lm.device)
    types = enc.get("token_type_ids", torch.zeros_like(enc["input_ids"])).to(lm.device)
    positions = torch.arange(n, device=lm.device).unsqueeze(0)
    with torch.inference_mode():
        parts = [word(ids), segment(types), position(positions)]
        summed = parts[0] + parts[1] + parts[2]
        normed = norm(summed)
        reference = embeddings(input_ids=ids, token_type_ids=types)
    as_np = [x[0].float().cpu().numpy() for x in (*parts, summed, normed, reference)]
    return EmbeddingsRun(
        EmbeddingsRequest(text_a, text_b, lm.spec.key),
        lm.spec.hf_id,
        str(lm.device),
        tok.convert_ids_to_tokens(enc["input_ids"][0].tolist()),
        types[0].tolist(),
        positions[0].tolist(),
        *as_np,
        max_abs_diff=float(np.abs(as_np[4] - as_np[5]).max()),
        segment_types=int(segment.num_embeddings),
        segments_given=gives_segments(tok),
        separator=tok.sep_token or "",
    )


def run_embeddings(request: EmbeddingsRequest, runtime: Runtime) -> EmbeddingsRun:
    """Token, segment and position embeddings of a sentence (pair), their sum, the LayerNorm, and the check."""
    _check(request)
    key = (request.model, request.text_a, request.text_b)
    compute = lambda: decompose(runtime.model(request.model), request.text_a, request.text_b)  # noqa: E731
    return runtime.cached("inside_embeddings", RESULTS_KEPT, key, compute, request.model)
