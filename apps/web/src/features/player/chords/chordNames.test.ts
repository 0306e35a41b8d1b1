import { describe, expect, it } from 'vitest';
import { displayChordName, transposeChordName } from './chordNames';

describe('capo chord naming', () => {
  it('shifts sounding names down by the capo for capoed display', () => {
    expect(displayChordName('A', 'capoed', 2)).toBe('G');
    expect(displayChordName('Bm7', 'capoed', 2)).toBe('Am7');
    expect(displayChordName('F#m', 'capoed', 2)).toBe('Em');
    expect(displayChordName('Eb', 'capoed', 3)).toBe('C');
    expect(displayChordName('D/F#', 'capoed', 2)).toBe('C/E');
    expect(displayChordName('A', 'original', 2)).toBe('A');
    expect(displayChordName('A', 'capoed', 0)).toBe('A');
  });

  it('keeps the name’s sharp or flat spelling and uses common names otherwise', () => {
    expect(transposeChordName('Bb', -1)).toBe('A');
    expect(transposeChordName('Bb', 1)).toBe('B');
    expect(transposeChordName('C#m', 1)).toBe('Dm');
    expect(transposeChordName('C#m', 2)).toBe('D#m');
    expect(transposeChordName('Dbmaj7', 2)).toBe('Ebmaj7');
    expect(transposeChordName('C', 3)).toBe('Eb');
    expect(transposeChordName('C', 6)).toBe('F#');
    expect(transposeChordName('G', -2)).toBe('F');
  });

  it('leaves what it cannot read alone', () => {
    expect(transposeChordName('N.C.', 3)).toBe('N.C.');
    expect(transposeChordName('?', 3)).toBe('?');
    expect(transposeChordName('Asus4', 12)).toBe('Asus4');
    expect(transposeChordName('E5', -2)).toBe('D5');
  });
});
