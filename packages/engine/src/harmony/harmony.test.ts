import { describe, expect, it } from 'vitest';
import { chordText, detectChords, nameChord } from './chords.js';
import { detectKey } from './key.js';

const named = (pitches: number[], flats = false) => {
  const name = nameChord(pitches);
  return name ? chordText(name, flats) : null;
};

describe('nameChord', () => {
  it.each([
    [[48, 52, 55, 60, 64], 'C'],
    [[45, 52, 57, 60, 64], 'Am'],
    [[40, 47, 52], 'E5'],
    [[43, 47, 50, 53], 'G7'],
    [[45, 52, 55, 60, 64], 'Am7'],
    [[48, 52, 55, 59, 64], 'Cmaj7'],
    [[50, 57, 62, 67], 'Dsus4'],
    [[50, 57, 62, 64], 'Dsus2'],
    [[48, 52, 55, 57], 'C6'],
    [[48, 52, 55, 62], 'Cadd9'],
    [[47, 50, 53], 'Bdim'],
    [[48, 52, 56], 'Caug'],
  ])('names %j as %s', (pitches, name) => {
    expect(named(pitches)).toBe(name);
  });

  it('writes a bass note that is not the root as a slash chord', () => {
    expect(named([40, 48, 55, 60, 64])).toBe('C/E');
    expect(named([43, 50, 55, 59, 62])).toBe('G');
  });

  it('spells with flats in flat keys', () => {
    expect(named([51, 55, 58], true)).toBe('Eb');
    expect(named([51, 55, 58], false)).toBe('D#');
  });

  it('needs three pitch classes (or a doubled power chord)', () => {
    expect(named([60, 64])).toBeNull();
    expect(named([40, 47])).toBeNull();
  });
});

describe('detectChords', () => {
  const n = (time: number, endTime: number, pitch: number) => ({ time, endTime, pitch });

  it('merges unchanged neighbours and drops slivers shorter than 0.05 s', () => {
    const notes = [
      // C for a second, re-struck at 0.5 s.
      ...[48, 52, 55].map((p) => n(0, 0.5, p)),
      ...[48, 52, 55].map((p) => n(0.5, 1, p)),
      // A 20 ms overlap with an F chord that must not become its own event.
      ...[53, 57, 60].map((p) => n(0.98, 2, p)),
    ];
    const chords = detectChords(notes);
    expect(chords.map((c) => c.chord)).toEqual(['C', 'F']);
    expect(chords[0]?.time).toBe(0);
    expect(chords[0]?.end_time).toBeCloseTo(0.98);
    for (const c of chords) {
      expect(c.event_type).toBe('chord');
      expect(c.end_time - c.time).toBeGreaterThanOrEqual(0.05);
    }
  });

  it('writes nothing for single notes', () => {
    expect(detectChords([n(0, 1, 60), n(1, 2, 62)])).toEqual([]);
  });
});

describe('detectKey', () => {
  const scale = (pitches: number[]) =>
    pitches.map((p, i) => ({ time: i, endTime: i + 1, pitch: p }));

  it('finds a major key from its scale and tonic weight', () => {
    expect(detectKey(scale([63, 65, 67, 68, 70, 72, 74, 75, 63, 70, 63]))).toBe('Eb major');
    expect(detectKey(scale([60, 62, 64, 65, 67, 69, 71, 72, 60, 67, 60]))).toBe('C major');
  });

  it('finds a minor key', () => {
    expect(detectKey(scale([52, 54, 55, 57, 59, 60, 62, 64, 52, 59, 52, 55]))).toBe('E minor');
  });

  it('is empty without notes', () => {
    expect(detectKey([])).toBe('');
  });
});
