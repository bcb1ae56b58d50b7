"""Published configuration values of the encoders the course compares: data, so no weights and no hub are needed.

Values are those of the models' config.json files on the Hugging Face Hub (google-bert/bert-base-uncased,
FacebookAI/roberta-base, albert/albert-{base,large,xlarge}-v2). A model is built from them with
`AutoConfig.for_model(model_type, **values)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PublishedConfig:
    key: str
    label: str
    hf_id: str
    model_type: str
    values: tuple[tuple[str, Any], ...]  # config keyword arguments (a tuple of pairs: the dataclass stays hashable)
    cls_token: str = "[CLS]"  # how the first and separator tokens are written (drawn on the heads diagram)
    sep_token: str = "[SEP]"

    @property
    def config_kwargs(self) -> dict[str, Any]:
        return dict(self.values)


def _bert_like(vocab, hidden, layers, heads, ff, positions=512, types=2, **extra) -> tuple[tuple[str, Any], ...]:
    values = dict(
        vocab_size=vocab,
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=ff,
        max_position_embeddings=positions,
        type_vocab_size=types,
        **extra,
    )
    return tuple(values.items())


PUBLISHED = [
    PublishedConfig("bert-base", "BERT-base", "google-bert/bert-base-uncased", "bert", _bert_like(30522, 768, 12, 12, 3072)),
    PublishedConfig(
        "roberta-base",
        "RoBERTa-base",
        "FacebookAI/roberta-base",
        "roberta",
        _bert_like(50265, 768, 12, 12, 3072, positions=514, types=1, pad_token_id=1),
        cls_token="<s>",
        sep_token="</s>",
    ),
    PublishedConfig(
        "albert-base",
        "ALBERT-base",
        "albert/albert-base-v2",
        "albert",
        _bert_like(30000, 768, 12, 12, 3072, embedding_size=128, num_hidden_groups=1),
    ),
    PublishedConfig(
        "albert-large",
        "ALBERT-large",
        "albert/albert-large-v2",
        "albert",
        _bert_like(30000, 1024, 24, 16, 4096, embedding_size=128, num_hidden_groups=1),
    ),
    PublishedConfig(
        "albert-xlarge",
        "ALBERT-xlarge",
        "albert/albert-xlarge-v2",
        "albert",
        _bert_like(30000, 2048, 24, 16, 8192, embedding_size=128, num_hidden_groups=1),
    ),
]
BY_KEY = {c.key: c for c in PUBLISHED}


def published(key: str) -> PublishedConfig:
    from playground.errors import InputError

    if key not in BY_KEY:
        raise InputError(
            "unknown_config",
            "Unknown configuration {name!r}. Choose one of: {known}.",
            name=str(key)[:80],
            known=", ".join(BY_KEY),
        )
    return BY_KEY[key]


def build_meta(model_type: str, values: dict[str, Any], auto_class: str = "AutoModel", **extra: Any) -> Any:
    """A model of this architecture with no weights: every tensor on the meta device (shapes only, no memory)."""
    import torch
    import transformers

    config = transformers.AutoConfig.for_model(model_type, **values, **extra)
    with torch.device("meta"):
        return getattr(transformers, auto_class).from_config(config)
