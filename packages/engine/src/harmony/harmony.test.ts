import { describe, expect, it } from 'vitest';
import { detectChords } from './chords.js';
import { detectKey, estimateKey, keyName, keySpelling, parseKeyName, type Key } from './key.js';
import { segmentChords } from './segmentation.js';
import { spellChord } from './chord-spelling.js';
import { nameChord } from './templates.js';

/** The chord of `pitches` as detectChords writes it in `key` (a key name, or none). */
const named = (pitches: number[], key: string | Key | null = null) => {
  const name = nameChord(pitches);
  return name ? spellChord(name, typeof key === 'string' ? parseKeyName(key) : key) : null;
};

const n = (time: number, endTime: number, pitch: number) => ({ time, endTime, pitch });

/** A strum of `pitches` from `time` for `length` seconds (8 ms between strings). */
const strum = (time: number, length: number, pitches: number[]) =>
  pitches.map((p, i) => n(time + i * 0.008, time + length, p));

const chords = (notes: { time: number; endTime: number; pitch: number }[], key?: string) =>
  detectChords(notes, key === undefined ? {} : { key }).map((c) => c.chord);

describe('nameChord: every quality', () => {
  it.each([
    [[48, 52, 55, 60, 64], 'C'],
    [[45, 52, 57, 60, 64], 'Am'],
    [[40, 47, 52], 'E5'],
    [[40, 47], 'E5'],
    [[48, 52, 55, 57], 'C6'],
    [[43, 47, 50, 53], 'G7'],
    [[48, 52, 55, 59, 64], 'Cmaj7'],
    [[45, 52, 55, 60, 64], 'Am7'],
    [[50, 57, 62, 64], 'Dsus2'],
    [[50, 57, 62, 67], 'Dsus4'],
    [[47, 50, 53], 'Bdim'],
    [[48, 52, 56], 'Caug'],
    [[48, 52, 55, 62], 'Cadd9'],
  ])('names %j as %s', (pitches, name) => {
    expect(named(pitches)).toBe(name);
  });

  it('writes a bass note that is not the root as a slash chord (inversions)', () => {
    expect(named([40, 48, 55, 60, 64])).toBe('C/E');
    expect(named([43, 48, 52, 60])).toBe('C/G');
    expect(named([47, 55, 62, 67])).toBe('G/B');
    expect(named([42, 50, 57, 62])).toBe('D/F#');
    expect(named([43, 50, 55, 59, 62])).toBe('G');
  });

  it('lets the bass decide between names of one pitch-class set', () => {
    // A C E G: Am7 over A, C6 over C.
    expect(named([45, 52, 55, 60])).toBe('Am7');
    expect(named([48, 52, 55, 57])).toBe('C6');
  });

  it('forgives a missing fifth but not a missing third', () => {
    expect(named([48, 52, 58, 60])).toBe('C7');
    expect(named([45, 55, 60])).toBe('Am7');
  });

  it('spells with flats in flat keys and sharps in sharp keys', () => {
    expect(named([51, 55, 58], 'Bb major')).toBe('Eb');
    expect(named([51, 55, 58], 'E major')).toBe('D#');
    expect(named([51, 55, 58])).toBe('Eb');
    expect(named([54, 58, 61])).toBe('F#');
    expect(named([54, 58, 61], 'Db major')).toBe('Gb');
  });

  it('needs three pitch classes, or a power chord with its root in the bass', () => {
    expect(named([60, 64])).toBeNull();
    expect(named([60, 72])).toBeNull();
    expect(named([47, 52])).toBeNull();
    expect(named([])).toBeNull();
  });
});

