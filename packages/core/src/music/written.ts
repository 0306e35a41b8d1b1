import type { GuitarType } from '../guitar.js';
import { barStartTicks } from './export-meta.js';
import { timeAt } from './timing.js';
import type { ChordEvent, NoteEvent } from '../events.js';
import type { Score, ScoreSlot } from './score.js';

/**
 * What each written note of a Score carries (pure): the part both exporters (MusicXML, alphaTab)
 * share, so that they cannot disagree on which note hammers on to which, where a tie starts, or
 * which slot of a tied chain holds the bend. Strings keep the lesson's numbering (1 = high e);
 * each exporter converts to its own.
 */

/** What an export needs besides the notes and their Score. */
export interface NotationMeta {
  title: string;
  /** Six MIDI pitches, low to high (spec: `tuning`). */
  tuning: readonly number[];
  /** Capo fret; note frets are relative to it. */
  capo: number;
  /** Chord names over time (written above the staff at the nearest slot). */
  chords?: readonly ChordEvent[];
  /** Picks the instrument sound (General MIDI program); acoustic when absent. */
  guitar?: GuitarType;
  /** The lesson's key ("Eb major"): the key signature and the spelling; C major when absent. */
  key?: string;
}

/** Tempo as written: whole quarter notes a minute. */
export function writtenTempo(tempo: number): number {
  return Math.max(1, Math.round(tempo));
}

/**
 * How far (as a share) a bar's tempo may stray from the tempo written before it and still be
 * read as the same tempo: a player's timing breathes by several percent from bar to bar, and a
 * beat tracker's bar lengths with it.
 */
export const TEMPO_MARK_TOLERANCE = 0.1;

/** The middle of `values` (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const at = (i: number) => sorted[i] ?? 0;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

/**
 * The tempo written over each bar of the notation (MusicXML, Guitar Pro, the notation view): one
 * mark for a steady take, a new one only where the beat really changes. The bars fall into
 * stretches whose tempos stay within TEMPO_MARK_TOLERANCE of the stretch's median; one bar out
 * of line (a held chord, a tracker's slip) stays in its stretch, and a new stretch starts where
 * two bars in a row leave it. Each stretch is written at its median. The MIDI file keeps every
 * bar's own tempo, so that it plays in time with the video.
 */
export function writtenTempi(score: { bars: readonly { tempo: number }[] }): number[] {
  const tempos = score.bars.map((b) => b.tempo);
  const stretches: number[][] = [];
  let current: number[] = [];
  const off = (tempo: number, reference: number) =>
    Math.abs(tempo - reference) > TEMPO_MARK_TOLERANCE * reference;
  tempos.forEach((tempo, i) => {
    if (current.length > 0) {
      const reference = median(current);
      const next = tempos[i + 1];
      const changed =
        off(tempo, reference) && next !== undefined && off(next, reference) && !off(next, tempo);
      if (changed) {
        stretches.push(current);
        current = [];
      }
    }
    current.push(tempo);
  });
  if (current.length > 0) stretches.push(current);
  return stretches.flatMap((s) => s.map(() => writtenTempo(median(s))));
}

/** A legato link from one note to the next note on the same string. */
export type Legato = 'hammer' | 'pull' | 'slide';

export interface WrittenNote {
  /** Index into the lesson's notes. */
  note: number;
  /** 1 = high e ... 6 = low E. */
  string: number;
  /** Relative to the capo. */
  fret: number;
  /** This slot holds the note on from the slot before (tie stop). */
  tieStop: boolean;
  /** The note goes on into a later slot (tie start). */
  tieStart: boolean;
  /** Link to the next note on this string, on the last slot of this note only. */
  legatoOut: Legato | null;
  /** Link from the previous note on this string, on the note's first slot only. */
  legatoIn: Legato | null;
  /** A slide into the note from below with no note before it (first slot only). */
  slideIn: boolean;
  /** A slide out of the note, down, to no note (last slot only). */
  slideOut: boolean;
  /** Bend in semitones and where it releases to (semitones above the fret), first slot only. */
  bend: { semitones: number; release: number | null } | null;
  vibrato: NoteEvent['vibrato'];
  /** A dead (muted) note, an x. */
  dead: boolean;
}

export interface WrittenSlot {
  slot: ScoreSlot;
  /**
   * The slot's notes in the order of `slot.notes` (lowest string number first), one a string: of
   * two notes that start together on one string (overlapping notes quantized to one onset) only
   * the first is written, since a string sounds one note at a time.
   */
  notes: WrittenNote[];
}

export interface WrittenBar {
  slots: WrittenSlot[];
}

/** Where a note is written: its slots as [bar, slot] pairs, in order. */
type Place = [number, number];

/**
 * The written notes of `score` (from `scoreOf(notes, grid)`): ties, legato links between
 * consecutive notes on one string (the second in the slot straight after the first; a pair when either the first note's trailing flag or the next
 * note's leading flag says so: the first of slide, hammer-on, pull-off wins, the first note's
 * flag before the second's), unpaired slides in and out, bends, vibrato and dead notes.
 */
