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
 * box and `move` per fret the lowest fretted fret moves; each note pays `fret` per 12 frets; a
 * note that continues another on its string (`follows`: the clip glides from one to the other,
 * techniques/glide-links.ts) pays FOLLOW_COST when it is put on another string, and a group all of
 * whose notes slide on along their strings moves the hand at no cost (the slide carries it). The
 * training side has no `follows` (tabs carry no audio), so with none given both give the same
 * strings.
 */

/** Fretted frets of one group span at most this many frets. */
export const CHORD_SPAN = 5;
/** Groups at most this many seconds apart ... */
export const CLOSE_DT = 0.1;
/** ... span at most this many frets together. */
export const CLOSE_SPAN = 7;

/**
 * Cost (log-probability) of putting a note on another string than the note it continues: the
 * clip glides from one pitch to the other, which only a string that keeps sounding does (a slide
 * or a bend). Not a hard rule, as a glide read from a busy mix can be wrong: 4 nats, the model's
 * preference must be over 50 to 1 to break the link.
 */
export const FOLLOW_COST = 4;

/** A note that continues another on its string (the clip glides from one to the other). */
export interface Follow {
  /** Index of the note it continues. */
  of: number;
  /** A slide: the fretting hand moves with the string (a bend's hand stays where it is). */
  slide: boolean;
}

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
 * the model's log-probability per string; `pinned` maps a note index to the string it must keep;
 * `follows` maps a note index to the note it continues on one string, which counts where that
 * note is in the group just before.
 */
export function viterbiStrings(
  groups: readonly (readonly number[])[],
  frets: readonly (readonly (number | null)[])[],
  logp: readonly (readonly number[])[],
  times: readonly number[],
  weights: DecoderWeights,
  pinned?: ReadonlyMap<number, number>,
  follows?: ReadonlyMap<number, Follow>,
): number[] {
  const layers: { cands: Candidate[]; cells: Cell[] }[] = [];
  let prev: Cell[] | null = null;
  let prevTime: number | null = null;
  let prevMembers: readonly number[] = [];
  for (const members of groups) {
    // [position in this group, position in the group before] of each link.
    const links: [number, number][] = [];
    let slides = 0;
    members.forEach((i, k) => {
      const follow = follows?.get(i);
      const at = follow === undefined ? -1 : prevMembers.indexOf(follow.of);
      if (at < 0) return;
      links.push([k, at]);
      if (follow?.slide) slides++;
    });
    const prevCands = layers.at(-1)?.cands ?? [];
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
      // FOLLOW_COST for each linked note put on another string than its note in the j-th
      // fingering of the group before.
      const broken = (j: number) => {
        if (links.length === 0) return 0;
        const before = prevCands[j]?.strings ?? [];
        let count = 0;
        for (const [k, at] of links) if (cand.strings[k] !== before[at]) count++;
        return FOLLOW_COST * count;
      };
      prev.forEach((p, j) => {
        const cut = broken(j);
        // A group whose every note slides on from a note of the group before on its string
        // carries the hand with it: no cost for the move.
        if (cut === 0 && slides === members.length) {
          consider(j, p.score, p);
          return;
        }
        let cost = cut;
        if (cand.lo !== null && cand.hi !== null && p.lo !== null && p.hi !== null) {
          const span = Math.max(cand.hi, p.hi) - Math.min(cand.lo, p.lo);
          if (dt <= CLOSE_DT && span > CLOSE_SPAN) return;
          cost += weights.shift * Math.max(0, span - 3) + weights.move * Math.abs(cand.lo - p.lo);
        }
        consider(j, p.score - cost, p);
      });
      if (arg < 0) {
        // Every predecessor breaks the close-notes rule: take the best one anyway.
        prev.forEach((p, j) => {
          consider(j, p.score - broken(j), p);
        });
      }
      cells.push({ score: best + cand.score, lo: hand[0], hi: hand[1], back: arg });
    }
    layers.push({ cands, cells });
    prev = cells;
    prevMembers = members;
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
