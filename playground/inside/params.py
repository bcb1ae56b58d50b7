"""ALBERT's savings, with real numbers: parameter counts of models built from published configs, by part.

Every model is built with `AutoModel.from_config` on the meta device (the encoder and its pooler, no
pre-training heads, no weights, no hub), and its parameters are sorted into parts by name through the `PARTS`
table. Beside each measured count stands the textbook formula for the same part (V·E + E·H instead of V·H,
one shared layer instead of L), so the two can be compared number by number. The "what if" model is
ALBERT's architecture with the sizes of a chosen published model and the user's embedding size E and
layer sharing: the formula predicts it, a model built with those settings confirms it.

Two counting choices, stated because the papers differ from num_parameters():
- ALBERT's own code (google-research/albert, `transformer_model`) projects E -> H only when E != H; Hugging Face's
  `AlbertTransformer` builds `embedding_hidden_mapping_in` always. At E = H that H·H + H matrix is not ALBERT's and
  is left out of the count (`hf_only` says how much), so E = H without sharing is BERT-base exactly.
- The pooler (H·H + H) is counted in `total`; `without_pooler` is given too. ALBERT's Table 3/4 cells match its
  not-shared models without the pooler and its shared ones with it (tests/unit/inside/test_params_papers.py).
Hugging Face's ALBERT shares whole layers only (`num_hidden_groups`); the paper's shared-attention and shared-FFN
variants (Table 4) are counted from the not-shared built model with the shared sub-layer (and its LayerNorm) once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from playground import checks
from playground.errors import InputError
from playground.inside.configs import PUBLISHED, PublishedConfig, build_meta, published
from playground.runtime import Runtime

# Parameter name -> part; the first matching pattern wins (so `attention.output.LayerNorm` is a layer norm).
PARTS: list[tuple[str, re.Pattern]] = [
    ("token_embeddings", re.compile(r"word_embeddings")),
    ("projection", re.compile(r"embedding_hidden_mapping_in|embeddings_project")),  # ALBERT's / ELECTRA's E -> H matrix
    ("position_segment", re.compile(r"position_embeddings|token_type_embeddings")),
    ("layer_norms", re.compile(r"LayerNorm|layer_norm")),
    ("attention", re.compile(r"attention")),
    ("feed_forward", re.compile(r"intermediate|output\.dense|ffn")),
    ("pooler", re.compile(r"pooler")),
]
PART_NAMES = [name for name, _ in PARTS] + ["other"]
E_RANGE = (16, 2048)
SHARING = ("all", "attention", "ffn", "none")  # ALBERT Table 4's strategies: which sub-layers all L layers share
BUILT = ("inside params", 64)  # the runtime cache of counted models: building one on the meta device takes ~0.1 s


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
    T: int  # segment (token type) ids (0: DistilBERT has none)
    factorised: bool  # token embeddings of size E, then an E -> H projection when E != H (ALBERT, ELECTRA)
    sharing: str = "none"  # one of SHARING ("all" when G == 1 < L)
    pooler: bool = True  # the encoder has a pooler (DistilBERT and ELECTRA have none)

    @property
    def attention_sets(self) -> int:
        return 1 if self.sharing in ("all", "attention") else self.L

    @property
    def ffn_sets(self) -> int:
        return 1 if self.sharing in ("all", "ffn") else self.L


@dataclass(frozen=True)
class ModelCount:
    key: str
    label: str
    model_type: str
    source: str  # hub id of the published config, or "what if" for the user's settings
    sizes: Sizes
    parts: dict[str, int]  # part -> parameters counted on the built model
    formula: dict[str, int]  # part -> parameters by the formula
    total: int  # the count (model.num_parameters() less `hf_only`; shared sub-layers once)
    built_with: str  # e.g. "AutoModel.from_config(AlbertConfig(...)) on the meta device"
    hf_only: int = 0  # parameters Hugging Face builds that ALBERT's own code does not (the E -> H matrix at E = H)
    paper: tuple[tuple[int, str], ...] = ()  # (millions, source) as the papers print them

    @property
    def without_pooler(self) -> int:
        return self.total - self.parts["pooler"]


@dataclass(frozen=True)
class ParamsRequest:
    base: str = "bert-base"  # published config whose sizes the "what if" model keeps
    embedding_size: int = 128  # E of the "what if" model
    share_layers: bool | str = True  # True / "all": one set of layer weights for all L layers; or one of SHARING


@dataclass(frozen=True)
class ParamsRun:
    request: ParamsRequest
    models: list[ModelCount]  # the published models, then the "what if" model last
    parts: list[str]  # part names in drawing order


def sizes_of(model_type: str, values: dict[str, Any], sharing: str | None = None) -> Sizes:
    config = _config(model_type, values)
    H, L = config.hidden_size, config.num_hidden_layers
    E = getattr(config, "embedding_size", None) or H
    groups = getattr(config, "num_hidden_groups", L)
    sharing = sharing or ("all" if groups == 1 < L else "none")
    return Sizes(
        V=config.vocab_size,
        E=E,
        H=H,
        L=L,
        G=1 if sharing == "all" else L,
        F=getattr(config, "intermediate_size", None) or config.hidden_dim,
        P=config.max_position_embeddings,
        T=getattr(config, "type_vocab_size", 0),
        factorised=E != H or model_type == "albert",
        sharing=sharing,
        pooler=model_type in ("bert", "roberta", "albert"),  # AutoModel's encoders with a pooler
    )


def _config(model_type: str, values: dict[str, Any]) -> Any:
    import transformers  # deferred: transformers takes seconds to import; importing this module needs none

    return transformers.AutoConfig.for_model(model_type, **values)


def formula(s: Sizes) -> dict[str, int]:
    """The textbook count per part (weights and biases): V·E + E·H for factorised embeddings, shared sub-layers once."""
    A, F = s.attention_sets, s.ffn_sets
    return {
        "token_embeddings": s.V * s.E,
        "projection": s.E * s.H + s.H if s.E != s.H else 0,  # ALBERT's code: no projection when E = H
        "position_segment": (s.P + s.T) * s.E,
        "layer_norms": 2 * s.E + (A + F) * (2 * s.H),  # the embeddings' LayerNorm, then one per sub-layer
        "attention": A * 4 * (s.H * s.H + s.H),  # Q, K, V and the output projection
        "feed_forward": F * (2 * s.H * s.F + s.F + s.H),
        "pooler": s.H * s.H + s.H if s.pooler else 0,
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


def _count(
    key: str, label: str, model_type: str, values: dict[str, Any], source: str, sharing: str | None = None, paper=()
) -> ModelCount:
    sizes = sizes_of(model_type, values, sharing)
    built_values = values if sizes.sharing not in ("attention", "ffn") else values | {"num_hidden_groups": sizes.L}
    model = build_meta(model_type, built_values)
    config_class = type(model.config).__name__
    parts = count_parts(model)
    built_with = f"AutoModel.from_config({config_class}(...)) on the meta device"
    hf_only = 0
    if model_type == "albert" and sizes.E == sizes.H:  # HF's E -> H matrix, which ALBERT's code does not build
        hf_only, parts["projection"] = parts["projection"], 0
        built_with += f"; Hugging Face's E→H matrix at E = H ({hf_only:,}) not counted: ALBERT's code builds none"
    if sizes.sharing in ("attention", "ffn"):  # HF shares whole layers only: count the shared sub-layer once
        L, H = sizes.L, sizes.H
        parts["attention"] = parts["attention"] * sizes.attention_sets // L
        parts["feed_forward"] = parts["feed_forward"] * sizes.ffn_sets // L
        parts["layer_norms"] -= (2 * L - sizes.attention_sets - sizes.ffn_sets) * 2 * H
        built_with += f"; not-shared model built, the shared {sizes.sharing} sub-layer counted once"
    total = sum(parts.values())
    return ModelCount(key, label, model_type, source, sizes, parts, formula(sizes), total, built_with, hf_only, paper)


def count_published(config: PublishedConfig, runtime: Runtime) -> ModelCount:
    return runtime.cache(*BUILT).get(
        config.key,
        lambda: _count(config.key, config.label, config.model_type, config.config_kwargs, config.hf_id, paper=config.paper),
    )


def what_if_values(base: PublishedConfig, embedding_size: int, share_layers: bool | str) -> dict[str, Any]:
    """ALBERT's architecture with the base model's sizes and the user's E and sharing."""
    values = base.config_kwargs
    values.pop("pad_token_id", None)
    layers = values["num_hidden_layers"]
    return values | {"embedding_size": embedding_size, "num_hidden_groups": 1 if check_sharing(share_layers) == "all" else layers}


