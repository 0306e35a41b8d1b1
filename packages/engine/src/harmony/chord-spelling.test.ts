import { describe, expect, it } from 'vitest';
import { spellChord } from './chord-spelling.js';
import { parseKeyName } from './key.js';

/** A chord by root and bass pitch class (0 = C) and suffix, spelled in `key` ("" for none). */
const spell = (root: number, suffix: string, bass: number, key: string) =>
  spellChord({ root, suffix, bass }, key === '' ? null : parseKeyName(key));

describe('spellChord', () => {
  it('writes a black-key root on the letter that keeps the chord in the scale (C major, A minor, no key)', () => {
    for (const key of ['', 'C major', 'A minor']) {
      expect(spell(8, 'dim', 8, key), key).toBe('G#dim');
      expect(spell(8, 'm', 8, key), key).toBe('G#m');
      expect(spell(8, '', 8, key), key).toBe('Ab');
      expect(spell(10, '', 10, key), key).toBe('Bb');
      expect(spell(3, '', 3, key), key).toBe('Eb');
      expect(spell(1, 'm', 1, key), key).toBe('C#m');
      expect(spell(6, 'm', 6, key), key).toBe('F#m');
    }
  });

  it('keeps the key spelling of roots in sharp and flat keys', () => {
    expect(spell(3, 'm', 3, 'F# major')).toBe('D#m');
    expect(spell(1, '7', 1, 'F# major')).toBe('C#7');
    expect(spell(8, 'dim', 8, 'Eb minor')).toBe('Abdim');
    expect(spell(6, '', 6, 'Eb minor')).toBe('Gb');
  });

  it('writes a bass that is a chord tone on its letter from the root', () => {
    expect(spell(4, '', 8, 'C major')).toBe('E/G#');
    expect(spell(2, '7', 6, 'F major')).toBe('D7/F#');
    expect(spell(3, '', 7, 'Bb major')).toBe('Eb/G');
    expect(spell(10, '', 2, 'F major')).toBe('Bb/D');
    expect(spell(1, 'm', 4, 'E major')).toBe('C#m/E');
  });

  it('writes another bass as the scale does, or on a letter the chord leaves free', () => {
    // The A minor walk-down: Am, Am/G#, Am/G.
    expect(spell(9, 'm', 8, 'A minor')).toBe('Am/G#');
    expect(spell(9, 'm', 7, 'A minor')).toBe('Am/G');
    // C over a C#/Db: C's own letters are C, E and G, so Db.
    expect(spell(0, '', 1, 'C major')).toBe('C/Db');
    // D over a bass not in D major's scale and not in the chord: on its own letter.
    expect(spell(2, '', 0, 'D major')).toBe('D/C');
    // A white-key bass stays natural though the chord uses its letter (Eb in Cm): no Fb.
    expect(spell(0, 'm', 4, 'C minor')).toBe('Cm/E');
  });
});
