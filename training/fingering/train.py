#!/usr/bin/env python3
"""Retrain and evaluate the fingering model (offline; never part of the test command).

    /usr/bin/python3 training/fingering/train.py [--corpus DIR] [--steps N] [--folds K] [--export]

Prints string accuracy leaving each of the five largest sources out in turn and k-fold by song,
with breakdowns, next to the lowest-fret rule, the greedy box rule and the engine's previous
hand-weighted fingering. --export also trains on every source and writes the ONNX model to
packages/engine/models/fingering/. The corpus path: --corpus, else $RIFFSCRIBE_REAL_TABS, else
../shared/datasets/real-tabs beside the repository.
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baselines import box_rule, lowest_fret  # noqa: E402
from data import corpus_dir, load_tracks  # noqa: E402
from features import MAX_FRET, encode, frets_for, groups_of, viterbi  # noqa: E402
from model import FingerNet  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..'))
NOTE_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'G#', 'A', 'Bb', 'B']
# Decoder weights: start, then each axis in turn, on the held-back training songs.
PARAM_START = dict(shift=2.0, move=1.0, fret=0.0)
PARAM_AXES = (('fret', (0.0, 1.0, 2.0, 4.0)), ('shift', (0.5, 1.0, 2.0, 4.0, 8.0)),
              ('move', (0.0, 0.3, 1.0, 2.0)))
VAL_NOTES = 10000
SEQ, BATCH = 128, 32


def tuning_name(t):
    iv = [t[i + 1] - t[i] for i in range(5)]
    if iv == [5, 5, 5, 4, 5]:
        return NOTE_NAMES[t[0] % 12] + ' std'
    if iv == [7, 5, 5, 4, 5]:
        return 'Drop ' + NOTE_NAMES[t[0] % 12]
    return 'other'


def prepare(track):
    notes = track['notes']
    pitches = [n[1] for n in notes]
    times = [n[0] for n in notes]
    tuning, capo = track['tuning'], track['capo']
    return dict(
        repo=track['repo'], song=track['song'], tuning=tuning, capo=capo, program=track['program'],
        tname=tuning_name(tuning), pitches=pitches, times=times,
        strings=np.array([n[2] for n in notes], dtype=np.int64),
        true_frets=np.array([n[3] for n in notes], dtype=np.int64),
        frets=[frets_for(p, tuning, capo) for p in pitches],
        x=encode(pitches, times, tuning, capo, track['program']),
        # training target: the tab's string, ignored where it is outside frets 0..24
        labels=np.array([n[2] - 1 if 0 <= n[3] <= MAX_FRET else -100 for n in notes], dtype=np.int64),
        groups=groups_of(times),
        # for augmentation: open pitch of strings 1..6 and the onset gaps behind features 26-27
        opens=np.array([tuning[6 - k] + capo for k in range(1, 7)], dtype=np.int64),
        pitch_arr=np.array(pitches, dtype=np.int64))


# ---------------------------------------------------------------------------------- training
# The shift augmentation (a window moved along the neck) was tried and left off: it cost the
# open-position fingerstyle source 5 points (0.772 against 0.827 left out) for nothing on metal.
args_aug = dict(shift=False, tempo=True)


def shift_window(x, y, p, s, e, k):
    """The window transposed by k semitones with the same strings (every fret moves by k): the
    shape of a passage, played elsewhere on the neck. Notes pushed off 0..24 lose their label."""
    frets = p['pitch_arr'][s:e, None] + k - p['opens'][None, :]
    valid = (frets >= 0) & (frets <= MAX_FRET)
    x[:, 0:18:3] = valid
    x[:, 1:18:3] = np.where(valid, frets / 12.0, 0.0)
    x[:, 2:18:3] = valid & (frets == 0)
    x[:, 18] = valid.sum(1) / 6.0
    x[:, 35] += k / 24.0
    lab = y.copy()
    ok = lab >= 0
    true_f = frets[np.arange(len(lab)), np.where(ok, lab, 0)]
    y[:] = np.where(ok & (true_f >= 0) & (true_f <= MAX_FRET), lab, -100)


def tempo_scaled(cols, factor):
    """Onset-gap features (log1p(10 dt) / 4) with every gap multiplied by factor."""
    dt = np.expm1(cols * 4.0) / 10.0
    return (np.log1p(dt * factor * 10.0) / 4.0).astype(np.float32)


def train_model(preps, steps, seed, log=None):
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    per_repo = collections.Counter()
    for p in preps:
        per_repo[p['repo']] += len(p['pitches'])
    w = np.array([len(p['pitches']) / per_repo[p['repo']] ** 0.5 for p in preps])
    w /= w.sum()
    model = FingerNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    model.train()
    t0 = time.time()
    for step in range(steps):
        xb = np.zeros((BATCH, SEQ, 36), dtype=np.float32)
        yb = np.full((BATCH, SEQ), -100, dtype=np.int64)
        for b, ti in enumerate(rng.choice(len(preps), size=BATCH, p=w)):
            p = preps[ti]
            n = len(p['pitches'])
            s = int(rng.integers(0, max(1, n - SEQ + 1)))
            e = min(n, s + SEQ)
            xb[b, :e - s] = p['x'][s:e]
            yb[b, :e - s] = p['labels'][s:e]
            if args_aug.get('shift') and rng.random() < 0.5:
                k = int(rng.choice([-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7]))
                shift_window(xb[b, :e - s], yb[b, :e - s], p, s, e, k)
            if args_aug.get('tempo') and rng.random() < 0.5:
                xb[b, :e - s, 26:28] = tempo_scaled(xb[b, :e - s, 26:28], float(rng.uniform(0.6, 1.6)))
            if rng.random() < 0.15:   # guitar type unknown
                xb[b, :e - s, 32:35] = 0.0
            xb[b, :e - s, 25] += rng.integers(-3, 4) / 12.0   # register of the tuning
        lp = model(torch.from_numpy(xb).transpose(1, 2))
        loss = torch.nn.functional.nll_loss(lp, torch.from_numpy(yb), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if log and (step + 1) % 200 == 0:
            log(f'    step {step + 1}/{steps} loss {loss.item():.3f} ({time.time() - t0:.0f} s)')
    model.eval()
    return model


def predict(model, prep):
    with torch.no_grad():
        lp = model(torch.from_numpy(prep['x']).T.unsqueeze(0))[0].T
    return lp.numpy()


def decode(prep, logp, params):
    return np.array(viterbi(prep['groups'], prep['frets'], logp.tolist(), prep['times'], params))


# ---------------------------------------------------------------------------------- scoring
class Score:
    def __init__(self):
        self.c = collections.defaultdict(lambda: [0, 0])

    def add(self, prep, pred):
        ok = pred == prep['strings']
        tf = prep['true_frets']
        self._add('all', ok)
        self._add('frets 0-4', ok[tf <= 4])
        self._add('frets 5+', ok[tf >= 5])
        self._add('tuning ' + prep['tname'], ok)
        chords = [g for g in prep['groups'] if len(g) >= 2]
        self._add('whole chords', np.array([ok[g].all() for g in chords], dtype=bool))

    def _add(self, key, ok):
        self.c[key][0] += int(ok.sum())
        self.c[key][1] += int(ok.size)

    def get(self, key='all'):
        a, n = self.c.get(key, (0, 0))
        return a / n if n else float('nan')

    def table(self):
        return {k: dict(acc=round(a / n, 4), n=n) for k, (a, n) in sorted(self.c.items()) if n}


def engine_strings(preps):
    """The engine's previous fingering through packages/engine/dist (built by tsc -b)."""
    script = os.path.join(HERE, 'engine_baseline.mjs')
    if not os.path.exists(os.path.join(REPO, 'packages/engine/dist/tab/assign.js')):
        subprocess.run(['npx', 'tsc', '-b', 'packages/engine'], cwd=REPO, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, 'in.json'), os.path.join(tmp, 'out.json')
        with open(inp, 'w') as f:
            json.dump(dict(tracks=[dict(tuning=p['tuning'], capo=p['capo'],
                                        notes=[[t, q] for t, q in zip(p['times'], p['pitches'])])
                                   for p in preps]), f)
        subprocess.run(['node', script, inp, out], check=True)
        with open(out) as f:
            return [np.array(s) for s in json.load(f)]