export function writtenNotes(score: Score, notes: readonly NoteEvent[]): WrittenBar[] {
  const places = new Map<number, Place[]>();
  // Slot number counted over the whole score, for "the very next slot".
  const order = new Map<number, { first: number; last: number }>();
  let counter = 0;
  // Onsets on each string in time order: [note index, first place].
  const onsets = new Map<number, number[]>();
  // The first note of each string in the slot (linear in the slot's notes).
  const kept = (slot: ScoreSlot) => {
    const strings = new Set<number | undefined>();
    return slot.notes.filter((i) => {
      const string = notes[i]?.string;
      if (strings.has(string)) return false;
      strings.add(string);
      return true;
    });
  };
  score.bars.forEach((bar, b) => {
    bar.slots.forEach((slot, s) => {
      for (const i of kept(slot)) {
        const seen = order.get(i);
        order.set(i, { first: seen?.first ?? counter, last: counter });
        const list = places.get(i) ?? [];
        list.push([b, s]);
        places.set(i, list);
        const n = notes[i];
        if (!slot.tied && n) {
          const list = onsets.get(n.string);
          if (list) list.push(i);
          else onsets.set(n.string, [i]);
        }
      }
      counter++;
    });
  });

  const out = new Map<number, Legato>();
  const into = new Map<number, Legato>();
  for (const list of onsets.values()) {
    for (let k = 0; k + 1 < list.length; k++) {
      const a = notes[list[k] ?? -1];
      const b = notes[list[k + 1] ?? -1];
      // Legato only between a note and the one straight after it (no rest, no other onset).
      const adjacent =
        (order.get(list[k] ?? -1)?.last ?? -2) + 1 === order.get(list[k + 1] ?? -1)?.first;
      if (!a || !b || !adjacent) continue;
      const link = legatoBetween(a, b);
      if (link) {
        out.set(list[k] ?? -1, link);
        into.set(list[k + 1] ?? -1, link);
      }
    }
  }

  return score.bars.map((bar, b) => ({
    slots: bar.slots.map((slot, s) => ({
      slot,
      notes: kept(slot).map((i): WrittenNote => {
        const n = notes[i];
        if (!n) throw new Error(`score slot refers to note ${i}, which is not in the lesson`);
        const where = places.get(i) ?? [];
        const first = where[0]?.[0] === b && where[0][1] === s;
        const lastPlace = where.at(-1);
        const last = lastPlace?.[0] === b && lastPlace[1] === s;
        const legatoOut = last ? (out.get(i) ?? null) : null;
        const legatoIn = first ? (into.get(i) ?? null) : null;
        return {
          note: i,
          string: n.string,
          fret: n.fret,
          tieStop: slot.tied,
          tieStart: !last,
          legatoOut,
          legatoIn,
          slideIn: first && legatoIn === null && n.leading_slide,
          slideOut: last && legatoOut === null && n.trailing_slide,
          bend: first ? bendOf(n) : null,
          vibrato: n.vibrato,
          dead: n.mute,
        };
      }),
    })),
  }));
}

function legatoBetween(a: NoteEvent, b: NoteEvent): Legato | null {
  if (a.trailing_slide) return 'slide';
  if (a.trailing_hammer_on) return 'hammer';
  if (a.trailing_pull_off) return 'pull';
  if (b.leading_slide) return 'slide';
  if (b.leading_hammer_on) return 'hammer';
  if (b.leading_pull_off) return 'pull';
  return null;
}

/** The bend of a note from its bend and release frets (frets are semitones). */
function bendOf(n: NoteEvent): WrittenNote['bend'] {
  if (n.bend_to_fret === null || n.bend_to_fret <= n.fret) return null;
  const semitones = n.bend_to_fret - n.fret;
  const release =
    n.release_to_fret !== null && n.release_to_fret < n.bend_to_fret
      ? Math.max(0, n.release_to_fret - n.fret)
      : null;
  return { semitones, release };
}

/** Sounding MIDI pitch of a string and fret: `tuning` low to high, frets above the capo. */
export function soundingPitch(
  tuning: readonly number[],
  capo: number,
  string: number,
  fret: number,
): number {
  const open = tuning[6 - string];
  if (open === undefined) throw new RangeError(`string must be 1..6, got ${String(string)}`);
  return open + capo + fret;
}

/** Chord names keyed "bar:slot": each chord at the slot starting nearest its time. */
export function chordNamesBySlot(score: Score, chords: readonly ChordEvent[]): Map<string, string> {
  const barTicks = barStartTicks(score);
  const starts: { key: string; time: number }[] = [];
  score.bars.forEach((bar, b) => {
    bar.slots.forEach((slot, s) => {
      starts.push({
        key: `${b}:${s}`,
        time: timeAt(score, barTicks, (barTicks[b] ?? 0) + slot.tick),
      });
    });
  });
  const out = new Map<string, string>();
  for (const chord of [...chords].sort((a, b) => a.time - b.time)) {
    let best: { key: string; time: number } | undefined;
    for (const s of starts) {
      if (!best || Math.abs(s.time - chord.time) < Math.abs(best.time - chord.time)) best = s;
    }
    if (best && !out.has(best.key)) out.set(best.key, chord.chord);
  }
  return out;
}
