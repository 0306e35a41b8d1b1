"""The note refiner: Basic Pitch's posteriorgrams in, sharper onset and note activations out.

A small 2-D convolution stack over (time, pitch): local 3x3 filters, then filters that reach
along time (dilations 2, 4, 8 frames) and across pitch at the intervals where a chord's strings
and their harmonics meet (a fifth, an octave, an octave and a fifth), so that a note hidden
under another string's harmonics or a string struck again while it rings can be told apart.
Input [batch, 5, frames, 56], output [batch, 2, frames, 56] (logits: onset, note).
"""
import torch
from torch import nn


class Res(nn.Module):
    def __init__(self, c, kernel, dilation):
        super().__init__()
        pad = (dilation[0] * (kernel[0] - 1) // 2, dilation[1] * (kernel[1] - 1) // 2)
        self.conv = nn.Conv2d(c, c, kernel, dilation=dilation, padding=pad)
        self.mix = nn.Conv2d(c, c, 1)

    def forward(self, h):
        return h + self.mix(nn.functional.gelu(self.conv(h)))


class Refiner(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.inp = nn.Conv2d(5, c, (3, 3), padding=(1, 1))
        self.blocks = nn.Sequential(
            Res(c, (3, 3), (1, 1)),
            Res(c, (3, 1), (2, 1)),
            Res(c, (1, 3), (1, 7)),
            Res(c, (1, 3), (1, 12)),
            Res(c, (3, 1), (4, 1)),
            Res(c, (1, 3), (1, 19)),
            Res(c, (3, 1), (8, 1)),
            Res(c, (3, 3), (1, 1)),
        )
        self.out = nn.Conv2d(c, 2, 1)

    def forward(self, x):
        h = nn.functional.gelu(self.inp(x))
        return self.out(self.blocks(h))
