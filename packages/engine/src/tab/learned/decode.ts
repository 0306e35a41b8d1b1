/**
 * The hand's rules around the learned model: a Viterbi search over every group's fingerings,
 * with the network's log-probabilities as emissions. Mirrors training/fingering/features.py
 * (`candidates`, `viterbi`), including its order of enumeration and its tie-breaking, so that
 * both give the same strings. Pure and deterministic.
 *
 * Hard rules: one note per string within a group; the fretted notes of a group span at most
 * CHORD_SPAN frets; two groups at most CLOSE_DT apart span at most CLOSE_SPAN frets together
 * (unless no fingering allows it); frets 0..maxFret; pinned notes keep their string.
 * Soft: moving the hand costs `shift` per fret the two groups' frets spread beyond a four-fret
 * box and `move` per fret the lowest fretted fret moves; each note pays `fret` per 12 frets.
 */

/** Fretted frets of one group span at most this many frets. */
export const CHORD_SPAN = 5;
/** Groups at most this many seconds apart ... */
export const CLOSE_DT = 0.1;
/** ... span at most this many frets together. */
export const CLOSE_SPAN = 7;

/** Fingerings kept per group, best first: bounds the search on dense made-up chords. */
export const MAX_CANDIDATES = 48;

/** Weights of the soft rules (decoder.json beside the model). */
export interface DecoderWeights {
  shift: number;
  move: number;
  /** Cost per 12 frets of every note's fret (a mild pull toward the nut); 0 when absent. */
  fret?: number;
}

/** One fingering of a group: string per note (0 = no string reaches it), score, fretted range. */
export interface Candidate {
  strings: number[];
  score: number;
  lo: number | null;
  hi: number | null;
}

/**
 * Fingerings of one group: a distinct string per note, fretted span at most CHORD_SPAN, in
 * depth-first order (note by note, string 1 first). When none exists the span rule is dropped,
 * then the distinct-strings rule. A note no string can play gets string 0 and adds nothing.
 * Beyond MAX_CANDIDATES, the best MAX_CANDIDATES by score are kept (stable).
 */
export function candidatesOf(
  groupFrets: readonly (readonly (number | null)[])[],
  logp: readonly (readonly number[])[],
  fretWeight = 0,
): Candidate[] {
  const n = groupFrets.length;
  const out: Candidate[] = [];
  const strings: number[] = [];
  const walk = (
    i: number,
    used: number,
    score: number,
    lo: number | null,
    hi: number | null,
    spanRule: boolean,
    distinct: boolean,
  ): void => {
    if (i === n) {
      out.push({ strings: [...strings], score, lo, hi });
      return;
    }
    const frets = groupFrets[i] ?? [];
    if (frets.every((f) => f === null)) {
      strings.push(0);
      walk(i + 1, used, score, lo, hi, spanRule, distinct);
      strings.pop();
      return;
    }
    for (let k = 0; k < 6; k += 1) {
      const f = frets[k] ?? null;
      if (f === null || (distinct && ((used >> k) & 1) === 1)) continue;
      let nlo = lo;
      let nhi = hi;
      if (f > 0) {
        nlo = lo === null ? f : Math.min(lo, f);
        nhi = hi === null ? f : Math.max(hi, f);
        if (spanRule && nhi - nlo > CHORD_SPAN) continue;
      }
      strings.push(k + 1);
      const emission = (logp[i]?.[k] ?? 0) - (fretWeight * f) / 12;
      walk(i + 1, used | (1 << k), score + emission, nlo, nhi, spanRule, distinct);
      strings.pop();
    }
  };
  for (const [spanRule, distinct] of [
    [true, true],
    [false, true],
    [false, false],
  ] as const) {
    walk(0, 0, 0, null, null, spanRule, distinct);
    if (out.length > 0) break;
  }
  // Array.prototype.sort is stable: equal scores keep the enumeration order, as in Python.
  if (out.length > MAX_CANDIDATES)
    return out.sort((a, b) => b.score - a.score).slice(0, MAX_CANDIDATES);
  return out;
}

interface Cell {
  score: number;
  lo: number | null;
  hi: number | null;
  back: number;
}

/**
 * Best string (1..6, 0 where no string reaches) per note. `groups` are note indices struck
 * together in time order; `frets[i]` the fret per string (index 0 = string 1) or null; `logp[i]`
 * the model's log-probability per string; `pinned` maps a note index to the string it must keep.
 */
export function viterbiStrings(
  groups: readonly (readonly number[])[],
  frets: readonly (readonly (number | null)[])[],
  logp: readonly (readonly number[])[],
  times: readonly number[],
  weights: DecoderWeights,
  pinned?: ReadonlyMap<number, number>,
): number[] {
  const layers: { cands: Candidate[]; cells: Cell[] }[] = [];
  let prev: Cell[] | null = null;
  let prevTime: number | null = null;
  for (const members of groups) {
    const gf = members.map((i) => {
      const row = frets[i] ?? [null, null, null, null, null, null];
      const pin = pinned?.get(i);
      return pin === undefined ? row : row.map((f, k) => (k + 1 === pin ? f : null));
    });
    const cands = candidatesOf(
      gf,
      members.map((i) => logp[i] ?? []),
      weights.fret ?? 0,
    );
    const t = times[members[0] ?? 0] ?? 0;
    const dt = prevTime === null ? 10 : t - prevTime;
    prevTime = t;
    const cells: Cell[] = [];
    for (const cand of cands) {
      if (prev === null) {
        cells.push({ score: cand.score, lo: cand.lo, hi: cand.hi, back: -1 });
        continue;
      }
      let best = -Infinity;
      let arg = -1;
      let hand: [number | null, number | null] = [cand.lo, cand.hi];
      const consider = (j: number, value: number, p: Cell) => {
        if (value > best) {
          best = value;
          arg = j;
          hand = cand.lo !== null ? [cand.lo, cand.hi] : [p.lo, p.hi];
        }
      };
      prev.forEach((p, j) => {
        let cost = 0;
        if (cand.lo !== null && cand.hi !== null && p.lo !== null && p.hi !== null) {
          const span = Math.max(cand.hi, p.hi) - Math.min(cand.lo, p.lo);
          if (dt <= CLOSE_DT && span > CLOSE_SPAN) return;
          cost = weights.shift * Math.max(0, span - 3) + weights.move * Math.abs(cand.lo - p.lo);
        }
        consider(j, p.score - cost, p);
      });
      if (arg < 0) {
        // Every predecessor breaks the close-notes rule: take the best one anyway.
        prev.forEach((p, j) => {
          consider(j, p.score, p);
        });
      }
      cells.push({ score: best + cand.score, lo: hand[0], hi: hand[1], back: arg });
    }
    layers.push({ cands, cells });
    prev = cells;
  }
  const out = new Array<number>(frets.length).fill(0);
  if (prev === null) return out;
  let k = 0;
  prev.forEach((c, j) => {
    if (c.score > (prev[k]?.score ?? -Infinity)) k = j;
  });
  for (let g = groups.length - 1; g >= 0 && k >= 0; g -= 1) {
    const layer = layers[g];
    const members = groups[g];
    if (!layer || !members) break;
    const strings = layer.cands[k]?.strings ?? [];
    members.forEach((i, j) => {
      out[i] = strings[j] ?? 0;
    });
    k = layer.cells[k]?.back ?? -1;
  }
  return out;
}
