"""Published configuration values of the encoders the course compares: data, so no weights and no hub are needed.

Values are those of the models' config.json files on the Hugging Face Hub (google-bert/bert-base-uncased,
FacebookAI/roberta-base, albert/albert-{base,large,xlarge}-v2). A model is built from them with
`AutoConfig.for_model(model_type, **values)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from playground import checks
from playground.models import BUILD_LOCK


@dataclass(frozen=True)
class PublishedConfig:
    key: str
    label: str
    hf_id: str
    model_type: str
    values: tuple[tuple[str, Any], ...]  # config keyword arguments (a tuple of pairs: the dataclass stays hashable)
    cls_token: str = "[CLS]"  # how the first and separator tokens are written (drawn on the heads diagram)
    sep_token: str = "[SEP]"
    paper: tuple[tuple[int, str], ...] = ()  # (millions, source) as the papers print them: shown beside the count
    what_if: bool = True  # BERT-shaped values an ALBERT "what if" can take its sizes from

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


# Sources of the papers' figures (text keys inside.params.source.<name>): ALBERT's Table 1 (arXiv 1909.11942), the BERT
# paper (1810.04805), DistilBERT's (1910.01108) and ELECTRA's Table 1 (2003.10555).
PUBLISHED = [
    PublishedConfig(
        "bert-base",
        "BERT-base",
        "google-bert/bert-base-uncased",
        "bert",
        _bert_like(30522, 768, 12, 12, 3072),
        paper=((108, "albert_table1"), (110, "bert_paper")),
    ),
    PublishedConfig(
        "bert-large",
        "BERT-large",
        "google-bert/bert-large-uncased",
        "bert",
        _bert_like(30522, 1024, 24, 16, 4096),
        paper=((334, "albert_table1"), (340, "bert_paper")),
    ),
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
        paper=((12, "albert_table1"),),
    ),
    PublishedConfig(
        "albert-large",
        "ALBERT-large",
        "albert/albert-large-v2",
        "albert",
        _bert_like(30000, 1024, 24, 16, 4096, embedding_size=128, num_hidden_groups=1),
        paper=((18, "albert_table1"),),
    ),
    PublishedConfig(
        "albert-xlarge",
        "ALBERT-xlarge",
        "albert/albert-xlarge-v2",
        "albert",
        _bert_like(30000, 2048, 24, 16, 8192, embedding_size=128, num_hidden_groups=1),
        paper=((60, "albert_table1"),),
    ),
    PublishedConfig(
        "albert-xxlarge",
        "ALBERT-xxlarge",
        "albert/albert-xxlarge-v2",
        "albert",
        _bert_like(30000, 4096, 12, 64, 16384, embedding_size=128, num_hidden_groups=1),
        paper=((235, "albert_table1"),),
    ),
    PublishedConfig(
        "distilbert",
        "DistilBERT",
        "distilbert/distilbert-base-uncased",
        "distilbert",
        tuple(dict(vocab_size=30522, dim=768, n_layers=6, n_heads=12, hidden_dim=3072, max_position_embeddings=512).items()),
        paper=((66, "distilbert_paper"),),
        what_if=False,
    ),
    PublishedConfig(
        "electra-small",
        "ELECTRA-small",
        "google/electra-small-discriminator",
        "electra",
        _bert_like(30522, 256, 12, 4, 1024, embedding_size=128),
        paper=((14, "electra_paper"),),
        what_if=False,
    ),
]
BY_KEY = {c.key: c for c in PUBLISHED}


def published(key: str, name: str = "base") -> PublishedConfig:
    return BY_KEY[checks.choice(key, name, BY_KEY)]


def build_meta(model_type: str, values: dict[str, Any], auto_class: str = "AutoModel", **extra: Any) -> Any:
    """A model of this architecture with no weights: every tensor on the meta device (shapes only, no memory)."""
    import torch  # deferred: torch takes seconds to import; importing this module needs none
    import transformers

    config = transformers.AutoConfig.for_model(model_type, **values, **extra)
    with BUILD_LOCK, torch.device("meta"):  # from_config swaps process-wide class attributes too (models.BUILD_LOCK)
        return getattr(transformers, auto_class).from_config(config)
