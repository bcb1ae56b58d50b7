"""The lab's training loop and its before/after measurements (torch; no gradio, no globals).

The course's recipe, written as a plain loop so it can stop at any step: transformers'
`DataCollatorForLanguageModeling` (token or whole-word masking, 80/10/10, seeded), AdamW,
linear warmup then linear decay (`get_linear_schedule_with_warmup`), gradient clipping at 1.0.
Cancel is cooperative: `should_stop()` is asked before every step and between evaluation
batches, so a cancel lands within one step (about a second on a CPU) and keeps what was learned.
"""

from __future__ import annotations

import copy
import math
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import torch

from playground.errors import InputError
from playground.mlm_lab.corpus import Probe
from playground.models import LoadedModel
from playground.tokens import token_texts

MAX_STEPS = 600  # hard caps, whatever a request asks (README: "MLM lab limits")
MAX_SECONDS = 300
MAX_TOKENS = 64  # per sentence
BATCH_SIZE = 16
EVAL_BATCH = 32
MAX_HELD_OUT = 128  # held-out sentences scored (the rest of the 10 % is only used for probes)
TOP_K = 5


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
    try:
        steps, seconds, seed = int(s.max_steps), float(s.max_seconds), int(s.seed)
        prob, lr, warm = float(s.mlm_probability), float(s.learning_rate), float(s.warmup_fraction)
    except (TypeError, ValueError):
        raise InputError("lab_bad_setting", "A training setting is not a number.") from None
    if not 1 <= steps <= MAX_STEPS:
        raise InputError("lab_steps", "Steps must be from 1 to {max}.", max=MAX_STEPS)
    if not 5 <= seconds <= MAX_SECONDS:
        raise InputError("lab_seconds", "The time budget must be from 5 to {max} seconds.", max=MAX_SECONDS)
    if not 0.05 <= prob <= 0.5:
        raise InputError("lab_mlm_probability", "The masking probability must be from 0.05 to 0.5.")
    if not 1e-6 <= lr <= 1e-3:
        raise InputError("lab_learning_rate", "The learning rate must be from 0.000001 to 0.001.")
    if not 0 <= warm <= 0.5:
        raise InputError("lab_warmup", "The warmup share must be from 0 to 0.5.")
    return LabSettings(str(s.base), bool(s.whole_word), prob, lr, steps, seconds, seed, warm)


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
    from transformers import DataCollatorForLanguageModeling

    with warnings.catch_warnings():  # whole-word masking announces it forces [MASK]-only replacement
        warnings.simplefilter("ignore")
        collator = DataCollatorForLanguageModeling(
            tokenizer, mlm_probability=settings.mlm_probability, whole_word_mask=settings.whole_word, seed=seed
        )
    collator.generator = collator.get_generator(seed)  # a local generator: never the global RNG
    return collator


def encode(tokenizer, texts: list[str]) -> list[dict[str, Any]]:
    enc = tokenizer(texts, truncation=True, max_length=MAX_TOKENS, return_offsets_mapping=True, return_special_tokens_mask=True)
    return [
        {"input_ids": ids, "offset_mapping": off, "special_tokens_mask": sp}
        for ids, off, sp in zip(enc["input_ids"], enc["offset_mapping"], enc["special_tokens_mask"])
    ]


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


def fixed_eval_batches(tokenizer, held: list[str], settings: LabSettings) -> list[dict[str, torch.Tensor]]:
    """The held-out masks, drawn once (seed + 1): before, during and after see the same blanks."""
    collator = collator_for(tokenizer, settings, settings.seed + 1)
    feats = encode(tokenizer, held[:MAX_HELD_OUT])
    return [mask_batch(tokenizer, collator, feats[i : i + EVAL_BATCH]) for i in range(0, len(feats), EVAL_BATCH)]


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
            n = int((batch["labels"] != -100).sum())
            if n:
                out = lm.model(**{k: v.to(lm.device) for k, v in batch.items()})
                total += float(out.loss) * n
                count += n
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
        logits = lm.model(**batch).logits.float()
    finally:
        lm.model.train(was_training)
    out = []
    for row, (_, pos, target) in enumerate(located):
        probs = logits[row, pos].softmax(-1)
        p, idx = probs.topk(TOP_K)
        words = [tt.word for tt in token_texts(lm.tokenizer, idx.tolist())]
        rank = int((probs > probs[target]).sum()) + 1
        out.append(ProbeReading(list(zip(words, np.asarray(p.cpu(), dtype=np.float64).tolist())), rank, float(probs[target])))
    return out


def planned_schedule(settings: LabSettings) -> list[float]:
    """The learning rate of every planned step: linear warmup, then linear decay to 0 at the step budget."""
    warm = int(round(settings.warmup_fraction * settings.max_steps))
    lrs = []
    for step in range(settings.max_steps):
        factor = (
            (step + 1) / max(1, warm)
            if step < warm
            else max(0.0, (settings.max_steps - step) / max(1, settings.max_steps - warm))
        )
        lrs.append(settings.learning_rate * min(1.0, factor))
    return lrs


def trainable_copy(base: LoadedModel) -> LoadedModel:
    """A private deep copy of the base model: training it never touches the shared cached one."""
    model = copy.deepcopy(base.model)
    model.to(base.device).train()
    for p in model.parameters():
        p.requires_grad_(True)
    return LoadedModel(base.spec, model, base.tokenizer, base.device)


def train_loop(
    lm: LoadedModel,
    train: list[str],
    eval_batches,
    settings: LabSettings,
    on_point: Callable[[CurvePoint], None],
    should_stop: Callable[[], bool],
    eval_every: int | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[int, float, str]:
    """Train `lm.model` in place; returns (steps done, seconds, why it stopped: steps | time | cancelled)."""
    from transformers import get_linear_schedule_with_warmup

    torch.manual_seed(settings.seed)  # dropout draws (the collator has its own generator)
    collator = collator_for(lm.tokenizer, settings, settings.seed)
    feats = encode(lm.tokenizer, train)
    order_rng = np.random.default_rng(settings.seed)
    params = [p for p in lm.model.parameters() if p.requires_grad]
    optim = torch.optim.AdamW(params, lr=settings.learning_rate, weight_decay=0.01)
    warm = int(round(settings.warmup_fraction * settings.max_steps))
    sched = get_linear_schedule_with_warmup(optim, warm, settings.max_steps)
    eval_every = eval_every or max(5, settings.max_steps // 4)
    lm.model.train()
    started, step, order, cursor, why = clock(), 0, order_rng.permutation(len(feats)), 0, "steps"
    while step < settings.max_steps:
        if should_stop():
            why = "cancelled"
            break
        if clock() - started >= settings.max_seconds:
            why = "time"
            break
        if cursor + BATCH_SIZE > len(order):
            order, cursor = order_rng.permutation(len(feats)), 0
        chunk = [feats[i] for i in order[cursor : cursor + BATCH_SIZE]]
        cursor += BATCH_SIZE
        batch = {k: v.to(lm.device) for k, v in mask_batch(lm.tokenizer, collator, chunk).items()}
        lr = sched.get_last_lr()[0]
        loss = lm.model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optim.step()
        sched.step()
        optim.zero_grad(set_to_none=True)
        step += 1
        on_point(CurvePoint(step, clock() - started, lr, train_loss=float(loss.detach())))
        if step % eval_every == 0 and step < settings.max_steps:
            held = evaluate(lm, eval_batches, should_stop)
            if held is not None:
                on_point(CurvePoint(step, clock() - started, lr, held_loss=held.loss))
    lm.model.eval()
    return step, clock() - started, why
