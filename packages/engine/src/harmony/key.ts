import { segmentChords, type ChordSpan, type SoundingNote } from './segmentation.js';
import { namePitchClass, pitchClass, type Spelling } from './spelling.js';

export type { SoundingNote };

/** A key: tonic pitch class 0..11 and mode. */
export interface Key {
  tonic: number;
  mode: 'major' | 'minor';
}

/** Key profiles (index 0 = tonic): how strongly each scale degree implies the key. */
export const KEY_PROFILES = {
  /** Krumhansl and Kessler (1982), probe-tone ratings. */
  krumhansl: {
    major: [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88],
    minor: [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17],
  },
  /** Temperley (1999), revised profiles. */
  temperley: {
    major: [5.0, 2.0, 3.5, 2.0, 4.5, 4.0, 2.0, 4.5, 2.0, 3.5, 1.5, 4.0],
    minor: [5.0, 2.0, 3.5, 4.5, 2.0, 4.0, 2.0, 4.5, 3.5, 2.0, 1.5, 4.0],
  },
  /** Albrecht and Shanahan (2013), from a corpus of common-practice music. */
  albrecht: {
    major: [0.238, 0.006, 0.111, 0.006, 0.137, 0.094, 0.016, 0.214, 0.009, 0.08, 0.008, 0.081],
    minor: [0.22, 0.006, 0.104, 0.123, 0.019, 0.103, 0.012, 0.214, 0.062, 0.022, 0.061, 0.052],
  },
} as const;
export type KeyProfileName = keyof typeof KEY_PROFILES;

/**
 * Weight of harmonic evidence next to the profile correlation (which lies in -1..1): relative
 * keys (C major, A minor) share one scale, so the pitch histogram alone hardly tells them apart;
 * which chord the music rests on does. Music theory, not fitted: the tonic chord is the one a
 * piece dwells on, starts from and returns to.
 */
export const KEY_WEIGHTS = {
  /** Times the share of chord time spent on the key's tonic chord. */
  tonicChord: 0.3,
  /** When the first chord, and when the last chord, is the tonic chord. */
  firstChord: 0.1,
  lastChord: 0.1,
} as const;

export interface KeyOptions {
  /** Key profile; default Krumhansl-Kessler. */
  profile?: KeyProfileName;
  /** The clip's chord spans, if already found (else they are found from the notes). */
  chords?: readonly ChordSpan[];
}

const MAJOR_NAMES = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];
const MINOR_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'G#', 'A', 'Bb', 'B'];

function correlation(a: readonly number[], b: readonly number[]): number {
  const mean = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = mean(a);
  const mb = mean(b);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = (a[i] ?? 0) - ma;
    const y = (b[i] ?? 0) - mb;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
}

/** Duration-weighted pitch-class histogram (seconds of sound per pitch class). */
export function pitchClassHistogram(notes: readonly SoundingNote[]): number[] {
  const hist = new Array<number>(12).fill(0);
  for (const n of notes) {
    if (!Number.isFinite(n.pitch)) continue;
    const pc = pitchClass(n.pitch);
    const seconds = Math.max(0, n.endTime - n.time);
    if (Number.isFinite(seconds)) hist[pc] = (hist[pc] ?? 0) + seconds;
  }
  return hist;
}

/** Correlation of a histogram with every key's profile, best first. */
export function rankKeys(
  hist: readonly number[],
  profile: KeyProfileName = 'krumhansl',
): { key: Key; score: number }[] {
  const out: { key: Key; score: number }[] = [];
  for (let tonic = 0; tonic < 12; tonic += 1) {
    const rotated = hist.map((_, i) => hist[(i + tonic) % 12] ?? 0);
    out.push({
      key: { tonic, mode: 'major' },
      score: correlation(rotated, KEY_PROFILES[profile].major),
    });
    out.push({
      key: { tonic, mode: 'minor' },
      score: correlation(rotated, KEY_PROFILES[profile].minor),
    });
  }
  return out.sort((a, b) => b.score - a.score || a.key.tonic - b.key.tonic);
}

