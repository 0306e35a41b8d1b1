"""Rule baselines the model is compared with (same grouping and candidate rules as the decoder)."""
from features import candidates


def _zero_logp(n):
    return [[0.0] * 6 for _ in range(n)]


def _frets_sum(gf, cand):
    return sum(gf[j][s - 1] for j, s in enumerate(cand[0]) if s > 0)


def lowest_fret(group_list, frets):
    """Each group on the fingering with the smallest sum of frets (distinct strings)."""
    out = [0] * len(frets)
    for members in group_list:
        gf = [frets[i] for i in members]
        cands = candidates(gf, _zero_logp(len(members)))
        best = min(cands, key=lambda c: _frets_sum(gf, c))
        for j, i in enumerate(members):
            out[i] = best[0][j]
    return out


def box_rule(group_list, frets):
    """Greedy 4-fret box: keep the hand's box (index finger at fret p covers p..p+3); play a group
    inside it when a fingering fits (open strings always fit), the lowest such; otherwise the
    lowest-fret fingering, and the box moves to its lowest fretted fret."""
    out = [0] * len(frets)
    p = None
    for members in group_list:
        gf = [frets[i] for i in members]
        cands = candidates(gf, _zero_logp(len(members)))
        fits = [c for c in cands if c[2] is None or (p is not None and c[2] >= p and c[3] <= p + 3)]
        if fits:
            best = min(fits, key=lambda c: _frets_sum(gf, c))
        else:
            best = min(cands, key=lambda c: _frets_sum(gf, c))
        if best[2] is not None and not (p is not None and best[2] >= p and best[3] <= p + 3):
            p = best[2] if best[3] - best[2] <= 3 else best[3] - 3
        for j, i in enumerate(members):
            out[i] = best[0][j]
    return out
