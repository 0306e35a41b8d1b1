const SHARPS = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;
const FLATS = ['C', 'D♭', 'D', 'E♭', 'E', 'F', 'G♭', 'G', 'A♭', 'A', 'B♭', 'B'] as const;

const pitchClass = (midi: number) => ((midi % 12) + 12) % 12;
const isAccidental = (midi: number) => [1, 3, 6, 8, 10].includes(pitchClass(midi));

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
  return `${SHARPS[pitchClass(midi)] ?? '?'}${String(Math.floor(midi / 12) - 1)}`;
}