describe('detectChords', () => {
  it('names a progression and merges re-strikes of one chord', () => {
    const notes = [
      ...strum(0, 0.5, [48, 52, 55, 60, 64]),
      ...strum(0.5, 0.5, [48, 52, 55, 60, 64]),
      ...strum(1, 1, [45, 52, 57, 60, 64]),
      ...strum(2, 1, [41, 48, 53, 57, 60, 65]),
      ...strum(3, 1, [43, 47, 50, 55, 59, 67]),
    ];
    const out = detectChords(notes);
    expect(out.map((c) => c.chord)).toEqual(['C', 'Am', 'F', 'G']);
    expect(out[0]?.time).toBe(0);
    expect(out[0]?.end_time).toBeCloseTo(1);
    expect(out[1]?.time).toBeCloseTo(1);
    expect(out.at(-1)?.end_time).toBeCloseTo(4);
    for (const c of out) expect(c.event_type).toBe('chord');
  });

  it('names an arpeggio from the notes it spells, bass ringing', () => {
    // Am arpeggio then C/G arpeggio: one note at a time over a ringing bass.
    const arpeggio = (t: number, bass: number, upper: number[]) => [
      n(t, t + 2, bass),
      ...upper.map((p, i) => n(t + 0.25 * (i + 1), t + 2, p)),
    ];
    const out = detectChords([
      ...arpeggio(0, 45, [52, 57, 60, 64]),
      ...arpeggio(2, 43, [48, 52, 55, 60]),
    ]);
    expect(out.map((c) => c.chord)).toEqual(['Am', 'C/G']);
    expect(out[1]?.time).toBeCloseTo(2);
  });

  it('keeps a chord through a passing tone in the melody', () => {
    const notes = [...strum(0, 2, [48, 52, 55, 60]), n(1, 1.2, 62), n(1.2, 1.4, 64)];
    expect(chords(notes)).toEqual(['C']);
  });

  it('writes a new bass under a held chord as a slash chord', () => {
    const notes = [...strum(0, 1, [43, 47, 50, 55, 59]), ...strum(1, 1, [47, 50, 55, 59, 62])];
    expect(chords(notes)).toEqual(['G', 'G/B']);
  });

  it("does not take the last chord's bass, stopping as the next strum starts, for its bass", () => {
    // Am with A2 in the bass; the Dm strum (D3 lowest) damps it 30 ms in: Dm, not a chord on A.
    const notes = [
      ...strum(0, 1.03, [45, 52, 57, 60, 64]),
      ...strum(1, 1, [50, 57, 62, 65]),
      // The F chord's tail stops 30 ms into an arpeggiated G that starts on its G3.
      ...strum(2, 1.03, [53, 57, 60, 65]),
      n(3, 4, 55),
      n(3.15, 4, 59),
      n(3.3, 4, 62),
      n(3.45, 4, 67),
    ];
    expect(chords(notes)).toEqual(['Am', 'Dm', 'F', 'G']);
  });

  it('keeps the bass of a chord whose up-strum misses the bass string', () => {
    // Down C (C3 lowest), up without the C3, which stops 10 ms into the up-strum; and an oom-pah
    // bass G2 whose strum above it starts on D3: C and G, not C/E and G/D.
    const notes = [
      ...strum(0, 0.51, [48, 52, 55, 60, 64]),
      ...strum(0.5, 1, [64, 60, 55, 52]),
      n(2.5, 3.01, 43),
      ...strum(3, 1, [50, 55, 59, 67]),
    ];
    expect(chords(notes)).toEqual(['C', 'G']);
  });

  it('spells the leading tone the way the key writes it', () => {
    // A minor: Am, its V with the G# in the bass, the diminished chord on the G#: sharps, not
    // the Ab a C major chart uses for that black key on its own.
    const notes = [
      ...strum(0, 1, [45, 52, 57, 60, 64]),
      ...strum(1, 1, [44, 52, 56, 59, 64]),
      ...strum(2, 1, [44, 50, 56, 59, 62]),
      ...strum(3, 1, [45, 52, 57, 60, 64]),
    ];
    expect(chords(notes, 'A minor')).toEqual(['Am', 'E/G#', 'G#dim', 'Am']);
    expect(chords(notes, 'C major')).toEqual(['Am', 'E/G#', 'G#dim', 'Am']);
  });

  it('names power chords in a riff', () => {
    const notes = [
      ...strum(0, 0.4, [40, 47, 52]),
      ...strum(0.5, 0.4, [43, 50, 55]),
      ...strum(1, 0.4, [45, 52]),
    ];
    expect(chords(notes)).toEqual(['E5', 'G5', 'A5']);
  });

  it('still names a rich voicing outside the vocabulary by its nearest chord', () => {
    // Eb Bb D F (Ebmaj9 without its third), strummed twice.
    const out = chords([...strum(0, 0.6, [51, 58, 62, 65]), ...strum(0.6, 0.6, [51, 58, 62, 65])]);
    expect(out).toHaveLength(1);
    expect(out[0]?.startsWith('Eb')).toBe(true);
  });

  it('writes no chord for single-note lines, however many pitch classes they cover', () => {
    const line = [60, 62, 64, 65, 67, 69, 71, 72].map((p, i) => n(i * 0.25, i * 0.25 + 0.24, p));
    expect(detectChords(line)).toEqual([]);
    expect(detectChords([n(0, 1, 60), n(1, 2, 64)])).toEqual([]);
  });

  it('drops chord events shorter than 0.05 s', () => {
    const out = detectChords(strum(0, 0.04, [48, 52, 55]));
    expect(out).toEqual([]);
    for (const c of detectChords([...strum(0, 1, [48, 52, 55]), ...strum(1, 0.5, [53, 57, 60])])) {
      expect(c.end_time - c.time).toBeGreaterThanOrEqual(0.05);
    }
  });

  it('ends a chord when the sound stops', () => {
    const out = detectChords([...strum(0, 0.5, [48, 52, 55]), ...strum(2, 0.5, [48, 52, 55])]);
    expect(out.map((c) => [c.chord, c.time, Number(c.end_time.toFixed(3))])).toEqual([
      ['C', 0, 0.5],
      ['C', 2, 2.5],
    ]);
  });

  it('spells by the key: given, or found from the notes', () => {
    const eb = [
      ...strum(0, 1, [51, 55, 58]),
      ...strum(1, 1, [56, 60, 63]),
      ...strum(2, 1, [51, 55, 58]),
    ];
    expect(chords(eb)).toEqual(['Eb', 'Ab', 'Eb']);
    expect(chords(eb, 'B major')).toEqual(['D#', 'G#', 'D#']);
    const e = [
      ...strum(0, 1, [52, 56, 59]),
      ...strum(1, 1, [54, 58, 61]),
      ...strum(2, 1, [52, 56, 59]),
    ];
    expect(chords(e)).toEqual(['E', 'F#', 'E']);
  });

  it('ignores notes without length or with non-finite values', () => {
    expect(detectChords([n(0, 0, 60), n(0, Number.NaN, 64), n(Infinity, 1, 67)])).toEqual([]);
    expect(detectChords([])).toEqual([]);
  });

  it('returns numeric spans for the key finder', () => {
    const spans = segmentChords(strum(0, 1, [45, 52, 57, 60, 64]));
    expect(spans).toEqual([{ time: 0, endTime: 1, root: 9, suffix: 'm', bass: 9 }]);
  });
});

