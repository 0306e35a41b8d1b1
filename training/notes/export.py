#!/usr/bin/env python3
"""Export a trained note refiner to ONNX for the engine, with a parity golden for TypeScript.

    /usr/bin/python3 training/notes/export.py STATE.pt

Writes packages/engine/models/refiner/refiner.onnx (input `posteriorgrams` [1, 5, frames, 56],
outputs `onsets` and `notes`, each [1, frames, 56]: the onset and note probabilities) and
packages/engine/test/golden/refiner-parity.json (a seeded made-up input and what the network
gives for it).
"""
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import BINS, CHANNELS  # noqa: E402
from model import Refiner  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..'))
MODEL_DIR = os.path.join(REPO, 'packages', 'engine', 'models', 'refiner')
PARITY = os.path.join(REPO, 'packages', 'engine', 'test', 'golden', 'refiner-parity.json')


class Probabilities(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, posteriorgrams):
        p = torch.sigmoid(self.model(posteriorgrams))
        return p[:, 0], p[:, 1]


def main():
    state = sys.argv[1]
    weights = torch.load(state)
    model = Refiner(weights['inp.weight'].shape[0])
    model.load_state_dict(weights)
    model.eval()
    wrapped = Probabilities(model).eval()
    os.makedirs(MODEL_DIR, exist_ok=True)
    path = os.path.join(MODEL_DIR, 'refiner.onnx')
    torch.onnx.export(wrapped, torch.zeros(1, CHANNELS, 64, BINS), path,
                      input_names=['posteriorgrams'], output_names=['onsets', 'notes'],
                      dynamic_axes={'posteriorgrams': {2: 'frames'}, 'onsets': {1: 'frames'},
                                    'notes': {1: 'frames'}},
                      opset_version=13)
    import onnx
    onnx.checker.check_model(onnx.load(path))
    # A made-up input: sparse note and onset blobs over a low background, 80 frames.
    rng = np.random.default_rng(7)
    x = np.round(rng.random((1, CHANNELS, 80, BINS)) ** 6, 6).astype(np.float32)
    with torch.no_grad():
        onsets, notes = (y[0].numpy() for y in wrapped(torch.from_numpy(x)))
    os.makedirs(os.path.dirname(PARITY), exist_ok=True)
    with open(PARITY, 'w') as f:
        json.dump(dict(shape=list(x.shape), input=x.ravel().tolist(),
                       onsets=np.round(onsets.ravel(), 6).tolist(),
                       notes=np.round(notes.ravel(), 6).tolist()), f)
        f.write('\n')
    print(f'wrote {path} ({os.path.getsize(path) // 1024} KiB) and {PARITY}')


if __name__ == '__main__':
    main()
