"""The lab's training loop and its before/after measurements (torch; no gradio, no globals).

The course's exercise as it is written: `transformers.Trainer` + `TrainingArguments` (AdamW, linear warmup
then linear decay, gradient clipping at 1.0) over transformers' `DataCollatorForLanguageModeling` (token or
whole-word masking, 80/10/10, seeded). A TrainerCallback streams the curve and asks the Trainer to stop:
`should_stop()` is asked after every step and between evaluation batches, so a cancel lands within one step
(about a second on a CPU) and keeps what was learned.
"""

from __future__ import annotations

import copy
import math
from bisect import bisect_right
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import torch
from transformers import DataCollatorForLanguageModeling

from playground import checks
from playground.masking.segment import word_starts
from playground.mlm_lab.corpus import Probe
from playground.models import LoadedModel
from playground.text_units import as_listed, token_texts

MAX_STEPS = 600  # hard caps, whatever a request asks (README: "MLM lab limits")
MAX_SECONDS = 300
MAX_TOKENS = 64  # per sentence
BATCH_SIZE = 16
EVAL_BATCH = 32
MAX_HELD_OUT = 128  # held-out sentences scored (the rest of the 10 % is only used for probes)
TOP_K = 5
LAB_KINDS = ("masked",)  # the bases the lab can fine-tune


@dataclass(frozen=True)
class LabSettings:
    base: str = "minilm-mlm"  # a masked LM in the registry
    whole_word: bool = False
    mlm_probability: float = 0.15
    learning_rate: float = 1e-4
    max_steps: int = 80
    max_seconds: float = 120.0
    seed: int = 0
    warmup_fraction: float = 0.1


def check_settings(s: LabSettings) -> LabSettings:
    """The settings as run, or InputError naming what is out of range (caps included)."""
    return LabSettings(
        checks.model_key(s.base, "base", LAB_KINDS),
        checks.flag(s.whole_word, "whole_word"),
        checks.number(s.mlm_probability, "mlm_probability", 0.05, 0.5),
        checks.number(s.learning_rate, "learning_rate", 1e-6, 1e-3),
        checks.whole(s.max_steps, "max_steps", 1, MAX_STEPS),
        checks.number(s.max_seconds, "max_seconds", 5, MAX_SECONDS),
        checks.seed(s.seed),
        checks.number(s.warmup_fraction, "warmup_fraction", 0, 0.5),
    )


@dataclass(frozen=True)
class Evaluation:
    loss: float  # mean cross-entropy over the held-out masked tokens (the same masks before and after)
    perplexity: float  # exp(loss)
    masked_tokens: int


@dataclass(frozen=True)
class CurvePoint:
    step: int
    seconds: float
    lr: float
    train_loss: float | None = None  # this step's batch
    held_loss: float | None = None  # the held-out loss, measured every few steps


@dataclass(frozen=True)
class ProbeReading:
    top: list[tuple[str, float]]  # top-5 (word, probability) at the mask
    rank: int  # rank of the true word (1 = top)
    probability: float


@dataclass(frozen=True)
class ProbeCompare:
    masked: str  # the held-out sentence with [MASK] in place of the domain word
    word: str
    before: ProbeReading
    after: ProbeReading | None = None


@dataclass(frozen=True)
class DomainRow:
    word: str
    count: int
    general_rank: int | None
    probe: str  # the held-out sentence it is measured in
    before: ProbeReading
    after: ProbeReading | None = None


@dataclass(frozen=True)
class LabResult:
    settings: LabSettings
    model_id: str
    device: str
    n_train: int
    n_held: int
    steps: int
    seconds: float
    stopped: str  # "steps" | "time" | "cancelled" | "running"
    before: Evaluation
    after: Evaluation | None
    curve: list[CurvePoint]
    lr_schedule: list[float]  # the planned learning rate of every step
    probes: list[ProbeCompare]
    domain: list[DomainRow]
    general_reference: str  # what "rare in general text" was measured against
    notes: list[str] = field(default_factory=list)  # codes: "no_probes", "few_steps"


def collator_for(tokenizer, settings: LabSettings, seed: int):
    with warnings.catch_warnings():  # whole-word masking announces it forces [MASK]-only replacement
        warnings.simplefilter("ignore")
        collator = DataCollatorForLanguageModeling(
            tokenizer, mlm_probability=settings.mlm_probability, whole_word_mask=settings.whole_word, seed=seed
        )
    collator.generator = collator.get_generator(seed)  # a local generator: never the global RNG
    return collator


def answered_pieces(lm: LoadedModel) -> torch.Tensor | None:
    """Which vocabulary ids the model's masked-LM head answers (a bool per id), or None: every one.

    e5-mlm's head was trained on 12,629 of XLM-R's 250,002 pieces and holds the rest at one bias floor, ten nats
    below the lowest it answers (`ModelSpec.partial_head`). A blank that hides one of the rest (a multi-character
    piece such as 调整, the lone "▁", punctuation) costs ~25 nats whatever the model knows: on the Chinese sample
    64 % of the blanks were such, and the lab showed a held-out loss of 18.3 where e5-mlm's own is about 5. Read
    from the base before training (a fine-tuned bias leaves the floor).
    """
    if not lm.spec.partial_head:
        return None
    bias = lm.model.get_output_embeddings().bias.detach().float().cpu()
    return bias > bias.min()


