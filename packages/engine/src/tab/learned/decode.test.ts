import { describe, expect, it } from 'vitest';
import { CHORD_SPAN, MAX_CANDIDATES, candidatesOf, viterbiStrings } from './decode.js';
import { fretsFor, groupsOf, type FingeringSetup } from './features.js';
import { seededRandom } from '../../random.js';

const STANDARD: FingeringSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, maxFret: 24 };
const WEIGHTS = { shift: 2, move: 0.3 };

interface Clip {
  times: number[];
  pitches: number[];
  logp: number[][];
}

/** Random notes and chords a guitar can play, with random (normalised) model scores. */
function randomClip(seed: number, setup: FingeringSetup, length: number): Clip {
  const r = seededRandom(seed);
  const times: number[] = [];
  const pitches: number[] = [];
  let t = 0;
  for (let g = 0; g < length; g += 1) {
    const size = r() < 0.7 ? 1 : 2 + Math.floor(r() * 4);
    const low = (setup.tuning[0] ?? 40) + setup.capo;
    const chord = new Set<number>();
    while (chord.size < size) chord.add(low + Math.floor(r() * 36));
    for (const p of [...chord].sort((a, b) => a - b)) {
      times.push(t);
      pitches.push(p);
    }
    t += r() < 0.3 ? 0.05 : 0.1 + r() * 0.5;
  }
  const logp = pitches.map(() => {
    const raw = [0, 1, 2, 3, 4, 5].map(() => r() * 4);
    const z = Math.log(raw.reduce((a, b) => a + Math.exp(b), 0));
    return raw.map((v) => v - z);
  });
  return { times, pitches, logp };
}

function decode(clip: Clip, setup: FingeringSetup, pinned?: Map<number, number>) {
  const frets = clip.pitches.map((p) => fretsFor(p, setup));
  const groups = groupsOf(clip.times);
  const strings = viterbiStrings(groups, frets, clip.logp, clip.times, WEIGHTS, pinned);
  return { frets, groups, strings };
}

