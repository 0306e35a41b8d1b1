/**
 * The key signature of a lesson's key ("Eb major", "F# minor", as the engine writes its key
 * badge): fifths from -7 (seven flats) to 7 (seven sharps) and the mode. The notation view, the
 * MusicXML and the Guitar Pro export write it, and pitches are spelled to match: flats in flat
 * keys (Ab, not G#, in Eb major), sharps otherwise.
 */
export interface KeySignature {
  fifths: number;
  mode: 'major' | 'minor';
}

const MAJOR_FIFTHS: Record<string, number> = {
  Cb: -7,
  Gb: -6,
  Db: -5,
  Ab: -4,
  Eb: -3,
  Bb: -2,
  F: -1,
  C: 0,
  G: 1,
  D: 2,
  A: 3,
  E: 4,
  B: 5,
  'F#': 6,
  'C#': 7,
};

const MINOR_FIFTHS: Record<string, number> = {
  Ab: -7,
  Eb: -6,
  Bb: -5,
  F: -4,
  C: -3,
  G: -2,
  D: -1,
  A: 0,
  E: 1,
  B: 2,
  'F#': 3,
  'C#': 4,
  'G#': 5,
  'D#': 6,
  'A#': 7,
};

const PITCH_CLASS: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };
/** Fifths of the usual major key on each pitch class (Db, not C#; F#, not Gb). */
const FIFTHS_OF_MAJOR_PC = [0, -5, 2, -3, 4, -1, 6, 1, -4, 3, -2, 5];

/** The key signature of `key` ("Eb major", "F♯ minor", "Am"); null when it names no key. */
export function keySignatureOf(key: string | null | undefined): KeySignature | null {
  const m = /^([A-Ga-g])([#b♯♭]?)\s*(major|minor|maj|min|m)?$/i.exec((key ?? '').trim());
  if (!m) return null;
  const letter = (m[1] ?? 'C').toUpperCase();
  const accidental = m[2] === '♯' || m[2] === '#' ? '#' : m[2] === '♭' || m[2] === 'b' ? 'b' : '';
  const word = (m[3] ?? 'major').toLowerCase();
  const mode = word === 'minor' || word === 'min' || m[3] === 'm' ? 'minor' : 'major';
  const name = `${letter}${accidental}`;
  const table = mode === 'major' ? MAJOR_FIFTHS : MINOR_FIFTHS;
  const named = table[name];
  if (named !== undefined) return { fifths: named, mode };
  // An unusual spelling (D# major): the usual key on the same pitch class.
  const pc =
    ((PITCH_CLASS[letter] ?? 0) + (accidental === '#' ? 1 : accidental === 'b' ? 11 : 0)) % 12;
  const majorPc = mode === 'major' ? pc : (pc + 3) % 12;
  return { fifths: FIFTHS_OF_MAJOR_PC[majorPc] ?? 0, mode };
}
