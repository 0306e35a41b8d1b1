import { keyName, keySpelling, type Key } from './key.js';
import { noteName, pitchClass } from './spelling.js';
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
 *   (C/Db rather than C/C#; the fewest accidentals), or else the key's spelling.
 */

const LETTERS = ['C', 'D', 'E', 'F', 'G', 'A', 'B'] as const;
const LETTER_PC = [0, 2, 4, 5, 7, 9, 11] as const;
const MAJOR_STEPS = [0, 2, 4, 5, 7, 9, 11];
const MINOR_STEPS = [0, 2, 3, 5, 7, 8, 10];

/** Letters a chord tone lies above the root, by its interval in semitones (0..11). */
const LETTER_STEPS = [0, 1, 1, 2, 2, 3, 4, 4, 4, 5, 6, 6] as const;

/** `pc` written on letter `letter` (0 = C ... 6 = B), or null when it needs two accidentals. */
function onLetter(pc: number, letter: number): string | null {
  const name = LETTERS[((letter % 7) + 7) % 7] ?? 'C';
  const natural = LETTER_PC[((letter % 7) + 7) % 7] ?? 0;
  const shift = ((((pitchClass(pc) - natural) % 12) + 18) % 12) - 6;
  if (shift === 0) return name;
  if (shift === 1) return `${name}#`;
  if (shift === -1) return `${name}b`;
  return null;
}

/** The letter (0..6) a written name starts on. */
const letterOf = (name: string) => LETTERS.indexOf(name[0] as (typeof LETTERS)[number]);

/**
 * The names the key's scale writes (with a minor key's raised sixth and seventh): C major's
 * naturals, A minor's naturals with F# and G#. With no key, C major's.
 */
function scaleNames(key: Key | null): Set<string> {
  const k = key ?? { tonic: 0, mode: 'major' as const };
  const tonicName = keyName(k).split(' ')[0] ?? 'C';
  const tonicLetter = letterOf(tonicName);
  const steps = k.mode === 'major' ? MAJOR_STEPS : MINOR_STEPS;
  const names = new Set<string>();
  steps.forEach((step, degree) => {
    const name = onLetter(k.tonic + step, tonicLetter + degree);
    if (name) names.add(name);
  });
  if (k.mode === 'minor') {
    for (const [step, degree] of [
      [9, 5],
      [11, 6],
    ] as const) {
      const name = onLetter(k.tonic + step, tonicLetter + degree);
      if (name) names.add(name);
    }
  }
  return names;
}

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
  if (spelling === 'common' && root.length > 1) {
    // The root on the letter below (a sharp) or above (a flat), whichever fits the scale better.
    const fit = (letter: number) =>
      tonesOn(name.root, letter, intervals).reduce(
        (sum, tone) => sum + (tone === null ? -1 : scale.has(tone) ? 1 : 0),
        0,
      );
    const sharp = onLetter(name.root, letterOf(root) - (root.endsWith('b') ? 1 : 0));
    const flat = onLetter(name.root, letterOf(root) + (root.endsWith('#') ? 1 : 0));
    if (sharp && flat) {
      const [s, f] = [fit(letterOf(sharp)), fit(letterOf(flat))];
      if (s !== f) root = s > f ? sharp : flat;
    }
  }
  const text = `${root}${name.suffix}`;
  if (name.bass === name.root) return text;
  const rootLetter = letterOf(root);
  const tones = tonesOn(name.root, rootLetter, intervals);
  const asTone = intervals.findIndex((i) => pitchClass(name.root + i) === pitchClass(name.bass));
  const toneName = asTone >= 0 ? tones[asTone] : null;
  if (toneName) return `${text}/${toneName}`;
  const written = [...scale].find((n) => pcOfName(n) === pitchClass(name.bass));
  if (written) return `${text}/${written}`;
  // On a letter no chord tone uses, with the fewest accidentals.
  const used = new Set(tones.filter((t): t is string => t !== null).map(letterOf));
  const free = [-1, 0, 1]
    .map((d) => onLetter(name.bass, letterOf(noteName(name.bass, 'common')) + d))
    .filter((n): n is string => n !== null && !used.has(letterOf(n)))
    .sort((a, b) => a.length - b.length);
  const [best, next] = free;
  const bass =
    best !== undefined && (next === undefined || next.length > best.length)
      ? best
      : noteName(name.bass, spelling);
  return `${text}/${bass}`;
}

/** The pitch class of a written name (a letter and at most one accidental). */
function pcOfName(name: string): number {
  const shift = name.endsWith('#') ? 1 : name.endsWith('b') ? -1 : 0;
  return pitchClass((LETTER_PC[letterOf(name)] ?? 0) + shift);
}
