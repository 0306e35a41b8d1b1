import { type NoteEvent, setTechnique, techniqueOn } from '@riffscribe/core';
import { firstAtLeast } from '../sorted.js';
import { CHAIN_OPTIONS } from './chains.js';

/**
 * Double stops that move together (pure). Two fingers moving on two strings at once, struck
 * together and arriving together by the same number of frets, are one motion of the fretting
 * hand, so both strings do the same thing. The chain stage reads each string on its own
 * (chain-events.ts), and where the strings lie a third or a fourth apart one string's way between
 * its pitches can be masked by the other's partials: one string is heard gliding (a slide) and
 * its partner read as a step (a hammer-on or pull-off). A step does not glide, so a glide heard
 * on one string says the hand slid: the partner slides too. Open strings are left alone (no finger
 * slides on one).
 */

/** A departing note and the note it moves to on the same string, by index in the events. */
interface Pair {
  departure: number;
  arrival: number;
}

/**
 * The events with every step that moves in parallel with a slide on another string made a slide.
 * Two moves are a pair when their departing notes start within `together` seconds of each other,
 * their arriving notes too, and they move by the same number of frets.
 */
export function alignParallelMoves(
  events: readonly NoteEvent[],
  together: number = CHAIN_OPTIONS.strumGap,
): NoteEvent[] {
  const out = [...events];
  // Each arriving note with the departing note it continues: the latest earlier note on its
  // string, when that note leaves by the same move.
  const byString = new Map<number, number[]>();
  out.forEach((e, i) => {
    const list = byString.get(e.string);
    if (list) list.push(i);
    else byString.set(e.string, [i]);
  });
  const pairs: Pair[] = [];
  for (const list of byString.values()) {
    list.sort((i, j) => (out[i]?.time ?? 0) - (out[j]?.time ?? 0));
    list.forEach((arrival, k) => {
      const a = out[arrival];
      const move = a ? techniqueOn(a, 'leading') : null;
      if (a === undefined || move === null) return;
      let m = k - 1;
      while (m >= 0 && (out[list[m] ?? -1]?.time ?? -Infinity) >= a.time) m--;
      const departure = list[m] ?? -1;
      const d = out[departure];
      if (d !== undefined && techniqueOn(d, 'trailing') === move)
        pairs.push({ departure, arrival });
    });
  }
  const departs = (p: Pair) => out[p.departure]?.time ?? 0;
  const move = (p: Pair) => {
    const a = out[p.arrival];
    return a ? techniqueOn(a, 'leading') : null;
  };
  pairs.sort((p, q) => departs(p) - departs(q));
  for (const slide of pairs) {
    const d = out[slide.departure];
    const a = out[slide.arrival];
    if (move(slide) !== 'slide' || d === undefined || a === undefined) continue;
    for (let k = firstAtLeast(pairs, d.time - together, departs); k < pairs.length; k++) {
      const step = pairs[k];
      if (step === undefined || departs(step) > d.time + together) break;
      const e = out[step.departure];
      const b = out[step.arrival];
      if (move(step) === 'slide' || e === undefined || b === undefined) continue;
      if (e.string === d.string || Math.abs(b.time - a.time) > together) continue;
      if (b.fret - e.fret !== a.fret - d.fret || e.fret < 1 || b.fret < 1) continue;
      out[step.departure] = setTechnique(e, 'trailing', 'slide');
      out[step.arrival] = setTechnique(b, 'leading', 'slide');
    }
  }
  return out;
}
