import {
  noteOnString,
  techniqueOn,
  type NoteEvent,
  type SuggestedTechnique,
  type SuggestionFields,
} from '@riffscribe/core';
import { openPitch } from '../tab/fingering.js';
import type { GuitarSetup } from '../types.js';
import { attackAt, energyRiseAt, type AttackAnalysis } from './attacks.js';

/**
 * The technique gate (issue 39, precision first): every technique mark the rules wrote is read
 * once more by a small learned model (packages/engine/models/techniques, training/techniques),
 * which gives the probability that the mark is right. A mark below the gate's threshold leaves
 * the tab and waits in the review queue as a suggestion ("bend?", NoteEvent.suggestions): for a
 * learner a wrong mark is worse than a missing one.
 *
 * This module is pure: which marks there are (markOccurrences), what the model reads about each
 * (gateFeatures, one pass over the notes and the clip's attack analysis that detect.ts made), and
 * the tab with the doubtful marks moved to suggestions (demoteMarks).
 */

/** One technique mark on one note: a slur or slide is counted once, on the note it leads into. */
export interface MarkOccurrence {
  index: number;
  technique: SuggestedTechnique;
  /** The side of a slide, hammer-on or pull-off; null for bend, release and vibrato. */
  side: 'leading' | 'trailing' | null;
}

/** The gate's inputs, in order (the model's feature columns; training/techniques reads them). */
export const GATE_FEATURES = [
  'is_bend',
  'is_release',
  'is_vibrato',
  'is_slide',
  'is_hammer_on',
  'is_pull_off',
  'side',
  'vibrato_big',
  'bend_amount',
  'seconds',
  'confidence',
  'attack_ratio',
  'energy_rise_db',
  'contour_max',
  'contour_min',
  'contour_spread',
  'contour_crossings',
  'contour_start',
  'contour_end',
  'has_neighbour',
  'interval',
  'gap',
  'neighbour_seconds',
  'neighbour_attack_ratio',
  'fret',
  'notes_together',
] as const;

/** Columns of gateFeatures (GATE_FEATURES.length). */
export const GATE_WIDTH = GATE_FEATURES.length;

const SLURS = ['slide', 'hammer_on', 'pull_off'] as const;

/**
 * The marks of `notes` (sorted by time): a bend, a release and a vibrato once per note, a slide,
 * hammer-on or pull-off once on the note it leads into, and a trailing one only where no note on
 * the string takes it up (a slide out of a note into nothing).
 */
export function markOccurrences(notes: readonly NoteEvent[]): MarkOccurrence[] {
  const out: MarkOccurrence[] = [];
  notes.forEach((n, index) => {
    if (n.mute) return;
    if (n.bend_to_fret !== null) {
      out.push({ index, technique: 'bend', side: null });
      if (n.release_to_fret !== null) out.push({ index, technique: 'release', side: null });
    }
    if (n.vibrato !== '') out.push({ index, technique: 'vibrato', side: null });
    const leading = techniqueOn(n, 'leading');
    if (leading) out.push({ index, technique: leading, side: 'leading' });
    const trailing = techniqueOn(n, 'trailing');
    if (trailing) {
      const next = noteOnString(notes, index, 1);
      const taken = next !== null && notes[next]?.[`leading_${trailing}`] === true;
      if (!taken) out.push({ index, technique: trailing, side: 'trailing' });
    }
  });
  return out;
}

const clip = (v: number, a: number, b: number) => Math.min(b, Math.max(a, v));

/** Contour statistics of a note's pitch_arr, in semitones from its fret (1 = unbent, 3 a fret). */
function contourStats(note: NoteEvent): number[] {
  const arr = note.pitch_arr;
  const semis = arr.map((v) => (v - 1) / 3);
  let max = -Infinity;
  let min = Infinity;
  let sum = 0;
  for (const v of semis) {
    max = Math.max(max, v);
    min = Math.min(min, v);
    sum += v;
  }
  const mean = semis.length > 0 ? sum / semis.length : 0;
  let crossings = 0;
  for (let k = 1; k < semis.length; k++) {
    if (((semis[k - 1] ?? 0) - mean) * ((semis[k] ?? 0) - mean) < 0) crossings += 1;
  }
  const seconds = Math.max(0.05, note.end_time - note.time);
  return [
    clip(max, -2, 4) / 4,
    clip(min, -2, 2) / 2,
    clip(max - min, 0, 4) / 4,
    clip(crossings / seconds, 0, 30) / 30,
    clip(semis[0] ?? 0, -2, 4) / 4,
    clip(semis[semis.length - 1] ?? 0, -2, 4) / 4,
  ];
}

/**
 * The clip's typical attack: the median attack flux at the notes' starts (1 without audio), so
 * that an attack reads as a ratio whatever the recording's level and tone.
 */
export function typicalFlux(notes: readonly NoteEvent[], attacks: AttackAnalysis | null): number {
  if (attacks === null || notes.length === 0) return 1;
  const values = notes.map((n) => attackAt(attacks, n.time)).sort((a, b) => a - b);
  return Math.max(1e-6, values[Math.floor(values.length / 2)] ?? 1);
}

/**
 * What the gate's model reads about each mark, one row of GATE_WIDTH per occurrence (row-major),
 * each column scaled to about -1..1 (attack ratios to 2; GATE_FEATURES): the technique and its side, the note (its
 * length, confidence, the attack at its start, its pitch contour), and the note on the string that
 * the technique joins it to (the one before it, or after it for a trailing mark).
 */
