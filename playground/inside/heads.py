"""Fine-tuning heads: which encoder outputs feed each task's head, the head's shapes and the parameters it adds.

Each task model (`AutoModelForSequenceClassification`, `...TokenClassification`, `...QuestionAnswering`) is built
on the meta device from a real config (a published one from `configs.PUBLISHED`, or a bundled model's own
config.json): no weights. The head is what the task model has outside its base model (`base_model_prefix`);
its count equals task.num_parameters() - task.base_model.num_parameters().
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playground import availability
from playground import checks
from playground.errors import InputError
from playground.inside.configs import BY_KEY, PUBLISHED, build_meta
from playground.registry import registry
from playground.runtime import Runtime


@dataclass(frozen=True)
class Task:
    key: str
    auto_class: str
    num_labels: int  # as in the benchmark named below
    feeds: str  # "first" ([CLS] / <s> vector) | "every" (one label per token) | "span" (start and end score per token)
    example_a: str
    example_b: str = ""


TASKS = [
    Task("sequence", "AutoModelForSequenceClassification", 2, "first", "the film was wonderful"),  # SST-2: positive / negative
    Task("pair", "AutoModelForSequenceClassification", 3, "first", "a man is sleeping", "nobody sleeps"),  # MNLI: 3 labels
    Task("token", "AutoModelForTokenClassification", 9, "every", "Ada Lovelace lived in London"),  # CoNLL-2003 BIO tags
    Task("qa", "AutoModelForQuestionAnswering", 2, "span", "who wrote it ?", "Austen wrote Emma"),  # SQuAD: start, end
]
ENCODER_TYPES = ("bert", "roberta", "albert")  # architectures with all three task classes and the same naming
BUILT = ("inside heads", 64)  # the runtime cache of built task models: four meta-device builds per config


@dataclass(frozen=True)
class HeadParam:
    name: str
    shape: list[int]
    count: int


@dataclass(frozen=True)
class TaskHead:
    task: str
    auto_class: str
    model_class: str  # e.g. BertForSequenceClassification
    num_labels: int
    feeds: str
    uses_pooler: bool  # the task model's base keeps a pooler (BERT, ALBERT) or not (RoBERTa)
    tokens: list[str]  # the example as the diagram draws it (words, with the family's special tokens)
    segments: list[int]
    head: list[HeadParam]
    new_params: int  # parameters outside the base model
    task_total: int  # task model's num_parameters()
    base_total: int  # its base model's num_parameters()


@dataclass(frozen=True)
class HeadsRequest:
    source: str = "bert-base"  # a published config key, or a bundled registered encoder ("minilm")


@dataclass(frozen=True)
class HeadsRun:
    request: HeadsRequest
    label: str
    config_from: str  # hub id whose config values were used
    model_type: str
    hidden_size: int
    heads: list[TaskHead]


def sources() -> list[tuple[str, str]]:
    """(label, key): the published configs, then bundled encoders whose config ships with them."""
    bundled = [
        (f"{s.label} ({s.hf_id})", s.key)
        for s in registry().values()
        if s.source == "bundled" and s.model_type in ENCODER_TYPES and availability.check(s).ok
    ]
    return [(c.label, c.key) for c in PUBLISHED if c.what_if] + bundled  # BERT-shaped configs (heads are drawn for those)


def _config_values(source: str) -> tuple[str, str, str, dict[str, Any], tuple[str, str]]:
    """(label, hub id, model_type, config values, (cls, sep)) of a source."""
    checks.choice(source, "source", [key for _, key in sources()])
    if source in BY_KEY and BY_KEY[source].what_if:
        c = BY_KEY[source]
        return c.label, c.hf_id, c.model_type, c.config_kwargs, (c.cls_token, c.sep_token)
    spec = registry().get(source) if isinstance(source, str) else None
    folder = availability.bundle_dir(spec) if spec is not None and spec.source == "bundled" else None
    if spec is None or folder is None or spec.model_type not in ENCODER_TYPES:
        raise InputError(
            "unknown_config",
            "Unknown configuration {name!r}. Choose one of: {known}.",
            name=str(source)[:80],
            known=", ".join(k for _, k in sources()),
        )
    import transformers  # deferred: transformers takes seconds to import; importing this module needs none

    config = transformers.AutoConfig.from_pretrained(str(folder), local_files_only=True)  # config.json only, no weights
    keep = ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
            "max_position_embeddings", "type_vocab_size", "embedding_size", "num_hidden_groups", "pad_token_id")  # fmt: skip
    values = {k: getattr(config, k) for k in keep if hasattr(config, k)}
    special = ("<s>", "</s>") if spec.model_type == "roberta" else ("[CLS]", "[SEP]")
    return spec.label, spec.hf_id, spec.model_type, values, special


def _layout(task: Task, special: tuple[str, str]) -> tuple[list[str], list[int]]:
    cls, sep = special
    a = [cls, *task.example_a.split(), sep]
    b = [*task.example_b.split(), sep] if task.example_b else []
    return a + b, [0] * len(a) + [1] * len(b)


def task_head(task: Task, model_type: str, values: dict[str, Any], special: tuple[str, str]) -> TaskHead:
    model = build_meta(model_type, values, task.auto_class, num_labels=task.num_labels)
    prefix = model.base_model_prefix + "."
    head = [HeadParam(name, list(p.shape), p.numel()) for name, p in model.named_parameters() if not name.startswith(prefix)]
    base_names = [name for name, _ in model.base_model.named_parameters()]
    tokens, segments = _layout(task, special)
    return TaskHead(
        task.key,
        task.auto_class,
        type(model).__name__,
        task.num_labels,
        task.feeds,
        any(name.startswith("pooler") for name in base_names),
        tokens,
        segments,
        head,
        sum(h.count for h in head),
        int(model.num_parameters()),
        int(model.base_model.num_parameters()),
    )


def run_heads(request: HeadsRequest, runtime: Runtime) -> HeadsRun:
    """Every task's head for one encoder config: what feeds it, its shapes, its new parameters."""
    label, hf_id, model_type, values, special = _config_values(request.source)
    hidden = values["hidden_size"]

    def build() -> HeadsRun:
        heads = [task_head(task, model_type, values, special) for task in TASKS]
        return HeadsRun(HeadsRequest(request.source), label, hf_id, model_type, hidden, heads)

    return runtime.cache(*BUILT).get(request.source, build)
