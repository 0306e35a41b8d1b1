"""The fingering network: per note, log-probabilities of strings 1..6 (unplayable strings masked).

A dilated 1-D convolution stack over the note sequence (each note sees 64 notes either side),
chosen over a transformer because it runs on sequences of any length in one pass and trains fast
on two CPU cores. Input [batch, N_FEATURES, notes], output [batch, 6, notes] (channels first).
"""
import torch
from torch import nn

from features import N_FEATURES

DILATIONS = (1, 2, 4, 8, 16, 1)


class Block(nn.Module):
    def __init__(self, d, dilation):
        super().__init__()
        self.conv = nn.Conv1d(d, d, 3, dilation=dilation, padding=dilation)
        self.mix = nn.Conv1d(d, d, 1)
        self.drop = nn.Dropout(0.1)

    def forward(self, h):
        return h + self.drop(self.mix(nn.functional.gelu(self.conv(h))))


class FingerNet(nn.Module):
    def __init__(self, d=64, k=8):
        super().__init__()
        self.k = k
        self.inp = nn.Conv1d(N_FEATURES, d, 1)
        self.blocks = nn.Sequential(*[Block(d, dl) for dl in DILATIONS])
        self.out = nn.Conv1d(d, 6, 1)
        self.z = nn.Conv1d(d, 6 * k, 1)
        self.fe = nn.Linear(3, k, bias=False)
        self.v = nn.Linear(k, 1, bias=False)

    def forward(self, x):
        """x: [batch, N_FEATURES, notes] -> log-probabilities [batch, 6, notes]."""
        b, _, n = x.shape
        h = self.blocks(nn.functional.gelu(self.inp(x)))
        z = self.z(h).reshape(b, 6, self.k, n).permute(0, 1, 3, 2)   # [b, 6, n, k]
        fe = x[:, :18, :].reshape(b, 6, 3, n).permute(0, 1, 3, 2)     # [b, 6, n, 3]
        per_string = self.v(nn.functional.gelu(z + self.fe(fe))).squeeze(-1)  # [b, 6, n]
        logits = self.out(h) + per_string
        valid = x[:, 0:18:3, :]
        logits = logits + (valid - 1.0) * 1e4
        return torch.log_softmax(logits, dim=1)
