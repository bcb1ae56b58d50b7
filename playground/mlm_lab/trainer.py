"""The lab's training run: `transformers.Trainer` on a private copy, streamed by a TrainerCallback.

Trainer seeds the global RNGs (`seed`: dropout and the batch order) and may write to stdout and disk, so the
lab calls this in its worker process (playground.mlm_lab.worker), never in the server's. Nothing is left
behind: no checkpoint (`save_strategy="no"`), no report, the output folder a temporary one removed afterwards.
"""

from __future__ import annotations

import tempfile
import time
from typing import Callable

from transformers import PrinterCallback, Trainer, TrainerCallback, TrainingArguments
from transformers.utils import logging as hf_logging

from playground.mlm_lab.training import (
    CurvePoint,
    LabSettings,
    collator_for,
    encode,
    evaluate,
    mask_batch,
    trainer_options,
)
from playground.models import LoadedModel


class Stream(TrainerCallback):
    """Streams the curve and stops the Trainer within a step when asked (cancel) or when time is up.

    The training loss is the Trainer's own log (logging_steps=1: that step's batch). The held-out loss is
    `evaluate` on the fixed held-out masks every `eval_every` steps, so the curve compares with the "before"
    line: Trainer.evaluate would draw new masks each time.
    """

    def __init__(self, lm, eval_batches, settings: LabSettings, on_point, should_stop, eval_every: int, clock):
        self.lm, self.eval_batches, self.settings = lm, eval_batches, settings
        self.on_point, self.should_stop, self.eval_every, self.clock = on_point, should_stop, eval_every, clock
        self.started, self.lr, self.why = clock(), settings.learning_rate, "steps"

    def on_step_begin(self, args, state, control, lr_scheduler=None, **kwargs):
        if lr_scheduler is not None:
            self.lr = lr_scheduler.get_last_lr()[0]  # the rate this step uses (the scheduler steps after it)

    def _maybe_stop(self, control) -> None:
        if self.should_stop():
            self.why, control.should_training_stop = "cancelled", True
        elif self.clock() - self.started >= self.settings.max_seconds:
            self.why, control.should_training_stop = "time", True

    def on_step_end(self, args, state, control, **kwargs):
        self._maybe_stop(control)

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not logs or "loss" not in logs:  # the end-of-training summary has no step loss
            return
        step = state.global_step
        self.on_point(CurvePoint(step, self.clock() - self.started, self.lr, train_loss=float(logs["loss"])))
        self._maybe_stop(control)  # the log comes after on_step_end: a cancel heard with this point stops here
        if step % self.eval_every == 0 and step < self.settings.max_steps and not control.should_training_stop:
            held = evaluate(self.lm, self.eval_batches, self.should_stop)
            if held is not None:
                self.on_point(CurvePoint(step, self.clock() - self.started, self.lr, held_loss=held.loss))


def train(
    lm: LoadedModel,
    train_texts: list[str],
    eval_batches,
    settings: LabSettings,
    on_point: Callable[[CurvePoint], None],
    should_stop: Callable[[], bool],
    eval_every: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    answers=None,
) -> tuple[int, float, str]:
    """Train `lm.model` in place; returns (steps done, seconds, why it stopped: steps | time | cancelled).
    `answers`: the pieces the base's head answers (training.answered_pieces), the only ones hidden and scored."""
    collator = collator_for(lm.tokenizer, settings, settings.seed)
    feats = encode(lm.tokenizer, train_texts, answers)
    every = eval_every or max(5, settings.max_steps // 4)
    stream = Stream(lm, eval_batches, settings, on_point, should_stop, every, clock)
    verbosity = hf_logging.get_verbosity()  # Trainer sets it process-wide from `log_level` and never puts it back
    with tempfile.TemporaryDirectory(prefix="mlm-lab-") as folder:
        args = TrainingArguments(
            output_dir=folder,
            use_cpu=str(lm.device) == "cpu",
            **trainer_options(settings),
        )
        try:  # the verbosity changes in Trainer's constructor
            trainer = Trainer(
                model=lm.model,
                args=args,
                train_dataset=feats,
                data_collator=lambda chunk: mask_batch(lm.tokenizer, collator, chunk),  # pads, then the collator masks
                callbacks=[stream],
            )
            trainer.remove_callback(PrinterCallback)  # it would print every log line to stdout
            trainer.train()
        finally:
            hf_logging.set_verbosity(verbosity)
        steps = trainer.state.global_step
    lm.model.eval()
    return steps, clock() - stream.started, stream.why
