"""What a masking run returns: plain data (lists, str, numbers), no torch, so figures and the UI can import it."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

IGNORE = -100  # the label of a token that carries no loss


@dataclass(frozen=True)
class Note:
    """A fact about the run as a code and its parameters; the renderer phrases it in the user's language."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MaskingResult:
    """One draw of one objective on one sentence."""

    strategy: str
    tokens: list[str]  # the sentence, one entry per token
    actions: list[str]  # per token: special, none, mask, random, kept, sentinel, predicted, replaced, original...
    labels: list[int]  # what the loss is computed on (-100: no loss)
    corrupted: list[str]  # what the model reads (for T5: the encoder input)
    word_ids: list[int]
    mask_token: str
    mask_is_placeholder: bool
    truncated: bool
    rows: list[tuple[str, list[str]]] = field(default_factory=list)  # (row label, actions): grids and contrasts
    details: dict[str, Any] = field(default_factory=dict)  # strategy-specific, JSON-ready
    notes: list[Note] = field(default_factory=list)  # facts only the draw knows (which generator ran, and so on)
    device: str = "cpu"  # where the draw ran: tokenizer-only objectives are numpy/torch work on the CPU


@dataclass(frozen=True)
class Rate:
    name: str  # stable key; the UI translates it
    empirical: float
    theory: float
    stderr: float  # of the empirical rate
    at_least: bool = False  # theory is a lower bound (whole words overshoot a token budget)
    at_most: bool = False  # theory is an upper bound (sentence ends and masked words cut spans the budget alone would not)
    within: bool = field(init=False)  # within 4 standard errors of theory: a field, so the JSON carries it

    def __post_init__(self) -> None:
        if self.at_least:
            ok = self.empirical >= self.theory - 4 * self.stderr - 1e-9
        elif self.at_most:
            ok = self.empirical <= self.theory + 4 * self.stderr + 1e-9
        else:
            ok = abs(self.empirical - self.theory) <= 4 * self.stderr + 1e-9
        object.__setattr__(self, "within", bool(ok))


@dataclass(frozen=True)
class MaskingStats:
    strategy: str
    draws: int
    rates: list[Rate]
    histograms: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # name -> x, empirical, theory
    facts: dict[str, Any] = field(default_factory=dict)  # the objective's parameters and what this text allows


@dataclass(frozen=True)
class MaskingRequest:
    """Everything a masking run reads; each objective uses the fields its OBJECTIVES row names."""

    text: str
    model: str  # a registry key: its tokenizer is used (and, for ELECTRA, maybe its weights)
    strategy: str = "bert"
    seed: int = 0
    mlm_probability: float = 0.15
    mask_replace_prob: float = 0.8
    random_replace_prob: float = 0.1
    epochs: int = 6
    prefix_len: int | None = None  # UniLM's source length; None = half the sentence
    generator: str = "auto"  # ELECTRA: auto, masked:<key>, causal:<key> or uniform
    draws: int = 0  # statistics over this many draws (0 = none)


@dataclass(frozen=True)
class MaskingRun:
    """The draw, its provenance and the optional statistics: what /masking returns as JSON."""

    model: str  # the model id whose tokenizer was used
    device: str
    strategy: str
    tokens: list[str]
    actions: list[str]
    labels: list[int]
    corrupted: list[str]
    word_ids: list[int]
    mask_token: str
    mask_is_placeholder: bool
    truncated: bool
    rows: list[tuple[str, list[str]]]
    details: dict[str, Any]
    statistics: MaskingStats | None
    notes: list[Note]
    request: MaskingRequest = field(repr=False)  # kept for the renderer (e.g. statistics asked but not offered); not in JSON


def token_table_csv(run: MaskingRun) -> str:
    """The token table as CSV (position, token, action, label): the csv module quotes what needs it, so a token
    like `"hi"`, `a,b` or a line break reads back exactly (the export wrote JSON string escapes, which a CSV reader
    reads as `\\hi\\""`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["position", "token", "action", "label"])
    writer.writerows([i, tok, action, label] for i, (tok, action, label) in enumerate(zip(run.tokens, run.actions, run.labels)))
    return out.getvalue()
