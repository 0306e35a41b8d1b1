import { DEFAULT_TUNING } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { normalizeChord, normalizeNote, notePitch, readNotes, settingsFromResults } from './lesson';

describe('settingsFromResults', () => {
  it('reads capo, tuning, name and key from the results file', () => {
    const s = settingsFromResults({
      capo: 3,
      tuning: [38, 45, 50, 55, 59, 64],
      tuning_name: 'Drop D',
      musical_key: 'D major',
      duration: 12.5,
    });
    expect(s).toEqual({
      capo: 3,
      tuning: [38, 45, 50, 55, 59, 64],
      tuningName: 'Drop D',
      musicalKey: 'D major',
      duration: 12.5,
      audioFiles: null,
    });
  });

  it('falls back to config, music.key, metadata.key and defaults', () => {
    expect(settingsFromResults({ config: { capo: 2, tuning: [40, 45, 50, 55, 59, 64] } })).toEqual({
      capo: 2,
      tuning: DEFAULT_TUNING,
      tuningName: 'Standard',
      musicalKey: '',
      duration: null,
      audioFiles: null,
    });
    expect(settingsFromResults({ audio_files: ['guitar.wav', 3] }).audioFiles).toEqual([
      'guitar.wav',
    ]);
    expect(settingsFromResults({ music: { key: 'E minor' } }).musicalKey).toBe('E minor');
    expect(settingsFromResults({ metadata: { key: 'G major', duration: 9 } })).toMatchObject({
      musicalKey: 'G major',
      duration: 9,
    });
    expect(settingsFromResults(null).tuning).toEqual(DEFAULT_TUNING);
  });

  it('clamps the capo to 0..12 and ignores a broken tuning', () => {
    expect(settingsFromResults({ capo: 40, tuning: [1, 2] }).capo).toBe(12);
    expect(settingsFromResults({ capo: -1, tuning: [1, 2] }).tuning).toEqual(DEFAULT_TUNING);
  });
});

describe('normalizeNote', () => {
  it('keeps the AI’s confidence in 0..1 and drops anything else', () => {
    const at = (confidence: unknown) =>
      normalizeNote({ time: 1, end_time: 1.5, string: 2, fret: 7, confidence });
    expect(at(0.25)?.confidence).toBe(0.25);
    expect(at('0.5')?.confidence).toBe(0.5);
    for (const bad of [undefined, 1.5, -0.1, 'sure', null])
      expect(at(bad)).not.toHaveProperty('confidence');
  });

  it('turns flags given as text or numbers into booleans', () => {
    const n = normalizeNote({
      time: 1,
      end_time: 1.5,
      string: 2,
      fret: 7,
      mute: 'yes',
      leading_slide: '1',
      trailing_hammer_on: 2,
      trailing_pull_off: 'false',
      vibrato: 'big',
      bend_to_fret: 9,
    });
    expect(n).toMatchObject({
      mute: true,
      leading_slide: true,
      trailing_hammer_on: true,
      trailing_pull_off: false,
      vibrato: 'big',
      bend_to_fret: 9,
      release_to_fret: null,
      pitch_arr: [1, 1],
    });
  });

  it('gives a note without an end 0.3 s and clamps pitch points', () => {
    const n = normalizeNote({ time: 2, string: 1, fret: 0, pitch_arr: [1, 14, -20] });
    expect(n?.end_time).toBeCloseTo(2.3);
    expect(n?.pitch_arr).toEqual([1, 10, -8]);
  });

  it('drops notes that cannot be placed', () => {
    expect(normalizeNote({ time: 1, string: 7, fret: 1 })).toBeNull();
    expect(normalizeNote({ time: 1, string: 1, fret: 25 })).toBeNull();
    expect(normalizeNote({ string: 1, fret: 2 })).toBeNull();
    expect(normalizeNote('x')).toBeNull();
  });

  it('reads and sorts a list, skipping junk', () => {
    const notes = readNotes([
      { time: 2, end_time: 3, string: 1, fret: 1 },
      null,
      { time: 1, end_time: 2, string: 1, fret: 1 },
    ]);
    expect(notes.map((n) => n.time)).toEqual([1, 2]);
  });
});

describe('chords and pitches', () => {
  it('needs a chord name and gives a missing end 0.6 s', () => {
    expect(normalizeChord({ time: 1, chord: '  ' })).toBeNull();
    expect(normalizeChord({ time: 1, chord: 'Am' })?.end_time).toBeCloseTo(1.6);
  });

  it('computes pitch = open string + capo + fret', () => {
    expect(notePitch({ string: 6, fret: 0 }, DEFAULT_TUNING, 0)).toBe(40);
    expect(notePitch({ string: 1, fret: 3 }, DEFAULT_TUNING, 2)).toBe(69);
    // A string that does not exist is an error, not MIDI 0.
    expect(() => notePitch({ string: 7, fret: 0 }, DEFAULT_TUNING, 0)).toThrow(RangeError);
  });
});
