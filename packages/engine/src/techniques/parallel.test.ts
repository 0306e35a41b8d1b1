import {
  type NoteEvent,
  plainNote,
  setTechnique,
  type Technique,
  techniqueOn,
} from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { alignParallelMoves } from './parallel.js';

/** A note on `string` moving from `from` to `to` at `at` seconds by `move` (two events). */
function moving(string: number, from: number, to: number, move: Technique, start = 1, at = 1.3) {
  const departure = plainNote({ time: start, end_time: at, string, fret: from });
  const arrival = plainNote({ time: at, end_time: at + 0.4, string, fret: to });
  return [setTechnique(departure, 'trailing', move), setTechnique(arrival, 'leading', move)];
}

/** Each event's technique going out and coming in. */
const moves = (events: readonly NoteEvent[]) =>
  events.map((e) => [techniqueOn(e, 'trailing'), techniqueOn(e, 'leading')]);

const SLIDE = [
  ['slide', null],
  [null, 'slide'],
];
const HAMMER = [
  ['hammer_on', null],
  [null, 'hammer_on'],
];

describe('alignParallelMoves', () => {
  it('makes a slide of the step beside a slide a double stop moves by', () => {
    // A third on strings 3 and 2 slides up a whole step; string 3's glide was not heard.
    const events = [...moving(3, 5, 7, 'hammer_on'), ...moving(2, 6, 8, 'slide', 1.004, 1.31)];
    expect(moves(alignParallelMoves(events))).toEqual([...SLIDE, ...SLIDE]);
  });

  it('does the same going down', () => {
    const events = [...moving(4, 9, 7, 'slide'), ...moving(3, 9, 7, 'pull_off', 1.01, 1.29)];
    expect(moves(alignParallelMoves(events))).toEqual([...SLIDE, ...SLIDE]);
  });

  it('leaves a double-stop hammer-on a hammer-on', () => {
    const events = [...moving(3, 5, 7, 'hammer_on'), ...moving(2, 6, 8, 'hammer_on')];
    expect(moves(alignParallelMoves(events))).toEqual([...HAMMER, ...HAMMER]);
  });

  it('leaves moves apart: other frets, another time, an open string', () => {
    const otherFrets = [...moving(3, 5, 6, 'hammer_on'), ...moving(2, 6, 8, 'slide')];
    expect(moves(alignParallelMoves(otherFrets))).toEqual([...HAMMER, ...SLIDE]);
    const later = [...moving(3, 5, 7, 'hammer_on', 1.2, 1.5), ...moving(2, 6, 8, 'slide')];
    expect(moves(alignParallelMoves(later))).toEqual([...HAMMER, ...SLIDE]);
    const open = [...moving(3, 0, 2, 'hammer_on'), ...moving(2, 1, 3, 'slide')];
    expect(moves(alignParallelMoves(open))).toEqual([...HAMMER, ...SLIDE]);
  });

  it('changes nothing else, and not the events it is given', () => {
    const events = [...moving(3, 5, 7, 'hammer_on'), ...moving(2, 6, 8, 'slide')];
    const out = alignParallelMoves(events);
    expect(events[0]?.trailing_hammer_on).toBe(true);
    expect(out.map(({ time, end_time, string, fret }) => [time, end_time, string, fret])).toEqual(
      events.map(({ time, end_time, string, fret }) => [time, end_time, string, fret]),
    );
  });
});