describe('detectKey', () => {
  const line = (pitches: number[]) => pitches.map((p, i) => n(i, i + 1, p));

  it('finds a major key from its scale and tonic weight', () => {
    expect(detectKey(line([63, 65, 67, 68, 70, 72, 74, 75, 63, 70, 63]))).toBe('Eb major');
    expect(detectKey(line([60, 62, 64, 65, 67, 69, 71, 72, 60, 67, 60]))).toBe('C major');
  });

  it('finds a minor key', () => {
    expect(detectKey(line([52, 54, 55, 57, 59, 60, 62, 64, 52, 59, 52, 55]))).toBe('E minor');
  });

  it('tells relative keys apart by the chord the music rests on', () => {
    // The same seven pitch classes; the progression rests on Am (i-iv-v-i) or on C (I-IV-V-I).
    const am = [
      ...strum(0, 2, [45, 52, 57, 60, 64]),
      ...strum(2, 1, [50, 57, 62, 65]),
      ...strum(3, 1, [40, 47, 52, 55, 59]),
      ...strum(4, 2, [45, 52, 57, 60, 64]),
    ];
    const c = [
      ...strum(0, 2, [48, 52, 55, 60, 64]),
      ...strum(2, 1, [41, 48, 53, 57, 60]),
      ...strum(3, 1, [43, 47, 50, 55, 59]),
      ...strum(4, 2, [48, 52, 55, 60, 64]),
    ];
    expect(detectKey(am)).toBe('A minor');
    expect(detectKey(c)).toBe('C major');
  });

  it('writes keys the usual way and reads them back', () => {
    expect(keyName({ tonic: 3, mode: 'major' })).toBe('Eb major');
    expect(keyName({ tonic: 6, mode: 'minor' })).toBe('F# minor');
    expect(keyName({ tonic: 8, mode: 'minor' })).toBe('G# minor');
    expect(parseKeyName('Eb major')).toEqual({ tonic: 3, mode: 'major' });
    expect(parseKeyName('C# minor')).toEqual({ tonic: 1, mode: 'minor' });
    expect(parseKeyName('H major')).toBeNull();
    expect(keySpelling({ tonic: 3, mode: 'major' })).toBe('flats');
    expect(keySpelling({ tonic: 4, mode: 'minor' })).toBe('sharps');
    expect(keySpelling({ tonic: 9, mode: 'minor' })).toBe('common');
    expect(keySpelling(null)).toBe('common');
  });

  it('spells chords as the key badge is written: sharps in F# major, flats in Eb minor', () => {
    const fSharp = { tonic: 6, mode: 'major' } as const;
    expect(keyName(fSharp)).toBe('F# major');
    expect(keySpelling(fSharp)).toBe('sharps');
    // F# major's I, V7 and vi: F#, C#7, D#m (not Gb, Db7, Ebm).
    expect(named([54, 58, 61], fSharp)).toBe('F#');
    expect(named([49, 53, 56, 59], fSharp)).toBe('C#7');
    expect(named([51, 54, 58], fSharp)).toBe('D#m');
    const ebMinor = { tonic: 3, mode: 'minor' } as const;
    expect(keyName(ebMinor)).toBe('Eb minor');
    expect(keySpelling(ebMinor)).toBe('flats');
    // Every key: a sharp in the badge means no flat in the chords, and the other way round.
    for (let tonic = 0; tonic < 12; tonic += 1) {
      for (const mode of ['major', 'minor'] as const) {
        const badge = keyName({ tonic, mode }).split(' ')[0] ?? '';
        const spelling = keySpelling({ tonic, mode });
        if (badge.endsWith('#')) expect(spelling, badge).toBe('sharps');
        if (badge.endsWith('b')) expect(spelling, badge).toBe('flats');
      }
    }
  });

  it('is empty without notes', () => {
    expect(detectKey([])).toBe('');
    expect(estimateKey([])).toBeNull();
  });
});
