import { pitchClass } from './spelling.js';

/** What a chord tone does: the fifth is the tone voicings most often leave out. */
type Role = 'root' | 'third' | 'fifth' | 'colour';

/** A chord quality: its suffix after the root and its tones above the root. */
export interface Quality {
  suffix: string;
  tones: readonly { interval: number; role: Role }[];
}

const t = (interval: number, role: Role) => ({ interval, role });

/**
 * The chord vocabulary, simplest first (the order breaks ties). Major is written as the root
 * alone ("C"); the others as suffixes: Cm, C5, C6, C7, Cmaj7, Cm7, Csus2, Csus4, Cdim, Caug,
 * Cadd9. The altered fifth of dim and aug, and the fifth of a power chord, define the chord.
 */
export const QUALITIES: readonly Quality[] = [
  { suffix: '', tones: [t(0, 'root'), t(4, 'third'), t(7, 'fifth')] },
  { suffix: 'm', tones: [t(0, 'root'), t(3, 'third'), t(7, 'fifth')] },
  { suffix: '5', tones: [t(0, 'root'), t(7, 'colour')] },
  { suffix: '7', tones: [t(0, 'root'), t(4, 'third'), t(7, 'fifth'), t(10, 'colour')] },
  { suffix: 'm7', tones: [t(0, 'root'), t(3, 'third'), t(7, 'fifth'), t(10, 'colour')] },
  { suffix: 'maj7', tones: [t(0, 'root'), t(4, 'third'), t(7, 'fifth'), t(11, 'colour')] },
  { suffix: 'sus4', tones: [t(0, 'root'), t(5, 'colour'), t(7, 'fifth')] },
  { suffix: 'sus2', tones: [t(0, 'root'), t(2, 'colour'), t(7, 'fifth')] },
  { suffix: '6', tones: [t(0, 'root'), t(4, 'third'), t(7, 'fifth'), t(9, 'colour')] },
  { suffix: 'add9', tones: [t(0, 'root'), t(2, 'colour'), t(4, 'third'), t(7, 'fifth')] },
  { suffix: 'dim', tones: [t(0, 'root'), t(3, 'third'), t(6, 'colour')] },
  { suffix: 'aug', tones: [t(0, 'root'), t(4, 'third'), t(8, 'colour')] },
];

/**
 * Weights of the template fit, in "chord tones". An extra tone costs more than a missing one
 * (a chord sounding a tone the name does not contain is misnamed); a missing fifth costs
 * little because guitarists drop it freely; the root in the bass is the usual voicing.
 */
export const FIT_WEIGHTS = {
  extra: 1.2,
  missing: 0.9,
  missingFifth: 0.3,
  rootInBass: 0.35,
  /** Per place in QUALITIES: the simpler name wins a tie. */
  order: 0.01,
} as const;

/** Every (root, quality) label: index = root * QUALITIES.length + quality index. */
export const LABEL_COUNT = 12 * QUALITIES.length;

/**
 * Fit of one label to a pitch-class presence vector (12 values 0..1), without the bass:
 * present chord tones count, tones that are not in the chord cost FIT_WEIGHTS.extra each, and
 * missing chord tones cost FIT_WEIGHTS.missing (the fifth FIT_WEIGHTS.missingFifth) times
 * `missingScale`. Silence fits every label with 0.
 */
export function labelFit(presence: readonly number[], label: number, missingScale = 1): number {
  const root = Math.floor(label / QUALITIES.length);
  const order = label % QUALITIES.length;
  const quality = QUALITIES[order];
  if (!quality) return -Infinity;
  let total = 0;
  for (const p of presence) total += p;
  if (total === 0) return 0;
  let matched = 0;
  let missing = 0;
  for (const tone of quality.tones) {
    const p = presence[(root + tone.interval) % 12] ?? 0;
    matched += p;
    missing += (1 - p) * (tone.role === 'fifth' ? FIT_WEIGHTS.missingFifth : FIT_WEIGHTS.missing);
  }
  return (
    matched -
    FIT_WEIGHTS.extra * (total - matched) -
    missingScale * missing -
    FIT_WEIGHTS.order * order
  );
}

/** A named chord: root and bass pitch classes, quality suffix, and how well it fits. */
export interface ChordName {
  root: number;
  suffix: string;
  bass: number;
  fit: number;
}

/**
 * Best chord for a pitch-class presence vector (12 values 0..1: how fully each pitch class is
 * present) over a bass pitch class. A power chord ('5') is considered only when exactly its two
 * pitch classes are present. Null when no pitch class is present.
 */
export function bestChord(presence: readonly number[], bass: number): ChordName | null {
  const present = presence.filter((p) => p > 0).length;
  if (present === 0) return null;
  let best: ChordName | null = null;
  for (let label = 0; label < LABEL_COUNT; label += 1) {
    const root = Math.floor(label / QUALITIES.length);
    const suffix = QUALITIES[label % QUALITIES.length]?.suffix ?? '';
    // A root that does not sound at all is never the best name for what sounds.
    if ((presence[root] ?? 0) <= 0) continue;
    if (suffix === '5' && present !== 2) continue;
    const fit = labelFit(presence, label) + (root === bass ? FIT_WEIGHTS.rootInBass : 0);
    if (!best || fit > best.fit) best = { root, suffix, bass, fit };
  }
  return best;
}

/**
 * Names a set of MIDI pitches sounding together: the best template over their pitch classes,
 * with the lowest pitch as the bass. Null unless three or more pitch classes sound, or a power
 * chord (root and fifth) with the root in the bass.
 */
export function nameChord(pitches: readonly number[]): ChordName | null {
  if (pitches.length === 0) return null;
  const presence = new Array<number>(12).fill(0);
  for (const p of pitches) presence[pitchClass(p)] = 1;
  const classes = presence.filter((p) => p > 0).length;
  const bass = pitchClass(Math.min(...pitches));
  if (classes < 2) return null;
  const name = bestChord(presence, bass);
  if (!name) return null;
  if (classes === 2 && !(name.suffix === '5' && name.root === bass)) return null;
  return name;
}
