"""Tuning- and capo-independent note features, note groups and the hand-rule decoder.

Everything here is mirrored by the TypeScript engine (packages/engine/src/tab/learned/); the
encoding is documented, field by field, in packages/engine/models/fingering/MODEL_CARD.md.
Strings are numbered 1 (highest) .. 6 (lowest); `tuning` is low to high, so string s has open
pitch tuning[6 - s] + capo.
"""
import math
import numpy as np

N_FEATURES = 36
MAX_FRET = 24
GROUP_EPS = 0.02          # onsets within this many seconds of a group's first note are one group
CHORD_SPAN = 5            # hard: fretted frets of one group span at most this many frets
CLOSE_DT = 0.1            # hard: groups this close (s) ...
CLOSE_SPAN = 7            # ... span at most this many frets together
MAX_CANDIDATES = 48       # fingerings kept per group, best first (2 of 181,352 corpus groups have more)
STD_INTERVALS = (5, 5, 5, 4, 5)


def guitar_class(program):
    """0 nylon, 1 steel, 2 electric, -1 unknown (MIDI program)."""
    if program == 24:
        return 0
    if program == 25:
        return 1
    if 26 <= program <= 31:
        return 2
    return -1


def open_pitch(tuning, capo, s):
    return tuning[6 - s] + capo


def frets_for(pitch, tuning, capo, max_fret=MAX_FRET):
    """Fret needed on strings 1..6 (index 0 = string 1), None where it cannot be played."""
    out = []
    for s in range(1, 7):
        f = pitch - open_pitch(tuning, capo, s)
        out.append(f if 0 <= f <= max_fret else None)
    return out


def groups_of(times):
    """Indices of notes (already sorted by time, then pitch) grouped by onset; groups of more
    than six notes are split into runs of six in that order."""
    groups, first = [], None
    for i, t in enumerate(times):
        if groups and t - first <= GROUP_EPS and len(groups[-1]) < 6:
            groups[-1].append(i)
        else:
            groups.append([i])
            first = t
    return groups


def encode(pitches, times, tuning, capo, program, max_fret=MAX_FRET):
    """Feature matrix [n, N_FEATURES] (float32) for notes sorted by time then pitch."""
    n = len(pitches)
    x = np.zeros((n, N_FEATURES), dtype=np.float32)
    groups = groups_of(times)
    gc = guitar_class(program)
    base = tuning[0] + capo
    intervals = [tuning[i + 1] - tuning[i] - STD_INTERVALS[i] for i in range(5)]
    for g, members in enumerate(groups):
        t0 = times[members[0]]
        dt_prev = t0 - times[groups[g - 1][0]] if g > 0 else 4.0
        dt_next = times[groups[g + 1][0]] - t0 if g + 1 < len(groups) else 4.0
        for rank, i in enumerate(members):
            row = x[i]
            frets = frets_for(pitches[i], tuning, capo, max_fret)
            for k, f in enumerate(frets):
                if f is not None:
                    row[3 * k] = 1.0
                    row[3 * k + 1] = f / 12.0
                    row[3 * k + 2] = 1.0 if f == 0 else 0.0
            row[18] = sum(f is not None for f in frets) / 6.0
            row[19] = capo / 7.0
            for j in range(5):
                row[20 + j] = intervals[j] / 2.0
            row[25] = (base - 40) / 12.0
            row[26] = math.log1p(max(0.0, dt_prev) * 10.0) / 4.0
            row[27] = math.log1p(max(0.0, dt_next) * 10.0) / 4.0
            row[28] = len(members) / 6.0
            row[29] = rank / 5.0
            row[30] = 1.0 if rank == 0 else 0.0
            row[31] = 1.0 if rank == len(members) - 1 else 0.0
            if gc >= 0:
                row[32 + gc] = 1.0
            row[35] = (pitches[i] - base) / 24.0
    return x


# ----------------------------------------------------------------------------------------------
# Decoder: Viterbi over the groups' fingerings with the hand's rules.

