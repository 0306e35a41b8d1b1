#!/usr/bin/env python3
"""Markdown tables of training/fingering/results.json, for the model card.

    /usr/bin/python3 training/fingering/figures.py [results.json]
"""
import json
import os
import sys

METHODS = ('model', 'net argmax', 'lowest fret', 'box rule', 'engine')
HEAD = '| | model (net + rules) | network alone | lowest fret | box rule | engine before |'


def row(name, scores, key='all'):
    cells = []
    for m in METHODS:
        v = scores.get(m, {}).get(key)
        cells.append(f'{v["acc"]:.3f}' if v else '-')
    return f'| {name} | ' + ' | '.join(cells) + ' |'


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'results.json')
    r = json.load(open(path))
    out = []
    for split, title in (('loso', 'Leave one source out (train on the other 13 sources)'),
                         ('kfold', 'k-fold by song (whole files per fold)')):
        if not r.get(split):
            continue
        out += [f'**{title}**, string accuracy over notes:', '', HEAD, '|---|---|---|---|---|---|']
        for name, res in r[split].items():
            n = res['scores']['model']['all']['n']
            out.append(row(f'{name} ({n} notes)', res['scores']))
        mean = r.get(split + '_mean', {})
        out.append('| **mean of the splits** | ' + ' | '.join(
            f'**{mean[m]:.3f}**' if m in mean else '-' for m in METHODS) + ' |')
        out += ['', f'Pooled over every {split} test note, by breakdown:', '', HEAD, '|---|---|---|---|---|---|']
        pooled = r.get(split + '_pooled', {})
        keys = sorted(pooled.get('model', {}), key=lambda k: (k != 'all', not k.startswith('frets'), k != 'whole chords', k))
        for k in keys:
            n = pooled['model'][k]['n']
            out.append(row(f'{k} ({n})', pooled, k))
        out.append('')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