def check_embedding_size(value: Any) -> int:
    return checks.whole(value, "embedding_size", *E_RANGE)


def check_sharing(value: Any) -> str:
    """True / False (the old checkbox) or one of SHARING."""
    if isinstance(value, bool):
        return "all" if value else "none"
    return checks.choice(value, "share_layers", SHARING)


def check_base(key: Any) -> PublishedConfig:
    base = published(key)
    if not base.what_if:
        raise InputError(
            "bad_what_if_base",
            '{name} is not BERT-shaped; take the "what if" sizes from one of: {known}.',
            name=base.label,
            known=", ".join(c.key for c in PUBLISHED if c.what_if),
        )
    return base


def run_params(request: ParamsRequest, runtime: Runtime) -> ParamsRun:
    """Counts of every published model plus the user's "what if" ALBERT, part by part, formula beside the built model."""
    base = check_base(request.base)
    E = check_embedding_size(request.embedding_size)
    sharing = check_sharing(request.share_layers)
    values = what_if_values(base, E, sharing)
    label = f"{base.label} → E={E}" + ("" if sharing == "none" else f", shared {sharing}")
    what_if = runtime.cache(*BUILT).get(
        ("what-if", base.key, E, sharing), lambda: _count("what-if", label, "albert", values, "what if", sharing)
    )
    counts = [count_published(c, runtime) for c in PUBLISHED] + [what_if]
    return ParamsRun(ParamsRequest(base.key, E, sharing), counts, PART_NAMES)
