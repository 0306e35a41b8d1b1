import { keyName, keySpelling, type Key } from './key.js';
import {
  FLAT_NAMES,
  LETTERS,
  namePitchClass,
  noteName,
  pitchClass,
  SHARP_NAMES,
} from './spelling.js';
import { QUALITIES, type ChordName } from './templates.js';

/**
 * Chord names spelled the way a chart in the clip's key writes them (pure). keySpelling decides
 * sharps or flats for the key as a whole (sharps in F# major, flats in Eb minor); within a chord,
 * letters follow the chord and the scale:
 *
 * - in C major, A minor or with no key (no accidental in the key), a black-key root is written
 *   on the letter that puts more of the chord's tones in the key's scale (A minor's scale with
 *   its raised sixth and seventh, F# and G#): G#dim (G#-B-D), not Abdim; C#m, not Dbm; but Ab
 *   and Bb for the borrowed major chords (Ab-C-Eb has C); a tie keeps the usual chart names
 *   (C#, Eb, F#, Ab, Bb). In a sharp or flat key the root follows the key.
 * - a slash bass that is a chord tone is written on that tone's letter counted from the root
 *   (a third two letters up: E/G#, D7/F#, never E/Ab or D7/Gb); another bass takes the key
 *   scale's name where the scale has it (Am/G# in A minor), or else a letter no chord tone uses
 *   (C/Db rather than C/C#), or else the key's spelling.
 */

/**
 * A key's scale as (semitones above the tonic, letters above the tonic's letter); a minor key
 * with its raised sixth and seventh as well.
 */
const SCALE_DEGREES = {
  major: [
    [0, 0],
    [2, 1],
    [4, 2],
    [5, 3],
    [7, 4],
    [9, 5],
    [11, 6],
  ],
  minor: [
    [0, 0],
    [2, 1],
    [3, 2],
    [5, 3],
    [7, 4],
    [8, 5],
    [10, 6],
    [9, 5],
    [11, 6],
  ],
} as const;

/** Letters a chord tone lies above the root, by its interval in semitones (0..11). */
const LETTER_STEPS = [0, 1, 1, 2, 2, 3, 4, 4, 4, 5, 6, 6] as const;

/** The letter (0 = C ... 6 = B) a written name starts on. */
const letterOf = (name: string) => LETTERS.indexOf(name[0] as (typeof LETTERS)[number]);

/** `pc` written on letter `letter` (any integer, taken mod 7), or null when it needs two accidentals. */
function onLetter(pc: number, letter: number): string | null {
  const name = LETTERS[((letter % 7) + 7) % 7] ?? 'C';
  const shift = pitchClass(pc - (namePitchClass(name) ?? 0) + 6) - 6;
  if (shift === 0) return name;
  if (shift === 1) return `${name}#`;
  if (shift === -1) return `${name}b`;
  return null;
}

/** The names the key's scale writes: C major's naturals, A minor's with F# and G#. No key: C major's. */
function scaleNames(key: Key | null): Set<string> {
  const k = key ?? { tonic: 0, mode: 'major' as const };
  const tonicLetter = letterOf(keyName(k));
  const names = new Set<string>();
  for (const [step, degree] of SCALE_DEGREES[k.mode]) {
    const name = onLetter(k.tonic + step, tonicLetter + degree);
    if (name) names.add(name);
  }
  return names;
}

/** The sharp and the flat name of a pitch class (one name for a white key). */
const namesOf = (pc: number): string[] => [
  ...new Set([SHARP_NAMES[pitchClass(pc)] ?? 'C', FLAT_NAMES[pitchClass(pc)] ?? 'C']),
];

/** Semitones above the root of each tone of the chord's quality. */
function toneIntervals(suffix: string): number[] {
  const quality = QUALITIES.find((q) => q.suffix === suffix);
  return quality ? quality.tones.map((t) => t.interval) : [0];
}

/** The chord's tones written from a root written on `letter`; null where one needs two accidentals. */
function tonesOn(root: number, letter: number, intervals: readonly number[]): (string | null)[] {
  return intervals.map((i) =>
    onLetter(root + i, letter + (LETTER_STEPS[((i % 12) + 12) % 12] ?? 0)),
  );
}

/** The chord's name, spelled for `key` (see the module comment). */
export function spellChord(
  name: Pick<ChordName, 'root' | 'suffix' | 'bass'>,
  key: Key | null,
): string {
  const spelling = keySpelling(key);
  const scale = scaleNames(key);
  const intervals = toneIntervals(name.suffix);
  let root = noteName(name.root, spelling);
  const [sharp, flat] = namesOf(name.root);
  if (spelling === 'common' && sharp !== undefined && flat !== undefined) {
    // The name whose letter puts more chord tones in the key's scale; a tie keeps the default.
    const fit = (n: string) =>
      tonesOn(name.root, letterOf(n), intervals).reduce(
        (sum, tone) => sum + (tone === null ? -1 : scale.has(tone) ? 1 : 0),
        0,
      );
    if (fit(sharp) !== fit(flat)) root = fit(sharp) > fit(flat) ? sharp : flat;
  }
  const text = `${root}${name.suffix}`;
  if (name.bass === name.root) return text;
  const tones = tonesOn(name.root, letterOf(root), intervals);
  const asTone = intervals.findIndex((i) => pitchClass(name.root + i) === pitchClass(name.bass));
  const toneName = asTone >= 0 ? tones[asTone] : null;
  if (toneName) return `${text}/${toneName}`;
  const written = [...scale].find((n) => namePitchClass(n) === pitchClass(name.bass));
  if (written) return `${text}/${written}`;
  // Its sharp or flat name, whichever alone is on a letter no chord tone uses.
  const used = new Set(tones.flatMap((t) => (t === null ? [] : [letterOf(t)])));
  const free = namesOf(name.bass).filter((n) => !used.has(letterOf(n)));
  const [only] = free;
  return `${text}/${free.length === 1 && only !== undefined ? only : noteName(name.bass, spelling)}`;
}
