"""The MLM lab's training step: transformers.Trainer in the lab's worker process (what it is) against the plain
loop it replaced (what it was), the same tiny steps in one run, per step; the worker's start-up apart.

Both train a private copy of the same model on the same corpus with the same collator, batch, schedule and
held-out evaluations (every max(5, steps // 4) steps); "per step" is the time from the first step's curve point
to the last's, divided by the steps between them. The Trainer is also timed in this process, to tell its own
overhead from the worker's (queue messages, a second process on the same cores).

    nice -n 10 python bench/lab_trainer.py            # tiny BERT (hidden 32), 40 steps, 3 rounds
    MODEL=minilm-mlm STEPS=20 python bench/lab_trainer.py   # the bundled MiniLM
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from playground import models  # noqa: E402
from playground.mlm_lab import corpus as corpus_mod  # noqa: E402
from playground.mlm_lab.lab import LabProgress, LabRequest  # noqa: E402
from playground.mlm_lab.trainer import train as trainer_train  # noqa: E402
from playground.mlm_lab.training import (  # noqa: E402
    BATCH_SIZE,
    CurvePoint,
    LabSettings,
    collator_for,
    encode,
    evaluate,
    fixed_eval_batches,
    mask_batch,
    trainable_copy,
)
from playground.mlm_lab.worker import Worker  # noqa: E402
from tests import tiny_models  # noqa: E402

MODEL = os.environ.get("MODEL", "tiny")
STEPS = int(os.environ.get("STEPS", "40"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))


def old_loop(lm, train, eval_batches, settings, on_point, should_stop, eval_every=None, clock=time.monotonic):
    """The lab's hand-written loop before the Trainer (main 3de5db7, playground/mlm_lab/training.py), as it was."""
    from transformers import get_linear_schedule_with_warmup

    torch.manual_seed(settings.seed)
    collator = collator_for(lm.tokenizer, settings, settings.seed)
    feats = encode(lm.tokenizer, train)
    order_rng = np.random.default_rng(settings.seed)
    params = [p for p in lm.model.parameters() if p.requires_grad]
    optim = torch.optim.AdamW(params, lr=settings.learning_rate, weight_decay=0.01)
    warm = int(round(settings.warmup_fraction * settings.max_steps))
    sched = get_linear_schedule_with_warmup(optim, warm, settings.max_steps)
    eval_every = eval_every or max(5, settings.max_steps // 4)
    lm.model.train()
    started, step, order, cursor = clock(), 0, order_rng.permutation(len(feats)), 0
    while step < settings.max_steps:
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
            on_point(CurvePoint(step, clock() - started, lr, held_loss=held.loss))
    lm.model.eval()


def per_step(points: list[CurvePoint]) -> float:
    steps = [p for p in points if p.train_loss is not None]
    return (steps[-1].seconds - steps[0].seconds) / (steps[-1].step - steps[0].step)


class Curve(LabProgress):
    def __init__(self):
        self.points = []

    def point(self, point):
        self.points.append(point)


def main() -> None:
    load = tiny_models.lab_base if MODEL == "tiny" else models.load
    base = load(MODEL)
    text = (
        corpus_mod.sample_corpus() if MODEL != "tiny" else "\n".join(line for line in tiny_models.CORPUS if line.isascii()) * 12
    )
    settings = LabSettings(base="bert" if MODEL == "tiny" else MODEL, max_steps=STEPS, max_seconds=300, seed=0)
    train, held = corpus_mod.split(corpus_mod.sentences(text), settings.seed)
    batches = fixed_eval_batches(base.tokenizer, held, settings)
    worker = Worker(loader=load)
    request = LabRequest(text, settings)
    start = time.perf_counter()
    worker.run(LabRequest(text, LabSettings(**{**settings.__dict__, "max_steps": 1})), Curve(), load, ranks={})
    cold = time.perf_counter() - start
    start = time.perf_counter()
    worker.run(LabRequest(text, LabSettings(**{**settings.__dict__, "max_steps": 1})), Curve(), load, ranks={})
    warm = time.perf_counter() - start
    loop_s, trainer_s, worker_s = [], [], []
    for _ in range(ROUNDS):
        points: list[CurvePoint] = []
        old_loop(trainable_copy(base), train, batches, settings, points.append, lambda: False)
        loop_s.append(per_step(points))
        points = []
        trainer_train(trainable_copy(base), train, batches, settings, points.append, lambda: False)
        trainer_s.append(per_step(points))
        curve = Curve()
        worker.run(request, curve, load, ranks={})
        worker_s.append(per_step(curve.points))
    worker.stop()
    loop, trainer, in_worker = (statistics.median(x) * 1000 for x in (loop_s, trainer_s, worker_s))
    print(f"model {MODEL}, {STEPS} steps x {ROUNDS} rounds, batch {BATCH_SIZE}, {torch.get_num_threads()} torch threads")
    print(f"worker start-up (first training, 1 step, minus a warm one): {cold - warm:.1f} s (warm 1-step run {warm:.1f} s)")
    print("| | per step (median) | ratio to the loop |")
    print("|---|---|---|")
    print(f"| old loop, in process | {loop:.1f} ms | 1.00x |")
    print(f"| Trainer, in process | {trainer:.1f} ms | {trainer / loop:.2f}x |")
    print(f"| Trainer, in the worker (what the lab runs) | {in_worker:.1f} ms | {in_worker / loop:.2f}x |")
    for name, times in (("loop", loop_s), ("Trainer", trainer_s), ("worker", worker_s)):
        print(f"rounds, {name} (ms):", [round(x * 1000, 1) for x in times])


if __name__ == "__main__":
    main()
