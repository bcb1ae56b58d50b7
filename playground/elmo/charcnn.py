"""The context-free half of ELMo: characters -> one vector per token.

char embedding -> a bank of 1-D convolutions (max over character positions,
then the activation) -> highway layers -> linear projection to the LSTM size.
The same word always gets the same vector here, whatever the sentence: this is
ELMo's "layer 0".
"""

from __future__ import annotations

import torch
from torch import nn

from .options import ElmoOptions


class Highway(nn.Module):
    """y = t * relu(W_T x + b_T) + (1 - t) * x, with gate t = sigmoid(W_C x + b_C).

    Written in the original TensorFlow parameterisation (separate "transform"
    and "carry" matrices, as stored in the HDF5 file) so the weights load
    without sign tricks. The oracle test pins which matrix gates: the "carry"
    matrix drives the gate t that multiplies the *transformed* input.
    """

    def __init__(self, dim: int):
        super().__init__()
        self.transform = nn.Linear(dim, dim)
        self.carry = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate = torch.sigmoid(self.carry(x))
        return gate * torch.relu(self.transform(x)) + (1.0 - gate) * x


class CharCNN(nn.Module):
    def __init__(self, opts: ElmoOptions):
        super().__init__()
        self.opts = opts
        # Row 0 stays zero: id 0 is a padded character slot / padded token.
        self.char_embedding = nn.Embedding(opts.n_characters, opts.char_embed_dim, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(opts.char_embed_dim, n, w) for w, n in opts.filters)
        self.highways = nn.ModuleList(Highway(opts.n_filters) for _ in range(opts.n_highway))
        self.projection = nn.Linear(opts.n_filters, opts.projection_dim)
        self._act = torch.relu if opts.activation == "relu" else torch.tanh

    def encode_unique(self, char_ids: torch.Tensor) -> torch.Tensor:
        """(n, max_chars) ids -> (n, projection_dim); no masking."""
        x = self.char_embedding(char_ids).transpose(1, 2)  # (n, dim, chars)
        pooled = [self._act(conv(x).max(dim=-1).values) for conv in self.convs]
        h = torch.cat(pooled, dim=-1)
        for hw in self.highways:
            h = hw(h)
        return self.projection(h)

    def forward(self, char_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(batch, tokens, max_chars) -> (token vectors (batch, tokens, proj), mask (batch, tokens)).

        Each distinct token is encoded once per call (a batch repeats "the" and
        "," many times), then scattered back; padded positions are zero.
        """
        b, t, c = char_ids.shape
        mask = (char_ids > 0).any(dim=-1)
        flat = char_ids.reshape(b * t, c)
        uniq, inverse = torch.unique(flat, dim=0, return_inverse=True)
        vecs = self.encode_unique(uniq)[inverse].reshape(b, t, -1)
        return vecs * mask.unsqueeze(-1).to(vecs.dtype), mask