def candidates(group_frets, logp, fret_w=0.0):
    """Fingerings of one group: one distinct string per note, fretted span <= CHORD_SPAN.
    group_frets: per note, 6 frets or None; logp: per note, 6 log-probabilities.
    Returns a list of (strings tuple, score, lo, hi), in depth-first order (note by note, string
    1 first); beyond MAX_CANDIDATES, the best MAX_CANDIDATES by score (stable). If none exists,
    the span rule is dropped, then the distinct-strings rule. A note no string can play gets
    string 0 (left unplaced) and adds nothing."""
    n = len(group_frets)
    out = []

    def walk(i, used, strings, score, lo, hi, span_rule, distinct):
        if i == n:
            out.append((tuple(strings), score, lo, hi))
            return
        if all(f is None for f in group_frets[i]):
            strings.append(0)
            walk(i + 1, used, strings, score, lo, hi, span_rule, distinct)
            strings.pop()
            return
        for k in range(6):
            f = group_frets[i][k]
            if f is None or (distinct and (used >> k) & 1):
                continue
            nlo, nhi = lo, hi
            if f > 0:
                nlo = f if lo is None else min(lo, f)
                nhi = f if hi is None else max(hi, f)
                if span_rule and nhi - nlo > CHORD_SPAN:
                    continue
            strings.append(k + 1)
            walk(i + 1, used | (1 << k), strings, score + logp[i][k] - fret_w * f / 12.0, nlo, nhi,
                 span_rule, distinct)
            strings.pop()

    for span_rule, distinct in ((True, True), (False, True), (False, False)):
        walk(0, 0, [], 0.0, None, None, span_rule, distinct)
        if out:
            break
    if len(out) > MAX_CANDIDATES:   # stable sort: equal scores keep the enumeration order
        out = sorted(out, key=lambda c: -c[1])[:MAX_CANDIDATES]
    return out


def viterbi(group_list, frets, logp, times, params, pinned=None):
    """Best string per note. group_list: list of note-index lists; frets[i]: 6 frets or None;
    logp[i]: 6 log-probabilities; params: dict(shift, move, fret: a cost per 12 frets of each
    note, 0 if absent). pinned: {note index: string}.
    Returns list of strings (1..6) per note index."""
    shift_w, move_w, fret_w = params['shift'], params['move'], params.get('fret', 0.0)
    prev = None  # list of (score, lo, hi, back)
    layers = []
    prev_time = None
    for members in group_list:
        gf = [frets[i] for i in members]
        lp = [logp[i] for i in members]
        if pinned:
            gf = [[(f if (pinned.get(i) is None or pinned[i] == k + 1) else None) for k, f in enumerate(gf[j])]
                  for j, i in enumerate(members)]
        cands = candidates(gf, lp, fret_w)
        t = times[members[0]]
        dt = 10.0 if prev_time is None else t - prev_time
        prev_time = t
        cur = []
        for (strings, emit, lo, hi) in cands:
            if prev is None:
                cur.append((emit, lo, hi, -1))
                continue
            best, arg, hand = -math.inf, -1, (lo, hi)
            for j, (ps, plo, phi, _) in enumerate(prev):
                if lo is None or plo is None:
                    c = 0.0
                else:
                    span = max(hi, phi) - min(lo, plo)
                    if dt <= CLOSE_DT and span > CLOSE_SPAN:
                        continue
                    c = shift_w * max(0, span - 3) + move_w * abs(lo - plo)
                v = ps - c
                if v > best:
                    best, arg = v, j
                    hand = (lo, hi) if lo is not None else (plo, phi)
            if arg < 0:  # every predecessor breaks the close-notes rule: take the best anyway
                for j, (ps, plo, phi, _) in enumerate(prev):
                    if ps > best:
                        best, arg = ps, j
                        hand = (lo, hi) if lo is not None else (plo, phi)
            cur.append((best + emit, hand[0], hand[1], arg))
        layers.append((cands, cur))
        prev = cur
    out = {}
    k = max(range(len(prev)), key=lambda j: prev[j][0]) if prev else -1
    for (members, (cands, cur)) in zip(reversed(group_list), reversed(layers)):
        strings = cands[k][0]
        for j, i in enumerate(members):
            out[i] = strings[j]
        k = cur[k][3]
    return [out[i] for i in range(len(frets))]