def encode(tokenizer, texts: list[str], answers: torch.Tensor | None = None) -> list[dict[str, Any]]:
    """Token ids, offsets (word_gaps) and the special-tokens mask the collator never hides. With `answers`
    (answered_pieces), a piece the model's head does not answer counts as special too: never hidden, never scored
    (whole-word masking then starts a new word after it, as after any special token)."""
    enc = tokenizer(texts, truncation=True, max_length=MAX_TOKENS, return_offsets_mapping=True, return_special_tokens_mask=True)
    special = enc["special_tokens_mask"]
    if answers is not None:
        answered = answers.tolist()  # plain bools: one lookup per token
        special = [[int(s or not answered[i]) for s, i in zip(sp, ids)] for sp, ids in zip(special, enc["input_ids"])]
    return [
        {"input_ids": ids, "offset_mapping": word_gaps(text, off), "special_tokens_mask": sp}
        for text, ids, off, sp in zip(texts, enc["input_ids"], enc["offset_mapping"], special)
    ]


def word_gaps(text: str, offsets: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Offsets in which each of jieba's words starts after a gap, for Chinese text.

    Whole-word masking (the collator) takes a token that starts where the one before ended for the same word. Chinese
    has no spaces, so a whole Chinese sentence was one "word", masked or kept at once. Chinese BERT-wwm masks the
    words a segmenter finds (LTP; jieba here, as in the masking tab): each token is shifted by the number of word
    starts up to its own start, which opens a gap before every word and none inside one (a token is never split).
    Text without Chinese keeps the tokenizer's offsets (its words are already separated by spaces).
    """
    starts = word_starts(text)
    if starts is None:
        return offsets
    starts = sorted(starts)
    out = []
    for a, b in offsets:
        if b <= a:  # a special token: the collator's special-token mask handles it
            out.append((a, b))
            continue
        shift = bisect_right(starts, a)
        out.append((a + shift, b + shift))
    return out


def mask_batch(tokenizer, collator, features: list[dict[str, Any]]) -> dict[str, torch.Tensor]:
    """Pad, then let the collator mask (offsets passed so whole-word masking finds words)."""
    width = max(len(f["input_ids"]) for f in features)
    pad = tokenizer.pad_token_id
    ids = torch.tensor([f["input_ids"] + [pad] * (width - len(f["input_ids"])) for f in features])
    attention = torch.tensor([[1] * len(f["input_ids"]) + [0] * (width - len(f["input_ids"])) for f in features])
    special = torch.tensor([f["special_tokens_mask"] + [1] * (width - len(f["input_ids"])) for f in features])
    offsets = torch.tensor([list(map(list, f["offset_mapping"])) + [[0, 0]] * (width - len(f["input_ids"])) for f in features])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        inputs, labels = collator.torch_mask_tokens(
            ids, special_tokens_mask=special, offset_mapping=offsets if collator.whole_word_mask else None
        )
    return {"input_ids": inputs, "attention_mask": attention, "labels": labels}


def fixed_eval_batches(
    tokenizer, held: list[str], settings: LabSettings, answers: torch.Tensor | None = None
) -> list[dict[str, torch.Tensor]]:
    """The held-out masks, drawn once (seed + 1): before, during and after see the same blanks."""
    collator = collator_for(tokenizer, settings, settings.seed + 1)
    feats = encode(tokenizer, held[:MAX_HELD_OUT], answers)
    return [mask_batch(tokenizer, collator, feats[i : i + EVAL_BATCH]) for i in range(0, len(feats), EVAL_BATCH)]


# Each masked LM's output head by architecture (variants as rows): `blanks_logits` runs it at the blanks only.
# The head is most of a forward pass with a large vocabulary (e5-mlm's 250k words: ~96M multiply-adds a token
# against ~10M for its six encoder layers) and the blanks are ~15 % of the held-out tokens, so scoring only them
# made the lab's before/after on e5-mlm several times faster (docs/measurements.md); the loss is the same number.
# Others (ELECTRA's and DistilBERT's heads are several modules) run the whole model.
MLM_HEADS = {
    "BertForMaskedLM": "cls",
    "RobertaForMaskedLM": "lm_head",
    "XLMRobertaForMaskedLM": "lm_head",
    "AlbertForMaskedLM": "predictions",
}


def blanks_logits(model, batch: dict[str, torch.Tensor], rows: torch.Tensor, cols: torch.Tensor) -> torch.Tensor:
    """The masked LM's logits at positions (rows[i], cols[i]) of `batch` (its inputs; `labels` is not read)."""
    inputs = {k: v for k, v in batch.items() if k != "labels"}
    head = MLM_HEADS.get(type(model).__name__)
    if head is None:
        return model(**inputs).logits[rows, cols]
    hidden = model.base_model(**inputs).last_hidden_state
    return getattr(model, head)(hidden[rows, cols])


@torch.no_grad()
def evaluate(lm: LoadedModel, batches, should_stop: Callable[[], bool] = lambda: False) -> Evaluation | None:
    """Mean masked-token cross-entropy on the fixed held-out batches (None if stopped midway)."""
    was_training = lm.model.training
    lm.model.eval()
    total, count = 0.0, 0
    try:
        for batch in batches:
            if should_stop():
                return None
            batch = {k: v.to(lm.device) for k, v in batch.items()}
            rows, cols = (batch["labels"] != -100).nonzero(as_tuple=True)
            if len(rows):
                logits = blanks_logits(lm.model, batch, rows, cols)
                loss = torch.nn.functional.cross_entropy(logits.float(), batch["labels"][rows, cols], reduction="sum")
                total += float(loss)
                count += len(rows)
    finally:
        lm.model.train(was_training)
    loss = total / max(count, 1)
    return Evaluation(loss, math.exp(min(loss, 50.0)), count)


def locate(tokenizer, probe: Probe) -> tuple[list[int], int, int] | None:
    """(input ids with the mask in place, mask position, true token id), or None when the word is not one token here."""
    enc = tokenizer(probe.sentence, truncation=True, max_length=MAX_TOKENS, return_offsets_mapping=True)
    covering = [i for i, (a, b) in enumerate(enc["offset_mapping"]) if b > a and a < probe.end and b > probe.start]
    if len(covering) != 1:
        return None
    pos = covering[0]
    a, b = enc["offset_mapping"][pos]
    if a > probe.start or b < probe.end:  # the token must be the whole word, nothing less
        return None
    ids = list(enc["input_ids"])
    target = ids[pos]
    ids[pos] = tokenizer.mask_token_id
    return ids, pos, target


@torch.no_grad()
def read_probes(lm: LoadedModel, located: list[tuple[list[int], int, int]]) -> list[ProbeReading]:
    """Top-5, rank and probability of the true word at each probe's mask, in one padded forward pass."""
    if not located:
        return []
    was_training = lm.model.training
    lm.model.eval()
    try:
        batch = lm.tokenizer.pad({"input_ids": [ids for ids, _, _ in located]}, return_tensors="pt").to(lm.device)
        rows = torch.arange(len(located), device=lm.device)
        cols = torch.tensor([pos for _, pos, _ in located], device=lm.device)
        logits = blanks_logits(lm.model, dict(batch), rows, cols).float()
    finally:
        lm.model.train(was_training)
    out = []
    for row, (_, _, target) in enumerate(located):
        probs = logits[row].softmax(-1)
        p, idx = probs.topk(TOP_K)
        words = [as_listed(tt) for tt in token_texts(lm.tokenizer, idx.tolist())]  # continuations keep their ##
        rank = int((probs > probs[target]).sum()) + 1
        out.append(ProbeReading(list(zip(words, np.asarray(p.cpu(), dtype=np.float64).tolist())), rank, float(probs[target])))
    return out


def planned_schedule(settings: LabSettings) -> list[float]:
    """The learning rate of every planned step, as the Trainer's "linear" schedule gives it (transformers'
    `get_linear_schedule_with_warmup`): from 0 up over the warmup steps, then linearly down to 0 at the budget."""
    warm = int(round(settings.warmup_fraction * settings.max_steps))
    total = settings.max_steps
    return [
        settings.learning_rate * (step / warm if step < warm else max(0.0, (total - step) / max(1, total - warm)))
        for step in range(total)
    ]


def trainable_copy(base: LoadedModel) -> LoadedModel:
    """A private deep copy of the base model: training it never touches the shared cached one."""
    model = copy.deepcopy(base.model)
    model.to(base.device).float().train()  # float32 even when the base runs in half precision: AdamW needs it
    for p in model.parameters():
        p.requires_grad_(True)
    return LoadedModel(base.spec, model, base.tokenizer, base.device)


def trainer_options(settings: LabSettings) -> dict[str, Any]:
    """The TrainingArguments of a lab run (the page's and the Code panel's script's: one table).

    AdamW (torch's), linear warmup then linear decay to 0 at the step budget, clipping at 1.0; nothing written to
    disk or reported anywhere, no progress bar (the page draws its own curve).
    """
    return {
        "max_steps": settings.max_steps,
        "per_device_train_batch_size": BATCH_SIZE,
        "learning_rate": settings.learning_rate,
        "weight_decay": 0.01,
        "optim": "adamw_torch",
        "lr_scheduler_type": "linear",
        "warmup_steps": int(round(settings.warmup_fraction * settings.max_steps)),  # an int: whole steps, as planned
        "max_grad_norm": 1.0,
        "seed": settings.seed,
        "logging_steps": 1,  # every step's batch loss reaches the curve
        "remove_unused_columns": False,  # the collator needs special_tokens_mask (and the offsets, for whole words)
        "save_strategy": "no",
        "report_to": "none",
        "disable_tqdm": True,
        "log_level": "error",
    }
