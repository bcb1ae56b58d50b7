"""ALBERT's savings, with real numbers: parameter counts of models built from published configs, by part.

Every model is built with `AutoModel.from_config` on the meta device (the encoder and its pooler, no
pre-training heads, no weights, no hub), and its parameters are sorted into parts by name through the `PARTS`
table. Beside each measured count stands the textbook formula for the same part (V·E + E·H instead of V·H,
one shared layer instead of L), so the two can be compared number by number. The "what if" model is
ALBERT's architecture with the sizes of a chosen published model and the user's embedding size E and
layer sharing: the formula predicts it, a model built with those settings confirms it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from playground.cache import BoundedCache
from playground.errors import InputError
from playground.inside.configs import PUBLISHED, PublishedConfig, build_meta, published

# Parameter name -> part; the first matching pattern wins (so `attention.output.LayerNorm` is a layer norm).
PARTS: list[tuple[str, re.Pattern]] = [
    ("token_embeddings", re.compile(r"word_embeddings")),
    ("projection", re.compile(r"embedding_hidden_mapping_in")),  # ALBERT's E -> H matrix
    ("position_segment", re.compile(r"position_embeddings|token_type_embeddings")),
    ("layer_norms", re.compile(r"LayerNorm|layer_norm")),
    ("attention", re.compile(r"attention")),
    ("feed_forward", re.compile(r"intermediate|output\.dense|ffn")),
    ("pooler", re.compile(r"pooler")),
]
PART_NAMES = [name for name, _ in PARTS] + ["other"]
E_RANGE = (16, 2048)
_built = BoundedCache(64, "inside_params")


@dataclass(frozen=True)
class Sizes:
    """The few numbers a parameter count depends on."""

    V: int  # vocabulary
    E: int  # embedding size (= H when not factorised)
    H: int  # hidden size
    L: int  # layers
    G: int  # distinct layers (L unshared, 1 when all layers share one set)
    F: int  # feed-forward size
    P: int  # positions
    T: int  # segment (token type) ids
    factorised: bool  # token embeddings of size E, then an E -> H projection (ALBERT)


@dataclass(frozen=True)
class ModelCount:
    key: str
    label: str
    model_type: str
    source: str  # hub id of the published config, or "what if" for the user's settings
    sizes: Sizes
    parts: dict[str, int]  # part -> parameters counted on the built model
    formula: dict[str, int]  # part -> parameters by the formula
    total: int  # model.num_parameters() of the built model
    built_with: str  # e.g. "AutoModel.from_config(AlbertConfig(...)) on the meta device"


@dataclass(frozen=True)
class ParamsRequest:
    base: str = "bert-base"  # published config whose sizes the "what if" model keeps
    embedding_size: int = 128  # E of the "what if" model
    share_layers: bool = True  # one set of layer weights for all L layers


@dataclass(frozen=True)
class ParamsRun:
    request: ParamsRequest
    models: list[ModelCount]  # the published models, then the "what if" model last
    parts: list[str]  # part names in drawing order


def sizes_of(model_type: str, values: dict[str, Any]) -> Sizes:
    H = values["hidden_size"]
    factorised = model_type == "albert"
    L = values["num_hidden_layers"]
    return Sizes(
        V=values["vocab_size"],
        E=values.get("embedding_size", H) if factorised else H,
        H=H,
        L=L,
        G=values.get("num_hidden_groups", 1) if factorised else L,
        F=values["intermediate_size"],
        P=values["max_position_embeddings"],
        T=values.get("type_vocab_size", 2),
        factorised=factorised,
    )


def formula(s: Sizes) -> dict[str, int]:
    """The textbook count per part (weights and biases): V·E + E·H for factorised embeddings, G distinct layers."""
    return {
        "token_embeddings": s.V * s.E,
        "projection": s.E * s.H + s.H if s.factorised else 0,
        "position_segment": (s.P + s.T) * s.E,
        "layer_norms": 2 * s.E + s.G * 2 * (2 * s.H),  # the embeddings' LayerNorm, then two per layer
        "attention": s.G * 4 * (s.H * s.H + s.H),  # Q, K, V and the output projection
        "feed_forward": s.G * (2 * s.H * s.F + s.F + s.H),
        "pooler": s.H * s.H + s.H,
        "other": 0,
    }


def part_of(name: str) -> str:
    return next((part for part, pattern in PARTS if pattern.search(name)), "other")


def count_parts(model: Any) -> dict[str, int]:
    """Parameters of a built model summed by part (shared weights count once, as in num_parameters())."""
    counts = dict.fromkeys(PART_NAMES, 0)
    for name, tensor in model.named_parameters():
        counts[part_of(name)] += tensor.numel()
    return counts


def _count(key: str, label: str, model_type: str, values: dict[str, Any], source: str) -> ModelCount:
    model = build_meta(model_type, values)
    config_class = type(model.config).__name__
    return ModelCount(
        key,
        label,
        model_type,
        source,
        sizes_of(model_type, values),
        count_parts(model),
        formula(sizes_of(model_type, values)),
        int(model.num_parameters()),
        f"AutoModel.from_config({config_class}(...)) on the meta device",
    )


def count_published(config: PublishedConfig) -> ModelCount:
    return _built.get(config.key, lambda: _count(config.key, config.label, config.model_type, config.config_kwargs, config.hf_id))


def what_if_values(base: PublishedConfig, embedding_size: int, share_layers: bool) -> dict[str, Any]:
    """ALBERT's architecture with the base model's sizes and the user's E and sharing."""
    values = base.config_kwargs
    values.pop("pad_token_id", None)
    layers = values["num_hidden_layers"]
    return values | {"embedding_size": embedding_size, "num_hidden_groups": 1 if share_layers else layers}


def check_embedding_size(value: Any) -> int:
    low, high = E_RANGE
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or not low <= value <= high:
        raise InputError(
            "bad_embedding_size", "The embedding size E must be a whole number from {low} to {high}.", low=low, high=high
        )
    return int(value)


def run_params(request: ParamsRequest) -> ParamsRun:
    """Counts of every published model plus the user's "what if" ALBERT, part by part, formula beside the built model."""
    base = published(request.base)
    E = check_embedding_size(request.embedding_size)
    share = bool(request.share_layers)
    values = what_if_values(base, E, share)
    label = f"{base.label} → E={E}" + (", shared" if share else "")
    what_if = _built.get(("what-if", base.key, E, share), lambda: _count("what-if", label, "albert", values, "what if"))
    return ParamsRun(ParamsRequest(base.key, E, share), [count_published(c) for c in PUBLISHED] + [what_if], PART_NAMES)
