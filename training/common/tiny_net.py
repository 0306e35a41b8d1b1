"""The small per-note networks of training/strikes and training/techniques: a two-hidden-layer
MLP, its training loop on one CPU thread, the rows the lab writes for it, out-of-fold
probabilities by clip, and its export to ONNX as a probability."""
import json
import os
import random

import numpy as np
import torch


class Net(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.body = torch.nn.Sequential(
            torch.nn.Linear(n, 32), torch.nn.ReLU(), torch.nn.Linear(32, 16), torch.nn.ReLU(),
            torch.nn.Linear(16, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def train(x, y, steps, seed, balanced=False):
    """Adam on batches of 256. `balanced`: both classes weigh alike (else the output reads as a
    probability)."""
    torch.manual_seed(seed)
    net = Net(x.shape[1])
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-4)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    if balanced:
        pos = max(1.0, float(yt.sum()))
        loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor((len(yt) - pos) / pos))
    else:
        loss_fn = torch.nn.BCEWithLogitsLoss()
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        idx = torch.randint(0, len(xt), (256,), generator=g)
        opt.zero_grad()
        loss = loss_fn(net(xt[idx]), yt[idx])
        loss.backward()
        opt.step()
    return net.eval()


def load_rows(path):
    """The lab's rows (`{"features": [...], "rows": [{"x", "y", "clip", ...}]}`): the rows, the
    feature names, and x and y as float32 arrays."""
    with open(path) as f:
        data = json.load(f)
    rows = data['rows']
    x = np.array([r['x'] for r in rows], dtype=np.float32)
    y = np.array([r['y'] for r in rows], dtype=np.float32)
    return rows, data['features'], x, y


def out_of_fold(rows, x, y, steps, seed, balanced=False, folds=5):
    """Each row's probability from a network trained without its clip (`folds` folds of the
    clips, shuffled by `seed`; fold k's network seeded `seed + k`). Returns (clips, prob)."""
    clips = sorted({r['clip'] for r in rows})
    random.Random(seed).shuffle(clips)
    fold = {c: k % folds for k, c in enumerate(clips)}
    which = np.array([fold[r['clip']] for r in rows])
    prob = np.zeros(len(rows), dtype=np.float32)
    for k in range(folds):
        net = train(x[which != k], y[which != k], steps, seed + k, balanced=balanced)
        with torch.no_grad():
            prob[which == k] = torch.sigmoid(net(torch.from_numpy(x[which == k]))).numpy()
    return len(clips), prob


def export_probability(net, features, path, output):
    """Writes `net` with a sigmoid as ONNX (opset 13): input `features` [n, features], output
    `output` [n]; checks the file."""

    class Probability(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, features):
            return torch.sigmoid(self.net(features))

    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.onnx.export(Probability(net).eval(), torch.zeros(4, features), path,
                      input_names=['features'], output_names=[output],
                      dynamic_axes={'features': {0: 'n'}, output: {0: 'n'}}, opset_version=13)
    import onnx
    onnx.checker.check_model(onnx.load(path))
