"""The probes' request and result: frozen, plain numbers, so /probes returns them as JSON as they are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TASKS = ("pos", "sense")  # the syntactic label and the semantic label, on the same tokens where the data allow


@dataclass(frozen=True)
class ProbeRequest:
    model: str  # a registry key: elmo-small, minilm or e5-small (PROBED)
    lang: str  # the data's language: "en" (WordNet) or "zh" (HSK + jieba, polysemy presets)


@dataclass(frozen=True)
class TaskCurve:
    """One label's probes, one per layer: held-out accuracy of the task and of its control task, and their gap.

    `control` is the accuracy on a control task (Hewitt & Liang 2019), labels a probe can only fit by memorising
    words: for part of speech theirs (every word type gets one random label, drawn once with a fixed seed from the
    label frequencies); for sense, each word's own senses dealt out at random among its tokens (probe.py says why).
    `selectivity` = accuracy - control. `word_alone` is what the word without its context gets right (the most
    frequent training label of that word; 1 / senses of the word for a leave-one-out split, where that guess is
    always wrong by construction), and `majority` the most frequent label overall.
    """

    task: str  # "pos" or "sense"
    accuracy: tuple[float, ...]
    control: tuple[float, ...]
    selectivity: tuple[float, ...]
    word_alone: float
    majority: float
    n_train: int
    n_test: int  # tokens scored (for leave-one-out: every token, each held out once)
    n_classes: int
    n_types: int  # distinct words
    split: str  # "fixed" (a held-out set) or "leave-one-out"
    control_task: str  # "word_type" (Hewitt & Liang: one random label per word) or "within_word" (senses shuffled)
    source: str  # where the tokens and labels come from, in a few words (English; the page words it per language)


@dataclass(frozen=True)
class Reading:
    """One sentence of interpretation: `code` says which, `params` the numbers it rests on (the page words it)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ProbeResult:
    model: str
    model_id: str
    model_label: str
    lang: str
    layers: tuple[int, ...]  # 0 = the input layer (embeddings / ELMo's char CNN), then each block
    layer_names: tuple[str, ...]  # "embeddings", "1", ... or ELMo's "char CNN", "biLSTM 1", "biLSTM 2"
    pos: TaskCurve
    sense: TaskCurve
    readings: tuple[Reading, ...]
    seed: int
    probe: str  # the classifier, as configured (one line)
    train_seconds: float  # fitting every probe of this result (task + control, all layers), on the machine that made it
    feature_seconds: float  # the forward passes that gave the vectors
    data_licence: str
    device: str = "cpu"  # where the vectors were computed

    def curve(self, task: str) -> TaskCurve:
        return {"pos": self.pos, "sense": self.sense}[task]
