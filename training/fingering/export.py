"""Training the shipped model on every source, ONNX export and the parity golden for TypeScript."""
import collections
import json
import os

import numpy as np
import torch

from features import (CHORD_SPAN, CLOSE_DT, CLOSE_SPAN, GROUP_EPS, MAX_FRET, N_FEATURES, encode,
                      frets_for, groups_of, viterbi)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..'))
MODEL_DIR = os.path.join(REPO, 'packages', 'engine', 'models', 'fingering')
PARITY = os.path.join(REPO, 'packages', 'engine', 'test', 'golden', 'fingering-parity.json')


def chosen_params(results):
    """The decoder weights for the shipped model: per weight, the median of the values the
    evaluation runs chose on their held-back songs (a tuple vote is too noisy with ten runs)."""
    picks = []
    for split in ('loso', 'kfold', 'loso_from_files', 'kfold_from_files'):
        for r in results.get(split, {}).values():
            picks.append(r['params'])
    if not picks:
        return dict(shift=2.0, move=1.0, fret=0.0)
    return {k: float(np.median([p.get(k, 0.0) for p in picks])) for k in ('shift', 'move', 'fret')}


def parity_cases():
    """Short note lists written for the parity test (not from the corpus): an open-position
    arpeggio, a barre-chord change, a drop-D power-chord riff, a capo-2 line, a lead run."""
    std = [40, 45, 50, 55, 59, 64]
    cases = []
    t = 0.0
    notes = []
    for p in [48, 52, 55, 60, 64, 60, 55, 52, 45, 48, 52, 57, 60, 57, 52, 48]:
        notes.append((t, p))
        t += 0.25
    for chord in ([43, 47, 50, 55, 59, 67], [41, 48, 53, 57, 60, 65], [45, 52, 57, 61, 64]):
        for p in chord:
            notes.append((t, p))
        t += 1.0
    cases.append(dict(name='open arpeggio and chords', tuning=std, capo=0, program=25, notes=notes))
    drop = [38, 45, 50, 55, 59, 64]
    notes, t = [], 0.0
    for root in [38, 38, 41, 43, 38, 46, 45, 43]:
        for p in (root, root + 7, root + 12):
            notes.append((t, p))
        t += 0.2
    cases.append(dict(name='drop D power chords', tuning=drop, capo=0, program=30, notes=notes))
    notes, t = [], 0.0
    for p in [57, 59, 61, 62, 64, 66, 68, 69, 71, 73, 74, 76, 74, 73, 71, 69]:
        notes.append((t, p))
        t += 0.125
    cases.append(dict(name='capo 2 scale', tuning=std, capo=2, program=24, notes=notes))
    notes, t = [], 0.0
    for p in [69, 72, 74, 76, 79, 81, 79, 76, 74, 72, 69, 67, 64]:
        notes.append((t, p))
        t += 0.1
    cases.append(dict(name='lead run, guitar unknown', tuning=[40, 45, 50, 55, 59, 64], capo=0,
                      program=-1, notes=notes))
    return cases


def export_final(preps, args, results, log):
    from train import predict, train_model
    params = chosen_params(results)
    log(f'\nFinal model on every source ({sum(len(p["pitches"]) for p in preps)} notes), decoder {params}')
    if args.final_state and os.path.exists(args.final_state):
        from model import FingerNet
        model = FingerNet()
        model.load_state_dict(torch.load(args.final_state))
        model.eval()
        log(f'loaded the final network from {args.final_state}')
    else:
        model = train_model(preps, args.steps, seed=args.seed, log=log)
        if args.final_state:
            torch.save(model.state_dict(), args.final_state)
    os.makedirs(MODEL_DIR, exist_ok=True)
    path = os.path.join(MODEL_DIR, 'fingering.onnx')
    dummy = torch.zeros(1, N_FEATURES, 40)
    torch.onnx.export(model, dummy, path, input_names=['features'], output_names=['logp'],
                      dynamic_axes={'features': {0: 'batch', 2: 'notes'}, 'logp': {0: 'batch', 2: 'notes'}},
                      opset_version=13)
    import onnx
    onnx.checker.check_model(onnx.load(path))
    decoder = dict(features=N_FEATURES, max_fret=MAX_FRET, group_eps=GROUP_EPS, chord_span=CHORD_SPAN,
                   close_dt=CLOSE_DT, close_span=CLOSE_SPAN, shift=params['shift'], move=params['move'],
                   fret=params['fret'],
                   steps=args.steps, seed=args.seed)
    with open(os.path.join(MODEL_DIR, 'decoder.json'), 'w') as f:
        json.dump(decoder, f, indent=1)
        f.write('\n')
    cases = []
    for c in parity_cases():
        notes = sorted(c['notes'], key=lambda n: (n[0], n[1]))
        pitches, times = [n[1] for n in notes], [n[0] for n in notes]
        x = encode(pitches, times, c['tuning'], c['capo'], c['program'])
        prep = dict(x=x)
        lp = predict(model, prep)
        frets = [frets_for(p, c['tuning'], c['capo']) for p in pitches]
        strings = viterbi(groups_of(times), frets, lp.tolist(), times, params)
        cases.append(dict(name=c['name'], tuning=c['tuning'], capo=c['capo'], program=c['program'],
                          notes=[dict(time=t, pitch=p) for t, p in notes],
                          features=np.round(x, 6).tolist(), logp=np.round(lp, 5).tolist(), strings=strings))
    os.makedirs(os.path.dirname(PARITY), exist_ok=True)
    with open(PARITY, 'w') as f:
        json.dump(dict(decoder=decoder, cases=cases), f)
        f.write('\n')
    log(f'wrote {path} ({os.path.getsize(path) // 1024} KiB), decoder.json and {PARITY}')
