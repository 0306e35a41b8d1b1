#!/usr/bin/env python3
"""The learned strike model (issue 39 item 2, first decision): was a note picked, or does it go on
from the note before on its string (a hammer-on, a pull-off, a slide's arrival, a vibrato's swell
the note model read as a new note)?

    node packages/lab/dist/strike-data.js --seeds 6      # the training data (about 5 minutes)
    /usr/bin/python3 training/strikes/train.py [--export]

Reads packages/lab/eval-cache/strike-data/strike.json (features: techniques/chains.ts
strikeFeatures; labels from the corpora's answers), trains a small network on one CPU thread,
and reports, on clips it did not train on (5 folds by clip), the accuracy and the precision of
"not picked" (the decision behind every slur and slide mark) for the network, for the engine's
rule, and for the two together (a note is picked when either says so), in results.json beside
this script. --export also writes packages/engine/models/strikes/strikes.onnx (input `features`
[n, F], output `picked` [n]) trained on every clip; the engine does not use it (README.md).
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from common.tiny_net import export_probability, load_rows, out_of_fold, train  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..'))
DATA = os.path.join(REPO, 'packages', 'lab', 'eval-cache', 'strike-data', 'strike.json')
MODEL_DIR = os.path.join(REPO, 'packages', 'engine', 'models', 'strikes')


def scores(picked_true, picked_pred):
    t, p = np.asarray(picked_true, bool), np.asarray(picked_pred, bool)
    acc = float((t == p).mean())
    # "Not picked" is what a slur or slide mark rests on: its precision and recall.
    tp = int((~t & ~p).sum())
    fp = int((t & ~p).sum())
    fn = int((~t & p).sum())
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return {'accuracy': round(acc, 4), 'not picked P': round(prec, 4), 'not picked R': round(rec, 4),
            'n': int(len(t)), 'not picked': int((~t).sum())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--steps', type=int, default=3000)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--export', action='store_true')
    args = ap.parse_args()
    torch.set_num_threads(1)
    started = time.time()
    # Both synthesizers, at seeds the eval never plays (packages/lab/src/strike-data.ts).
    rows, names, x, y = load_rows(DATA)
    rule = np.array([r['rule'] for r in rows], dtype=np.float32)
    clips, prob = out_of_fold(rows, x, y, args.steps, args.seed, balanced=True)
    pred = prob >= 0.5
    # Precision first: the network may only add strikes to the rule's (a note the rule takes as
    # picked stays picked), so a slur or slide mark needs both to agree.
    either = {str(t): scores(y == 1, (rule == 1) | (prob >= t)) for t in (0.3, 0.5, 0.7, 0.8, 0.9)}
    whole = train(x, y, args.steps, args.seed, balanced=True)
    by_source = {}
    for source in ('string-model', 'soundfont'):
        m = np.array([r['source'] == source for r in rows])
        by_source[source] = {
            'rule': scores(y[m] == 1, rule[m] == 1),
            'network': scores(y[m] == 1, pred[m]),
            'rule or network at 0.5': scores(y[m] == 1, (rule[m] == 1) | (prob[m] >= 0.5)),
            'rule or network at 0.3': scores(y[m] == 1, (rule[m] == 1) | (prob[m] >= 0.3))}
    result = {'features': names, 'steps': args.steps, 'seed': args.seed, 'clips': clips,
              'all': {'network': scores(y == 1, pred), 'rule': scores(y == 1, rule == 1),
                      'rule or network at threshold': either},
              'by source': by_source}
    print(json.dumps(result, indent=1))
    result['seconds'] = round(time.time() - started, 1)
    with open(os.path.join(HERE, 'results.json'), 'w') as f:
        json.dump(result, f, indent=1)
    if args.export:
        net = whole
        path = os.path.join(MODEL_DIR, 'strikes.onnx')
        export_probability(net, x.shape[1], path, 'picked')
        print(f'wrote {path} (not shipped: see README.md)')


if __name__ == '__main__':
    main()