describe('learned fingering decoder', () => {
  it('never breaks a hard rule where a fingering keeps them all', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const setup: FingeringSetup =
        seed % 3 === 0 ? { tuning: [38, 45, 50, 55, 59, 64], capo: 2, maxFret: 19 } : STANDARD;
      const clip = randomClip(seed, setup, 60);
      const { frets, groups, strings } = decode(clip, setup);
      for (const members of groups) {
        // Could a fingering keep every rule? (candidatesOf drops a rule only when none can.)
        const first = candidatesOf(
          members.map((i) => frets[i] ?? []),
          members.map(() => [0, 0, 0, 0, 0, 0]),
        )[0];
        const feasible = first
          ? new Set(first.strings).size === first.strings.length &&
            (first.lo === null || (first.hi ?? 0) - first.lo <= CHORD_SPAN)
          : false;
        const used = members.map((i) => strings[i] ?? 0);
        // One note per string.
        if (feasible) expect(new Set(used).size).toBe(used.length);
        const fretted: number[] = [];
        members.forEach((i, j) => {
          const s = used[j] ?? 0;
          if (s === 0) {
            expect(frets[i]?.every((f) => f === null)).toBe(true);
            return;
          }
          const f = frets[i]?.[s - 1];
          // The pitch is reached on that string within the visible frets, capo included.
          expect(f).not.toBeNull();
          expect(f).toBeGreaterThanOrEqual(0);
          expect(f).toBeLessThanOrEqual(setup.maxFret);
          expect((setup.tuning[6 - s] ?? 0) + setup.capo + (f ?? 0)).toBe(clip.pitches[i]);
          if ((f ?? 0) > 0) fretted.push(f ?? 0);
        });
        // A hand can hold the chord.
        if (feasible && fretted.length > 0) {
          expect(Math.max(...fretted) - Math.min(...fretted)).toBeLessThanOrEqual(CHORD_SPAN);
        }
      }
    }
  });

  it('keeps pinned notes on their strings', () => {
    const clip = randomClip(7, STANDARD, 40);
    const pinned = new Map<number, number>();
    clip.pitches.forEach((p, i) => {
      if (i % 5 !== 0) return;
      // Pin each fifth note to the lowest string that reaches it (usually not the model's pick).
      const frets = fretsFor(p, STANDARD);
      for (let s = 6; s >= 1; s -= 1) {
        if (frets[s - 1] !== null) {
          pinned.set(i, s);
          break;
        }
      }
    });
    const { strings } = decode(clip, STANDARD, pinned);
    for (const [i, s] of pinned) expect(strings[i]).toBe(s);
  });

  it('fingers any six-string tuning and the capo', () => {
    // A made-up tuning (C G D G B E, low to high) with capo 3.
    const setup: FingeringSetup = { tuning: [36, 43, 50, 55, 59, 64], capo: 3, maxFret: 21 };
    const clip = randomClip(11, setup, 50);
    const { frets, strings } = decode(clip, setup);
    strings.forEach((s, i) => {
      if (s === 0) return;
      const f = frets[i]?.[s - 1] ?? -1;
      expect(setup.tuning[6 - s]! + 3 + f).toBe(clip.pitches[i]);
    });
  });

  it('keeps at most MAX_CANDIDATES fingerings of a group, the best ones', () => {
    // Six pitches no hand can hold within the span rule: every distinct-string assignment counts.
    const pitches = [52, 55, 57, 59, 62, 64];
    const frets = pitches.map((p) => fretsFor(p, STANDARD));
    const logp = pitches.map((_, i) => [0, 1, 2, 3, 4, 5].map((k) => -((i + k) % 6) / 3));
    const all = candidatesOf(frets, logp);
    expect(all.length).toBeLessThanOrEqual(MAX_CANDIDATES);
    for (let j = 1; j < all.length; j += 1) {
      expect(all[j]!.score).toBeLessThanOrEqual(all[j - 1]!.score);
    }
  });

  it('keeps a note the clip glides to on the string of the note it glides from', () => {
    // G3 (55) then C4 (60), 0.45 s apart. The model puts G3 on the open string 3 and C4 on
    // string 2, fret 1, a picked line; but the clip slid from one to the other, so both belong on
    // one string, fretted: 4:5 -> 4:10 or 5:10 -> 5:15 (string 3 cannot slide from open).
    const pitches = [55, 60];
    const times = [0, 0.45];
    const frets = pitches.map((p) => fretsFor(p, STANDARD));
    // Open string 3 and string 2 (fret 1) most likely; string 4 (frets 5 and 10) next.
    const logp = [
      [-9, -9, Math.log(0.6), Math.log(0.3), Math.log(0.1), -9],
      [-9, Math.log(0.6), Math.log(0.2), Math.log(0.15), Math.log(0.05), -9],
    ];
    const groups = groupsOf(times);
    const plain = viterbiStrings(groups, frets, logp, times, WEIGHTS);
    expect(plain).toEqual([3, 2]);
    // Fretted only (pipeline.ts gives the linked notes their fretted strings): string 3 is out
    // for G3.
    const fretted = frets.map((row, i) => row.map((f, k) => (i === 0 && k === 2 ? null : f)));
    const slide = new Map([[1, { of: 0, slide: true }]]);
    expect(viterbiStrings(groups, fretted, logp, times, WEIGHTS, undefined, slide)).toEqual([4, 4]);
    // A bend (slide: false) does not carry the hand: its link holds against the model where the
    // move is small (G3 bent toward A3, 57: 4:5 -> 4:7 rather than the model's 3:2) ...
    const bentFrets = [55, 57].map((p, i) =>
      fretsFor(p, STANDARD).map((f, k) => (i === 0 && k === 2 ? null : f)),
    );
    const bentLogp = [logp[0] ?? [], [-9, -9, Math.log(0.8), Math.log(0.1), Math.log(0.05), -9]];
    const bend = new Map([[1, { of: 0, slide: false }]]);
    expect(viterbiStrings(groups, bentFrets, bentLogp, times, WEIGHTS, undefined, bend)).toEqual([
      4, 4,
    ]);
    expect(viterbiStrings(groups, bentFrets, bentLogp, times, WEIGHTS)).toEqual([4, 3]);
    // ... while five frets up the neck cost the hand more than FOLLOW_COST (decode.ts), and the
    // link gives way.
    expect(viterbiStrings(groups, fretted, logp, times, WEIGHTS, undefined, bend)).toEqual([4, 3]);
    // Without the link, the fretted G3 and C4 go on two strings (C4 where the hand is).
    expect(viterbiStrings(groups, fretted, logp, times, WEIGHTS)).toEqual([4, 3]);
  });

  it('follows the model where no rule is at stake', () => {
    // One note, E4 (64): open string 1, or fret 5 on string 2; the model prefers string 2.
    const logp = [[Math.log(0.2), Math.log(0.8), -1e4, -1e4, -1e4, -1e4]];
    const strings = viterbiStrings([[0]], [fretsFor(64, STANDARD)], logp, [0], WEIGHTS);
    expect(strings).toEqual([2]);
  });
});