export function gateFeatures(
  notes: readonly NoteEvent[],
  marks: readonly MarkOccurrence[],
  attacks: AttackAnalysis | null,
  setup: GuitarSetup,
): Float32Array {
  const out = new Float32Array(marks.length * GATE_WIDTH);
  const reference = typicalFlux(notes, attacks);
  const ratio = (time: number) => (attacks ? attackAt(attacks, time) / reference : 1);
  const pitch = (n: NoteEvent) => openPitch(setup, n.string) + n.fret;
  marks.forEach((mark, row) => {
    const n = notes[mark.index];
    if (n === undefined) return;
    const j = noteOnString(notes, mark.index, mark.side === 'trailing' ? 1 : -1);
    const other = j === null ? undefined : notes[j];
    let together = 0;
    for (const m of notes) if (Math.abs(m.time - n.time) <= 0.05) together += 1;
    const gap =
      other === undefined
        ? 1
        : mark.side === 'trailing'
          ? other.time - n.end_time
          : n.time - other.end_time;
    const values = [
      mark.technique === 'bend' ? 1 : 0,
      mark.technique === 'release' ? 1 : 0,
      mark.technique === 'vibrato' ? 1 : 0,
      mark.technique === 'slide' ? 1 : 0,
      mark.technique === 'hammer_on' ? 1 : 0,
      mark.technique === 'pull_off' ? 1 : 0,
      mark.side === 'leading' ? 1 : mark.side === 'trailing' ? -1 : 0,
      n.vibrato === 'big' ? 1 : 0,
      n.bend_to_fret === null ? 0 : clip(n.bend_to_fret - n.fret, -2, 4) / 4,
      clip(n.end_time - n.time, 0, 2) / 2,
      n.confidence ?? 0.5,
      clip(ratio(n.time), 0, 4) / 2,
      attacks ? clip(energyRiseAt(attacks, n.time), -20, 40) / 20 : 0,
      ...contourStats(n),
      other === undefined ? 0 : 1,
      other === undefined ? 0 : clip(pitch(n) - pitch(other), -12, 12) / 12,
      clip(gap, -0.5, 1),
      other === undefined ? 0 : clip(other.end_time - other.time, 0, 2) / 2,
      other === undefined ? 0 : clip(ratio(other.time), 0, 4) / 2,
      n.fret / 24,
      clip(together, 1, 6) / 6,
    ];
    out.set(values, row * GATE_WIDTH);
  });
  return out;
}

/** The fields a mark sets (its suggestion) and those that take it off the tab. */
function markFields(note: NoteEvent, mark: MarkOccurrence): SuggestionFields {
  switch (mark.technique) {
    case 'bend':
      return { bend_to_fret: note.bend_to_fret, release_to_fret: note.release_to_fret };
    case 'release':
      return { release_to_fret: note.release_to_fret };
    case 'vibrato':
      return { vibrato: note.vibrato };
    default:
      return mark.side === null ? {} : { [`${mark.side}_${mark.technique}`]: true };
  }
}

const CLEARED: Readonly<Record<keyof SuggestionFields, null | false | ''>> = {
  vibrato: '',
  bend_to_fret: null,
  release_to_fret: null,
  leading_slide: false,
  trailing_slide: false,
  leading_hammer_on: false,
  trailing_hammer_on: false,
  leading_pull_off: false,
  trailing_pull_off: false,
};

/** The gate's threshold: one for every technique, or one per technique with a default. */
export type GateThreshold =
  number | ({ default: number } & Partial<Record<SuggestedTechnique, number>>);

/** The threshold a mark of `technique` must reach to stay on the tab. */
export function thresholdFor(threshold: GateThreshold, technique: SuggestedTechnique): number {
  return typeof threshold === 'number' ? threshold : (threshold[technique] ?? threshold.default);
}

/**
 * The notes with every mark whose probability is under its threshold taken off the tab and kept
 * on its note as a suggestion (most likely first). A slur into a note also leaves the note before
 * it (its trailing side); a bend taken off takes its release with it.
 */
export function demoteMarks(
  notes: readonly NoteEvent[],
  marks: readonly MarkOccurrence[],
  probabilities: ArrayLike<number>,
  threshold: GateThreshold,
): NoteEvent[] {
  const out = notes.map((n) => n);
  const doubted = (mark: MarkOccurrence, k: number) =>
    (probabilities[k] ?? 1) < thresholdFor(threshold, mark.technique);
  const bendsOff = new Set<number>();
  marks.forEach((mark, k) => {
    if (mark.technique === 'bend' && doubted(mark, k)) bendsOff.add(mark.index);
  });
  marks.forEach((mark, k) => {
    const p = probabilities[k] ?? 1;
    if (!doubted(mark, k)) return;
    if (mark.technique === 'release' && bendsOff.has(mark.index)) return;
    const note = out[mark.index];
    if (note === undefined) return;
    const fields = markFields(notes[mark.index] ?? note, mark);
    const cleared = { ...note };
    for (const key of Object.keys(fields) as (keyof SuggestionFields)[]) {
      Object.assign(cleared, { [key]: CLEARED[key] });
    }
    const suggestion = { technique: mark.technique, confidence: round(p), fields };
    cleared.suggestions = [...(note.suggestions ?? []), suggestion].sort(
      (a, b) => b.confidence - a.confidence,
    );
    out[mark.index] = cleared;
    if (mark.side === 'leading') {
      const j = noteOnString(notes, mark.index, -1);
      const before = j === null ? undefined : out[j];
      if (j !== null && before !== undefined && SLURS.some((t) => before[`trailing_${t}`])) {
        out[j] = { ...before, [`trailing_${mark.technique}`]: false };
      }
    }
  });
  return out;
}

function round(p: number): number {
  return Math.round(p * 1000) / 1000;
}