/** Whether a chord is the tonic chord of a key: same root, and a third that fits the mode. */
function isTonicChord(chord: ChordSpan, key: Key): number {
  if (chord.root !== key.tonic) return 0;
  const minor = chord.suffix === 'm' || chord.suffix === 'm7';
  const neutral = chord.suffix === '5' || chord.suffix === 'sus2' || chord.suffix === 'sus4';
  if (neutral) return 0.5;
  if (chord.suffix === 'dim' || chord.suffix === 'aug') return 0;
  return minor === (key.mode === 'minor') ? 1 : 0;
}

/**
 * The most likely key: the Krumhansl-Schmuckler correlation of the clip's duration-weighted
 * pitch-class histogram with each rotated major and minor profile, plus the harmonic evidence
 * of KEY_WEIGHTS where the clip has chords. Null when there is nothing to judge.
 */
export function estimateKey(notes: readonly SoundingNote[], options: KeyOptions = {}): Key | null {
  const hist = pitchClassHistogram(notes);
  if (hist.every((h) => h === 0)) return null;
  const ranked = rankKeys(hist, options.profile);
  const chords = options.chords ?? segmentChords(notes);
  const chordTime = chords.reduce((a, c) => a + (c.endTime - c.time), 0);
  if (chords.length === 0 || chordTime <= 0) return ranked[0]?.key ?? null;
  const first = chords[0];
  const last = chords.at(-1);
  let best: { key: Key; score: number } | null = null;
  for (const { key, score } of ranked) {
    let tonic = 0;
    for (const c of chords) tonic += (c.endTime - c.time) * isTonicChord(c, key);
    const total =
      score +
      KEY_WEIGHTS.tonicChord * (tonic / chordTime) +
      (first ? KEY_WEIGHTS.firstChord * isTonicChord(first, key) : 0) +
      (last ? KEY_WEIGHTS.lastChord * isTonicChord(last, key) : 0);
    if (!best || total > best.score + 1e-12) best = { key, score: total };
  }
  return best?.key ?? null;
}

/** "Eb major", "F# minor": the conventional spelling of the tonic for its mode. */
export function keyName(key: Key): string {
  const names = key.mode === 'major' ? MAJOR_NAMES : MINOR_NAMES;
  return `${names[key.tonic] ?? 'C'} ${key.mode}`;
}

/** Parses "Eb major" / "F# minor" (as keyName writes them); null otherwise. */
export function parseKeyName(text: string): Key | null {
  const m = /^([A-G][#b]?)\s+(major|minor)$/.exec(text.trim());
  const tonic = m?.[1] === undefined ? null : namePitchClass(m[1]);
  if (tonic === null) return null;
  return { tonic, mode: m?.[2] === 'minor' ? 'minor' : 'major' };
}

/** The musical key of a clip as text ("E minor"), or '' when there are no notes. */
export function detectKey(notes: readonly SoundingNote[], options: KeyOptions = {}): string {
  const key = estimateKey(notes, options);
  return key ? keyName(key) : '';
}

/**
 * How a key writes black keys: flats for F, Bb, Eb, Ab, Db and Gb major and their relative
 * minors; sharps for G, D, A, E, B and F# major and theirs; the common chart spelling for C major,
 * A minor or no key.
 */
export function keySpelling(key: Key | null): Spelling {
  if (!key) return 'common';
  // As the key's own name is written (the badge): F# major is a sharp key, Eb minor a flat one,
  // so the chords never contradict the key shown beside them (no Gb in F# major).
  const tonic = keyName(key).split(' ')[0] ?? '';
  if (tonic.endsWith('#')) return 'sharps';
  if (tonic.endsWith('b')) return 'flats';
  const major = key.mode === 'major' ? key.tonic : (key.tonic + 3) % 12;
  if ([5, 10, 3, 8, 1, 6].includes(major)) return 'flats';
  if ([7, 2, 9, 4, 11].includes(major)) return 'sharps';
  return 'common';
}

/** Whether a key is written with flats (kept for callers of the earlier API). */
export function keyUsesFlats(key: Key | null): boolean {
  return keySpelling(key) === 'flats';
}
