"""Reading the note refiner's material (written by packages/lab/dist/material.js)."""
import glob
import json
import os

import numpy as np

FPS = 22050 / 256
ROW = 440                      # 88 note, 88 onset, 264 contour bins per frame
LO, HI = 35, 91                # MIDI range the refiner sees (guitar: open strings 38.., bends ..90)
BINS = HI - LO                 # 56
CHANNELS = 5                   # note, onset, contour at the semitone and a third either side


def features(raw):
    """Model outputs [frames, 440] -> refiner input [CHANNELS, frames, BINS] (float32)."""
    n = raw.shape[0]
    p0 = LO - 21
    note = raw[:, p0:p0 + BINS]
    onset = raw[:, 88 + p0:88 + p0 + BINS]
    contour = raw[:, 176:176 + 264].reshape(n, 88, 3)[:, p0:p0 + BINS, :]
    x = np.stack([note, onset, contour[:, :, 0], contour[:, :, 1], contour[:, :, 2]], 0)
    return np.ascontiguousarray(x, dtype=np.float32)


def targets(notes, n):
    """Onset target [frames, BINS] (1 at the nearest frame of a note's start, 0.5 at the frames
    beside it) and frame target (1 while the note sounds). Dead notes are not notes."""
    on = np.zeros((n, BINS), np.float32)
    fr = np.zeros((n, BINS), np.float32)
    for note in notes:
        if note.get('mute'):
            continue
        b = int(note['pitch']) - LO
        if not 0 <= b < BINS:
            continue
        t = int(round(note['time'] * FPS))
        e = max(t + 1, int(round(note['end'] * FPS)))
        if 0 <= t < n:
            on[t, b] = 1.0
            for d in (-1, 1):
                if 0 <= t + d < n:
                    on[t + d, b] = max(on[t + d, b], 0.5)
        fr[max(0, t):min(n, e), b] = 1.0
    return on, fr


def load(folder):
    """Every clip of a material folder: dict(name, corpus, program, x, on, fr, notes)."""
    clips = []
    for js in sorted(glob.glob(os.path.join(folder, '*.json'))):
        meta = json.load(open(js))
        raw = np.fromfile(js[:-5] + '.f32', dtype=np.float32).reshape(-1, ROW)
        on, fr = targets(meta['notes'], raw.shape[0])
        clips.append(dict(name=meta['name'], corpus=meta['corpus'], program=meta['program'],
                          x=features(raw), on=on, fr=fr, notes=meta['notes']))
    return clips
