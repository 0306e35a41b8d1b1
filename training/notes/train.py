#!/usr/bin/env python3
"""Train the note refiner on generated material and measure it against Basic Pitch alone.

    /usr/bin/python3 training/notes/train.py --train DIR [--val DIR] [--real DIR] [--steps N]
        [--gamma G] [--seed S] [--threads T] [--save FILE] | --load FILE --val DIR [--real DIR]

Onset figures: peaks of the onset activation above a threshold, matched one to one to the true
onsets (same pitch, within 50 ms), at the threshold that is best for each (a proxy; the engine's
own figures come from `npm run eval`).
"""
import argparse
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import BINS, CHANNELS, FPS, LO, load  # noqa: E402
from model import Refiner  # noqa: E402

CROP, BATCH = 128, 16
AUGMENT = dict(gamma=0.4)


def batches(clips, rng):
    xb = np.zeros((BATCH, CHANNELS, CROP, BINS), np.float32)
    on = np.zeros((BATCH, CROP, BINS), np.float32)
    fr = np.zeros((BATCH, CROP, BINS), np.float32)
    for b in range(BATCH):
        c = clips[rng.integers(len(clips))]
        n = c['x'].shape[1]
        s = int(rng.integers(0, max(1, n - CROP)))
        e = min(n, s + CROP)
        xb[b, :, :e - s] = c['x'][:, s:e]
        if AUGMENT['gamma'] > 0:
            # Another synthesizer or a real guitar moves Basic Pitch's activations up or down:
            # raise each channel group to a random power (a monotone change of calibration).
            for ch in (slice(0, 1), slice(1, 2), slice(2, 5)):
                g = float(np.exp(rng.uniform(-AUGMENT['gamma'], AUGMENT['gamma'])))
                xb[b, ch, :e - s] = xb[b, ch, :e - s] ** g
        on[b, :e - s] = c['on'][s:e]
        fr[b, :e - s] = c['fr'][s:e]
    return torch.from_numpy(xb), torch.from_numpy(on), torch.from_numpy(fr)


def train(clips, steps, seed=0, log=print, channels=16):
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = Refiner(channels)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    for step in range(steps):
        x, on, fr = batches(clips, rng)
        y = model(x)
        lo = torch.nn.functional.binary_cross_entropy_with_logits(
            y[:, 0], on, weight=torch.where(on > 0, torch.full_like(on, 4.0), torch.ones_like(on)))
        lf = torch.nn.functional.binary_cross_entropy_with_logits(y[:, 1], fr)
        loss = lo + lf
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if (step + 1) % 100 == 0:
            log(f'  step {step + 1}/{steps} loss {lo.item():.4f} + {lf.item():.4f} ({time.time() - t0:.0f} s)')
    model.eval()
    return model


def refine(model, clip):
    with torch.no_grad():
        y = torch.sigmoid(model(torch.from_numpy(clip['x'])[None]))[0].numpy()
    return y[0], y[1]   # [frames, BINS] each


def peaks(act, thr):
    """(frame, bin) of local maxima over time above thr."""
    prev = np.vstack([np.zeros((1, act.shape[1])), act[:-1]])
    nxt = np.vstack([act[1:], np.zeros((1, act.shape[1]))])
    t, b = np.where((act > thr) & (act > prev) & (act >= nxt))
    return list(zip(t.tolist(), b.tolist()))


def match(est, notes, tol=round(0.05 * FPS)):
    ref = [(int(round(n['time'] * FPS)), int(n['pitch']) - LO) for n in notes
           if not n.get('mute') and 0 <= int(n['pitch']) - LO < BINS]
    used = set()
    hits = 0
    for (t, b) in sorted(est):
        best = None
        for j, (rt, rb) in enumerate(ref):
            if j in used or rb != b or abs(rt - t) > tol:
                continue
            if best is None or abs(rt - t) < abs(ref[best][0] - t):
                best = j
        if best is not None:
            used.add(best)
            hits += 1
    return hits, len(est), len(ref)


def onset_f1(clips, acts, thresholds):
    out = {}
    for thr in thresholds:
        h = e = r = 0
        for c, a in zip(clips, acts):
            hh, ee, rr = match(peaks(a, thr), c['notes'])
            h, e, r = h + hh, e + ee, r + rr
        p, rc = h / max(1, e), h / max(1, r)
        out[thr] = (2 * p * rc / max(1e-9, p + rc), p, rc)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--train')
    ap.add_argument('--val')
    ap.add_argument('--steps', type=int, default=3000)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--save')
    ap.add_argument('--load', help='evaluate a saved model instead of training')
    ap.add_argument('--gamma', type=float, default=0.4,
                    help='calibration augmentation: each channel group raised to exp(U(-g, g)); 0 for none')
    ap.add_argument('--real', help='folder of the real excerpts (checked, never trained on)')
    ap.add_argument('--channels', type=int, default=16, help="the network's width")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    AUGMENT['gamma'] = args.gamma
    log = lambda m: print(m, flush=True)  # noqa: E731
    if args.load:
        state = torch.load(args.load)
        model = Refiner(state['inp.weight'].shape[0])
        model.load_state_dict(state)
        model.eval()
    else:
        clips = load(args.train)
        log(f'{len(clips)} training clips, {sum(c["x"].shape[1] for c in clips) / FPS / 60:.1f} minutes')
        model = train(clips, args.steps, args.seed, log, args.channels)
    if args.save:
        torch.save(model.state_dict(), args.save)
    val = (load(args.val) if args.val else []) + (load(args.real) if args.real else [])
    if val:
        for part in ('sf', 'sm', 'real'):
            vc = [c for c in val if c['corpus'] == part]
            if not vc:
                continue
            base = onset_f1(vc, [c['x'][1] for c in vc], (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9))
            ref = onset_f1(vc, [refine(model, c)[0] for c in vc], (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5))
            bb = max(base.items(), key=lambda kv: kv[1][0])
            rb = max(ref.items(), key=lambda kv: kv[1][0])
            log(f'{part} tuned ({len(vc)} clips): Basic Pitch onsets F1 {bb[1][0]:.3f} (P {bb[1][1]:.3f} R {bb[1][2]:.3f} at {bb[0]}), '
                f'refined {rb[1][0]:.3f} (P {rb[1][1]:.3f} R {rb[1][2]:.3f} at {rb[0]})')


if __name__ == '__main__':
    main()
