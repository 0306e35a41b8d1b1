/**
 * Guitar setup: tunings (MIDI pitches listed low string to high string), guitar types and the
 * per-type constants of spec section 9. String 1 is the high e, string 6 the low E, so string
 * `s` has open pitch `tuning[6 - s]`.
 */
export const GUITAR_TYPES = ['acoustic', 'classical', 'electric'] as const;
export type GuitarType = (typeof GUITAR_TYPES)[number];

export const STEM_TYPES = ['guitar', 'solo'] as const;
export type StemType = (typeof STEM_TYPES)[number];

export const DEFAULT_VISIBLE_FRETS = 22;
export const VISIBLE_FRETS: Record<GuitarType, number> = {
  classical: 19,
  acoustic: 21,
  electric: 23,
};

/** Real neck size in millimetres, width x height, per guitar type. */
export const NECK_REAL_SIZE: Record<GuitarType, { width: number; height: number }> = {
  electric: { width: 466, height: 42 },
  classical: { width: 433, height: 52 },
  acoustic: { width: 442, height: 44 },
};

export type Tuning = readonly [number, number, number, number, number, number];

export const DEFAULT_TUNING: Tuning = [40, 45, 50, 55, 59, 64];

export const TUNING_PRESETS = [
  { id: 'standard', name: 'Standard', pitches: [40, 45, 50, 55, 59, 64] },
  { id: 'half-down', name: 'Half Down', pitches: [39, 44, 49, 54, 58, 63] },
  { id: 'drop-d', name: 'Drop D', pitches: [38, 45, 50, 55, 59, 64] },
  { id: 'open-g', name: 'Open G', pitches: [38, 43, 50, 55, 59, 62] },
  { id: 'dadgad', name: 'DADGAD', pitches: [38, 45, 50, 55, 57, 62] },
  { id: 'open-d', name: 'Open D', pitches: [38, 45, 50, 54, 57, 62] },
  { id: 'open-e', name: 'Open E', pitches: [40, 47, 52, 56, 59, 64] },
] as const satisfies readonly { id: string; name: string; pitches: Tuning }[];

export type TuningPresetId = (typeof TUNING_PRESETS)[number]['id'];

/** Open-string MIDI pitch of string 1..6 under a tuning listed low to high. */
export function openStringPitch(tuning: Tuning, stringNumber: number): number {
  const pitch = tuning[6 - stringNumber];
  if (pitch === undefined) throw new RangeError(`string must be 1..6, got ${stringNumber}`);
  return pitch;
}

const SHARPS = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;
const FLATS = ['C', 'D♭', 'D', 'E♭', 'E', 'F', 'G♭', 'G', 'A♭', 'A', 'B♭', 'B'] as const;

const pitchClass = (midi: number) => ((Math.round(midi) % 12) + 12) % 12;
const isAccidental = (midi: number) => [1, 3, 6, 8, 10].includes(pitchClass(midi));

/** A pitch's class in sharps, plain ASCII: 40 -> "E", 61 -> "C#". */
export function sharpName(midi: number): string {
  return SHARPS[pitchClass(midi)] ?? '?';
}

/**
 * The open-string note names of a tuning (MIDI pitches listed low to high), low string first,
 * e.g. "E A D G B E". A tuning whose strings are mostly sharps or flats (a half-step-down
 * tuning) is spelled with flats, the way guitarists write it; otherwise sharps.
 */
export function spellTuning(pitches: readonly number[]): string {
  const useFlats = pitches.filter(isAccidental).length * 2 > pitches.length;
  const names = useFlats ? FLATS : SHARPS;
  return pitches.map((p) => names[pitchClass(p)] ?? '?').join(' ');
}

/** A pitch as a guitarist reads it in a tuning chart, with its octave: 40 -> "E2", 61 -> "C#4". */
export function noteWithOctave(midi: number): string {
  return `${sharpName(midi)}${String(Math.floor(midi / 12) - 1)}`;
}

/** The tuning preset name for a list of pitches, or 'Custom'. */
export function tuningName(pitches: readonly number[]): string {
  const match = TUNING_PRESETS.find((t) => t.pitches.every((p, i) => p === pitches[i]));
  return match?.name ?? 'Custom';
}
