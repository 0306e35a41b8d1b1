import { describe, expect, it } from 'vitest';
import { FingeringInputError, parseFingeringInput } from './input.js';

describe('riffscribe fingering input', () => {
  it('reads tuning, capo, guitar, notes and pins, keeping other note fields', () => {
    const input = parseFingeringInput({
      tuning: [38, 45, 50, 55, 59, 64],
      capo: 2,
      guitar: 'nylon',
      notes: [
        { time: 0, end: 0.5, pitch: 50, velocity: 80 },
        { time: 0.5, end: 1, pitch: 57, pin: 4 },
      ],
    });
    expect(input.setup).toEqual({ tuning: [38, 45, 50, 55, 59, 64], capo: 2, maxFret: 24 });
    expect(input.guitar).toBe('nylon');
    expect(input.notes[0]).toMatchObject({ velocity: 80 });
    expect([...input.pinned]).toEqual([[1, 4]]);
  });

  it('takes the guitar from a MIDI program and defaults to unknown', () => {
    const base = { tuning: [40, 45, 50, 55, 59, 64], notes: [] };
    expect(parseFingeringInput({ ...base, program: 29 }).guitar).toBe('electric');
    expect(parseFingeringInput(base).guitar).toBe('unknown');
  });

  it('refuses what it cannot read, saying why', () => {
    const bad: unknown[] = [
      null,
      { tuning: [40, 45, 50], notes: [] },
      { tuning: [40, 45, 50, 55, 59, 64], capo: 13, notes: [] },
      { tuning: [40, 45, 50, 55, 59, 64], notes: [{ time: 0, pitch: 40.5 }] },
      { tuning: [40, 45, 50, 55, 59, 64], notes: [{ time: 1, end: 0.5, pitch: 40 }] },
      { tuning: [40, 45, 50, 55, 59, 64], notes: [{ time: 0, pitch: 40, pin: 7 }] },
      { tuning: [40, 45, 50, 55, 59, 64], guitar: 'banjo', notes: [] },
    ];
    for (const value of bad) expect(() => parseFingeringInput(value)).toThrow(FingeringInputError);
  });
});
