#!/usr/bin/env python3
"""How far is the model from the tabs, and could the notes alone close the gap? (offline analysis)

    /usr/bin/python3 training/fingering/style.py [--corpus DIR] [--steps N] [--results FILE]

For each of the five largest sources left out (the same splits, seeds and decoder-weight search
as train.py), it decodes every left-out track with the decoder's pull toward the nut (`fret`)
moved over a grid of "leans", from well up the neck (-6) to well toward the nut (+4), and prints:

- chosen: the split's decoder weights, as train.py reports them;
- oracle lean per track: each track decoded with the one lean that suits it best (an upper
  bound, using the tab's answers: how much of the error is one position preference per track);
- oracle of three: the same with only three leans to choose from (up the neck, as chosen,
  toward the nut), what one choice per lesson by the person who sees the video could reach;
- predicted lean: a ridge regression from what the notes alone say about a track (pitch range,
  lowest playable frets, the network's expected fret and confidence, guitar type, tuning, capo,
  chords, density), trained on out-of-fold network outputs of the training tracks (5 folds by
  song inside the training sources), choosing each left-out track's lean without its answers.

The tabs are never copied anywhere; figures go to training/fingering/style-results.json.
"""
import argparse
import collections
import json
import os
import random
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import corpus_dir, load_tracks  # noqa: E402
from features import guitar_class, viterbi  # noqa: E402
from train import predict, prepare, run_split, train_model  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LEANS = (-6.0, -4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 4.0)
THREE = (-4.0, None, 2.0)   # None: the split's chosen weight
RIDGE = 10.0


def track_features(p, logp):
    """What the notes alone say about a track (no answers): 19 numbers, the first a constant."""
    base = p['tuning'][0] + p['capo']
    rel = p['pitch_arr'] - base
    fr = np.array([[np.nan if f is None else f for f in fs] for fs in p['frets']], dtype=float)
    playable = ~np.isnan(fr)
    lowest = np.where(playable.any(1), np.nanmin(np.where(playable, fr, np.inf), 1), 0.0)
    prob = np.exp(logp)
    expected = (np.where(playable, fr, 0.0) * prob).sum(1)
    g = guitar_class(p['program'])
    sizes = np.array([len(m) for m in p['groups']])
    dur = max(1e-3, p['times'][-1] - p['times'][0])
    drop = p['tuning'][1] - p['tuning'][0] == 7
    return np.array([1.0, rel.mean() / 12, rel.std() / 12, np.percentile(rel, 90) / 12,
                     np.percentile(rel, 10) / 12, lowest.mean() / 5, (lowest >= 5).mean(),
                     (expected - lowest).mean() / 3, prob.max(1).mean(), g == 0, g == 1, g == 2,
                     drop, (base - 40) / 12, p['capo'] / 5, (sizes > 1).mean(), sizes.mean() / 3,
                     np.log1p(len(sizes) / dur) / 3, (rel == 0).mean()], dtype=float)


def lean_curve(p, logp, params):
    """Notes right for each lean in LEANS (the split's shift and move kept)."""
    lp = logp.tolist()
    return np.array([int((np.array(viterbi(p['groups'], p['frets'], lp, p['times'], {**params, 'fret': f}))
                          == p['strings']).sum()) for f in LEANS])


def out_of_fold(train, args, log):
    """Network outputs for every training track from models that did not see its song."""
    songs = sorted({p['song'] for p in train})
    random.Random(2).shuffle(songs)
    fold = {s: k % 5 for k, s in enumerate(songs)}
    out = {}
    for k in range(5):
        model = train_model([p for p in train if fold[p['song']] != k], args.steps, seed=args.seed)
        for i, p in enumerate(train):
            if fold[p['song']] == k:
                out[i] = predict(model, p)
        log(f'    out-of-fold {k + 1}/5')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--corpus')
    ap.add_argument('--steps', type=int, default=800)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--loso', type=int, default=5)
    ap.add_argument('--results', default=os.path.join(HERE, 'style-results.json'))
    args = ap.parse_args()
    torch.set_num_threads(1)
    log = lambda m: print(m, flush=True)  # noqa: E731
    started = time.time()
    preps = [prepare(t) for t in load_tracks(corpus_dir(args.corpus))]
    repos = collections.Counter()
    for p in preps:
        repos[p['repo']] += len(p['pitches'])
    results = {}
    for repo, _ in repos.most_common(args.loso):
        train = [p for p in preps if p['repo'] != repo]
        test = [p for p in preps if p['repo'] == repo]
        r = run_split(repo, train, test, args, {}, log)
        params = r['params']
        chosen_i = LEANS.index(params.get('fret', 0.0))
        oof = out_of_fold(train, args, log)
        X, Y, W = [], [], []
        for i, p in enumerate(train):
            n = len(p['pitches'])
            c = lean_curve(p, oof[i], params) / n
            X.append(track_features(p, oof[i]))
            Y.append(c - c[chosen_i])
            W.append(n)
        X, Y, W = np.array(X), np.array(Y), np.array(W, dtype=float)
        mu, sd = X[:, 1:].mean(0), X[:, 1:].std(0) + 1e-6
        Xn = X.copy()
        Xn[:, 1:] = (X[:, 1:] - mu) / sd
        sw = np.sqrt(W / W.mean())[:, None]
        beta = np.linalg.solve((Xn * sw).T @ (Xn * sw) + RIDGE * np.eye(X.shape[1]), (Xn * sw).T @ (Y * sw))
        tot = collections.Counter()
        for p in test:
            lp = predict(r['model'], p)
            c = lean_curve(p, lp, params)
            x = track_features(p, lp)
            x[1:] = (x[1:] - mu) / sd
            three = [chosen_i if f is None else LEANS.index(f) for f in THREE]
            tot['chosen'] += c[chosen_i]
            tot['oracle lean per track'] += c.max()
            tot['oracle of three'] += c[three].max()
            tot['predicted lean'] += c[int(np.argmax(x @ beta))]
            tot['n'] += len(p['pitches'])
        res = {k: round(v / tot['n'], 4) for k, v in tot.items() if k != 'n'}
        res['n'] = tot['n']
        results[repo] = res
        log(f'  {repo}: ' + ', '.join(f'{k} {v:.3f}' for k, v in res.items() if k != 'n'))
    keys = ('chosen', 'oracle lean per track', 'oracle of three', 'predicted lean')
    mean = {k: round(float(np.mean([r[k] for r in results.values()])), 4) for k in keys}
    log('\nleave one source out, string accuracy (mean of the splits): '
        + ', '.join(f'{k} {v:.3f}' for k, v in mean.items()))
    with open(args.results, 'w') as f:
        json.dump(dict(steps=args.steps, seed=args.seed, leans=LEANS, three=[f if f is not None else 'chosen' for f in THREE],
                       loso=results, mean=mean, seconds=round(time.time() - started)), f, indent=1)
        f.write('\n')
    log(f'Done in {time.time() - started:.0f} s; figures in {args.results}')


if __name__ == '__main__':
    main()