def run_split(name, train, test, args, base_preds, log):
    t0 = time.time()
    songs = sorted({p['song'] for p in train})
    random.Random(1).shuffle(songs)
    val_songs = set(songs[:max(1, len(songs) // 10)])
    fit = [p for p in train if p['song'] not in val_songs]
    val = [p for p in train if p['song'] in val_songs]
    model = train_model(fit, args.steps, seed=args.seed, log=log)
    # The decoder's weights: coordinate search on the held-back songs (at most VAL_NOTES notes).
    val_lp = [predict(model, p) for p in val]
    cap, kept = 0, []
    for p, lp in zip(val, val_lp):
        if cap < VAL_NOTES:
            kept.append((p, lp))
            cap += len(p['pitches'])
    cache = {}

    def val_acc(params):
        key = tuple(sorted(params.items()))
        if key not in cache:
            s = Score()
            for p, lp in kept:
                s.add(p, decode(p, lp, params))
            cache[key] = s.get()
        return cache[key]

    best = dict(PARAM_START)
    for _ in range(1):
        for axis, values in PARAM_AXES:
            scored = [(val_acc({**best, axis: v}), v) for v in values]
            best[axis] = max(scored, key=lambda sv: sv[0])[1]   # first of equals
    best_acc = val_acc(best)
    scores = {k: Score() for k in ('model', 'net argmax', 'lowest fret', 'box rule', 'engine')}
    for p in test:
        lp = predict(model, p)
        scores['model'].add(p, decode(p, lp, best))
        scores['net argmax'].add(p, lp.argmax(1) + 1)
        for k in ('lowest fret', 'box rule', 'engine'):
            if k in base_preds:
                scores[k].add(p, base_preds[k][id(p)])
    res = {k: s.table() for k, s in scores.items() if s.c}
    log(f'  {name}: train {sum(len(p["pitches"]) for p in fit)} notes, test '
        f'{sum(len(p["pitches"]) for p in test)}; params {best} (val {best_acc:.3f}); '
        + ', '.join(f'{k} {s.get():.3f}' for k, s in scores.items() if s.c)
        + f'  [{time.time() - t0:.0f} s]')
    return dict(params=best, val=best_acc, scores=res, model=model)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--corpus', help='real-tabs folder (default $RIFFSCRIBE_REAL_TABS or ../shared/datasets/real-tabs)')
    ap.add_argument('--steps', type=int, default=800, help='training steps per model (batch 32 x 128 notes)')
    ap.add_argument('--folds', type=int, default=5, help='k of the k-fold by song')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--only', choices=['loso', 'kfold', 'none'], help='run one evaluation only')
    ap.add_argument('--loso', type=int, default=5, help='how many of the largest sources to leave out')
    ap.add_argument('--no-engine', action='store_true', help='skip the engine baseline (needs node)')
    ap.add_argument('--export', action='store_true', help='train on every source and write the ONNX model')
    ap.add_argument('--no-aug', action='store_true', help='train without the tempo augmentation')
    ap.add_argument('--shift-aug', action='store_true', help='also move training windows along the neck')
    ap.add_argument('--final-state', help='with --export: load the final network from this torch file '
                    'if it exists, else train it and save it there')
    ap.add_argument('--decoder-from', nargs='*', default=[],
                    help='with --export: earlier results files whose chosen decoder weights to use')
    ap.add_argument('--results', default=os.path.join(HERE, 'results.json'))
    args = ap.parse_args()
    torch.set_num_threads(1)
    if args.no_aug:
        args_aug.update(shift=False, tempo=False)
    if args.shift_aug:
        args_aug.update(shift=True)
    started = time.time()
    log = lambda m: print(m, flush=True)  # noqa: E731

    root = corpus_dir(args.corpus)
    preps = [prepare(t) for t in load_tracks(root)]
    log(f'{len(preps)} tracks, {sum(len(p["pitches"]) for p in preps)} notes from {root}')
    base = {'lowest fret': {}, 'box rule': {}}
    for p in preps:
        base['lowest fret'][id(p)] = np.array(lowest_fret(p['groups'], p['frets']))
        base['box rule'][id(p)] = np.array(box_rule(p['groups'], p['frets']))
    if not args.no_engine:
        t0 = time.time()
        base['engine'] = {id(p): s for p, s in zip(preps, engine_strings(preps))}
        log(f'engine baseline in {time.time() - t0:.0f} s')
    results = dict(steps=args.steps, seed=args.seed, loso={}, kfold={})

    if args.only in (None, 'loso'):
        repos = collections.Counter()
        for p in preps:
            repos[p['repo']] += len(p['pitches'])
        log(f'\nLeave one source out (the {args.loso} largest):')
        for repo, _ in repos.most_common(args.loso):
            r = run_split(repo, [p for p in preps if p['repo'] != repo],
                          [p for p in preps if p['repo'] == repo], args, base, log)
            r.pop('model')
            results['loso'][repo] = r
    if args.only in (None, 'kfold'):
        songs = sorted({p['song'] for p in preps})
        random.Random(0).shuffle(songs)
        fold_of = {s: i % args.folds for i, s in enumerate(songs)}
        log(f'\n{args.folds}-fold by song:')
        for k in range(args.folds):
            r = run_split(f'fold {k + 1}', [p for p in preps if fold_of[p['song']] != k],
                          [p for p in preps if fold_of[p['song']] == k], args, base, log)
            r.pop('model')
            results['kfold'][f'fold {k + 1}'] = r
    summarize(results, log)
    for path in args.decoder_from:
        with open(path) as f:
            earlier = json.load(f)
        for split in ('loso', 'kfold'):
            results.setdefault(split + '_from_files', {}).update(earlier.get(split, {}))
    if args.export:
        from export import export_final
        export_final(preps, args, results, log)
    results['seconds'] = round(time.time() - started)
    with open(args.results, 'w') as f:
        json.dump(results, f, indent=1)
    log(f'\nDone in {results["seconds"]} s; figures in {args.results}')


def summarize(results, log):
    methods = ('model', 'net argmax', 'lowest fret', 'box rule', 'engine')
    for split in ('loso', 'kfold'):
        rs = results[split]
        if not rs:
            continue
        log(f'\n{split}: string accuracy (notes)')
        log('  ' + 'split'.ljust(52) + ''.join(m.rjust(12) for m in methods))
        for name, r in rs.items():
            log('  ' + name.ljust(52) + ''.join(
                (f'{r["scores"][m]["all"]["acc"]:.3f}' if m in r['scores'] else '-').rjust(12) for m in methods))
        mean = {m: np.mean([r['scores'][m]['all']['acc'] for r in rs.values()]) for m in methods
                if all(m in r['scores'] for r in rs.values())}
        log('  ' + 'mean of splits'.ljust(52) + ''.join(
            (f'{mean[m]:.3f}' if m in mean else '-').rjust(12) for m in methods))
        results[split + '_mean'] = {m: round(float(v), 4) for m, v in mean.items()}
        pooled = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
        for r in rs.values():
            for m, tab in r['scores'].items():
                for k, v in tab.items():
                    pooled[m][k][0] += v['acc'] * v['n']
                    pooled[m][k][1] += v['n']
        keys = sorted({k for m in pooled for k in pooled[m]}, key=lambda k: (k != 'all', k))
        log(f'  pooled over the {split} test notes, by breakdown:')
        for k in keys:
            n = pooled['model'][k][1]
            log('    ' + f'{k} (n={n})'.ljust(50) + ''.join(
                (f'{pooled[m][k][0] / pooled[m][k][1]:.3f}' if pooled[m][k][1] else '-').rjust(12)
                for m in methods))
        results[split + '_pooled'] = {m: {k: dict(acc=round(a / n, 4), n=n) for k, (a, n) in pooled[m].items() if n}
                                      for m in pooled}


if __name__ == '__main__':
    main()
