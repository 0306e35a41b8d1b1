import { type NoteEvent, plainNote } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { alignParallelMoves } from './parallel.js';

type Move = 'slide' | 'hammer' | 'pull';

/** A note on `string` moving from `from` to `to` at `at` seconds by `move` (two events). */
function moving(string: number, from: number, to: number, move: Move, start = 1, at = 1.3) {
  const departure = plainNote({ time: start, end_time: at, string, fret: from });
  const arrival = plainNote({ time: at, end_time: at + 0.4, string, fret: to });
  if (move === 'slide') [departure.trailing_slide, arrival.leading_slide] = [true, true];
  if (move === 'hammer') [departure.trailing_hammer_on, arrival.leading_hammer_on] = [true, true];
  if (move === 'pull') [departure.trailing_pull_off, arrival.leading_pull_off] = [true, true];
  return [departure, arrival];
}

const moves = (events: readonly NoteEvent[]) =>
  events.map((e) =>
    [
      e.trailing_slide ? 's>' : '',
      e.trailing_hammer_on ? 'h>' : '',
      e.trailing_pull_off ? 'p>' : '',
      e.leading_slide ? '<s' : '',
      e.leading_hammer_on ? '<h' : '',
      e.leading_pull_off ? '<p' : '',
    ].join(''),
  );

describe('alignParallelMoves', () => {
  it('makes a slide of the step beside a slide a double stop moves by', () => {
    // A third on strings 3 and 2 slides up a whole step; string 3's glide was not heard.
    const events = [...moving(3, 5, 7, 'hammer'), ...moving(2, 6, 8, 'slide', 1.004, 1.31)];
    expect(moves(alignParallelMoves(events))).toEqual(['s>', '<s', 's>', '<s']);
  });

  it('does the same going down', () => {
    const events = [...moving(4, 9, 7, 'slide'), ...moving(3, 9, 7, 'pull', 1.01, 1.29)];
    expect(moves(alignParallelMoves(events))).toEqual(['s>', '<s', 's>', '<s']);
  });

  it('leaves a double-stop hammer-on a hammer-on', () => {
    const events = [...moving(3, 5, 7, 'hammer'), ...moving(2, 6, 8, 'hammer')];
    expect(moves(alignParallelMoves(events))).toEqual(['h>', '<h', 'h>', '<h']);
  });

  it('leaves moves apart: other frets, another time, an open string', () => {
    const otherFrets = [...moving(3, 5, 6, 'hammer'), ...moving(2, 6, 8, 'slide')];
    expect(moves(alignParallelMoves(otherFrets))).toEqual(['h>', '<h', 's>', '<s']);
    const later = [...moving(3, 5, 7, 'hammer', 1.2, 1.5), ...moving(2, 6, 8, 'slide')];
    expect(moves(alignParallelMoves(later))).toEqual(['h>', '<h', 's>', '<s']);
    const open = [...moving(3, 0, 2, 'hammer'), ...moving(2, 1, 3, 'slide')];
    expect(moves(alignParallelMoves(open))).toEqual(['h>', '<h', 's>', '<s']);
  });

  it('changes nothing else and copies the events', () => {
    const events = [...moving(3, 5, 7, 'hammer'), ...moving(2, 6, 8, 'slide')];
    const out = alignParallelMoves(events);
    expect(events[0]?.trailing_hammer_on).toBe(true);
    expect(out.map(({ time, end_time, string, fret }) => [time, end_time, string, fret])).toEqual(
      events.map(({ time, end_time, string, fret }) => [time, end_time, string, fret]),
    );
  });
});
