"""ELMo's contextual half: two separate directions, each a stack of LSTMs with
a cell projection, cell/projection clipping and a residual connection.

Written by hand because torch.nn.LSTM has no cell_clip / proj_clip, which the
published weights were trained with. Gate layout follows the stored TensorFlow
matrices: [input, new memory, forget, output], with TensorFlow's constant
forget-gate bias of 1.0 added at run time (it is not in the file).

Stateless: every call starts from zero states. (The original implementation
carried LSTM states from one batch to the next, which makes a sentence's
vectors depend on the batches before it; a teaching app wants the same answer
for the same sentence, so we do not.)
"""

from __future__ import annotations

import torch
from torch import nn

FORGET_BIAS = 1.0


class ProjectedLstmCell(nn.Module):
    def __init__(self, input_dim: int, cell_dim: int, proj_dim: int, cell_clip: float | None, proj_clip: float | None):
        super().__init__()
        self.cell_dim, self.proj_dim = cell_dim, proj_dim
        self.cell_clip, self.proj_clip = cell_clip, proj_clip
        # x and h concatenated, times W (in + proj, 4 * cell): the stored layout.
        self.W = nn.Parameter(torch.empty(input_dim + proj_dim, 4 * cell_dim))
        self.b = nn.Parameter(torch.zeros(4 * cell_dim))
        self.W_P = nn.Parameter(torch.empty(cell_dim, proj_dim))
        nn.init.xavier_uniform_(self.W)
        nn.init.xavier_uniform_(self.W_P)

    def run(self, x: torch.Tensor, mask: torch.Tensor, reverse: bool, state=None):
        """x (batch, time, in), mask (batch, time) with padding at the end -> ((batch, time, proj), (h, c)).

        The state only advances at real tokens, so the backward direction of a
        short sentence in a long batch starts at its own last token, padded
        outputs are zero, and the returned (h, c) is each row's state after its
        last real step. `state` (zeros by default) exists only so a test can
        replay the original's batch-to-batch carry-over.
        """
        b, t, _ = x.shape
        d = self.cell_dim
        if state is None:
            h, c = x.new_zeros(b, self.proj_dim), x.new_zeros(b, d)
        else:
            h, c = state
        x_part = x @ self.W[: x.shape[-1]] + self.b  # input contribution for all steps at once
        W_h = self.W[x.shape[-1] :]
        maskf = mask.to(x.dtype).unsqueeze(-1)
        outs: list[torch.Tensor] = [x.new_zeros(0)] * t
        for step in range(t - 1, -1, -1) if reverse else range(t):
            g = x_part[:, step] + h @ W_h
            i, j, f, o = g.split(d, dim=-1)
            new_c = torch.sigmoid(f + FORGET_BIAS) * c + torch.sigmoid(i) * torch.tanh(j)
            if self.cell_clip is not None:
                new_c = new_c.clamp(-self.cell_clip, self.cell_clip)
            new_h = (torch.sigmoid(o) * torch.tanh(new_c)) @ self.W_P
            if self.proj_clip is not None:
                new_h = new_h.clamp(-self.proj_clip, self.proj_clip)
            m = maskf[:, step]
            c = m * new_c + (1 - m) * c
            h = m * new_h + (1 - m) * h
            outs[step] = new_h * m
        return torch.stack(outs, dim=1), (h, c)


class BiLstmStack(nn.Module):
    """n_layers per direction; directions never see each other (a biLM, not a BiLSTM encoder)."""

    def __init__(self, dim: int, cell_dim: int, n_layers: int, cell_clip, proj_clip, skip: bool):
        super().__init__()
        self.skip = skip
        self.forward_layers = nn.ModuleList(ProjectedLstmCell(dim, cell_dim, dim, cell_clip, proj_clip) for _ in range(n_layers))
        self.backward_layers = nn.ModuleList(ProjectedLstmCell(dim, cell_dim, dim, cell_clip, proj_clip) for _ in range(n_layers))

    def forward(self, tokens: torch.Tensor, mask: torch.Tensor, dropout: float = 0.0, states=None):
        """Per layer: (forward outputs, backward outputs), each (batch, time, dim).

        With `states` (a list per layer of ((h, c) forward, (h, c) backward)),
        starts from them and also returns the final states.
        """
        outputs, finals = [], []
        fwd_in = bwd_in = tokens
        for k, (fl, bl) in enumerate(zip(self.forward_layers, self.backward_layers)):
            fi = nn.functional.dropout(fwd_in, dropout, self.training) if dropout else fwd_in
            bi = nn.functional.dropout(bwd_in, dropout, self.training) if dropout else bwd_in
            fs, bs = states[k] if states is not None else (None, None)
            fo, fs = fl.run(fi, mask, reverse=False, state=fs)
            bo, bs = bl.run(bi, mask, reverse=True, state=bs)
            finals.append((fs, bs))
            if self.skip and k > 0:  # residual around every layer but the first, as in the original
                fo = fo + fwd_in
                bo = bo + bwd_in
            outputs.append((fo, bo))
            fwd_in, bwd_in = fo, bo
        return (outputs, finals) if states is not None else outputs
