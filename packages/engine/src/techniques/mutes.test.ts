import { plainNote } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import type { GuitarSetup } from '../types.js';
import { FRAME_RATE } from '../units.js';
import type { AttackAnalysis } from './attacks.js';
import { findMutes } from './mutes.js';

const SETUP: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };

/** Attack flux with a strike at each time, the partials' power dying at once after `dead`. */
function attacksAt(times: readonly number[], dead: number, seconds = 3): AttackAnalysis {
  const frames = Math.round(seconds * FRAME_RATE);
  const flux = new Float32Array(frames);
  const energy = new Float32Array(frames).fill(1);
  for (const t of times) flux[Math.round(t * FRAME_RATE)] = 1;
  const d = Math.round(dead * FRAME_RATE);
  energy.fill(0.001, d + 3);
  return { flux, energy };
}

describe('findMutes', () => {
  it('writes a dead note on the nearest string that is not sounding, at its fret', () => {
    // String 4 rings through the dead note at 1.5 s; string 2 stopped at 0.9 s.
    const ringing = plainNote({ time: 1.1, end_time: 2.5, string: 4, fret: 7 });
    const stopped = plainNote({ time: 0.4, end_time: 0.9, string: 2, fret: 5 });
    const mutes = findMutes([stopped, ringing], attacksAt([0.4, 1.1, 1.5], 1.5), SETUP);
    expect(mutes).toHaveLength(1);
    expect(mutes[0]).toMatchObject({ string: 2, fret: 5, mute: true });
    expect(mutes[0]!.time).toBeCloseTo(1.5, 1);
  });

  it('takes the nearest note when no string is free', () => {
    const notes = [1, 2, 3, 4, 5, 6].map((s) =>
      plainNote({ time: 1 + 0.05 * s, end_time: 2.5, string: s, fret: s }),
    );
    const mutes = findMutes(notes, attacksAt([...notes.map((n) => n.time), 1.9], 1.9), SETUP);
    expect(mutes).toHaveLength(1);
    expect(mutes[0]).toMatchObject({ string: 6, fret: 6, mute: true });
  });
});
