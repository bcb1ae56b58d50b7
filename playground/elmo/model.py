"""The ELMo bidirectional language model: char CNN + biLSTM stack (+ optional softmax)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from .charcnn import CharCNN
from .lstm import BiLstmStack
from .options import ElmoOptions


class ElmoBiLm(nn.Module):
    def __init__(self, opts: ElmoOptions, vocab_size: int | None = None):
        super().__init__()
        self.opts = opts
        self.char_cnn = CharCNN(opts)
        self.lstm = BiLstmStack(
            opts.projection_dim, opts.lstm_dim, opts.n_layers, opts.cell_clip, opts.proj_clip, opts.use_skip_connections
        )
        # One softmax shared by both directions (as in the original biLM). The
        # published AllenNLP files ship without it, hence optional.
        self.softmax = nn.Linear(opts.projection_dim, vocab_size) if vocab_size else None

    def forward(self, char_ids: torch.Tensor, dropout: float = 0.0):
        """char_ids (batch, time, chars) incl. <S> and </S> -> (token vectors, per-layer (fwd, bwd), mask)."""
        tokens, mask = self.char_cnn(char_ids)
        layers = self.lstm(tokens, mask, dropout=dropout)
        return tokens, layers, mask

    def zero_states(self, batch: int) -> list:
        o = self.opts
        z = lambda: (torch.zeros(batch, o.projection_dim), torch.zeros(batch, o.lstm_dim))  # noqa: E731
        return [(z(), z()) for _ in range(o.n_layers)]


@dataclass(frozen=True)
class ElmoModel:
    """A loaded ELMo: the module, its sizes, and the word vocabulary of its softmax (if any)."""

    name: str
    module: ElmoBiLm
    options: ElmoOptions
    vocab: tuple[str, ...] | None = None

    @property
    def has_softmax(self) -> bool:
        return self.module.softmax is not None and self.vocab is not None
