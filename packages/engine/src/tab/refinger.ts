import {
  FRET_MAX,
  HAND_POSITION_FRETS,
  REFINGER_MAX_SELECTION,
  confirmNote,
  moveToString,
  type NoteEvent,
  type RefingerConstraint,
  type RefingeredNote,
} from '@riffscribe/core';
import { noteName } from '../harmony/spelling.js';
import { openPitch } from './fingering.js';
import type { Fingered, PitchedNote } from './learned/finger.js';
import type { FingeringSetup } from './learned/features.js';
import { strumsOf } from './groups.js';
import type { GuitarSetup } from '../types.js';
import type { MidiPitch, Seconds } from '../units.js';

/**
 * Re-fingering a selection (issue 19): the rule around the learned model. Pure.
 *
 * - The window: the selection, every note between its first and last (in time order) and
 *   REFINGER_CONTEXT notes on each side.
 * - Free (re-solved by the model): the selected notes, and the window's notes struck together
 *   with one of them (a strum: one note per string forces them to make room).
 * - Pinned (kept on their string): every other note of the window. They are the neighbours the
 *   model plays around: the hand-position cost and the close-notes reach hold across them, so the
 *   selection lands where it joins its context best.
 * - The constraint restricts the selected notes' strings before the search: a hand position p
 *   keeps the strings where the note is open or at fret p..p+3; a string set keeps those strings;
 *   a pin keeps one note on one string (the rest of the selection is free).
 * - Refused (RefingerError 'no_fingering'), nothing changed: a selected note no allowed string
 *   plays, or a strum the allowed strings cannot hold one note per string.
 * - Every pitch, time and technique is kept: only string and fret change, a bend's target and
 *   release frets move with the fret (core's moveToString), and a moved note loses the AI's
 *   confidence (a person chose it).
 */

/** Notes of context on each side of the selection. */
export const REFINGER_CONTEXT = 4;

/** A refused re-fingering: the constraint cannot be met, or the selection does not exist. */
export class RefingerError extends Error {
  constructor(
    readonly code: 'no_fingering' | 'bad_selection',
    message: string,
  ) {
    super(message);
    this.name = 'RefingerError';
  }
}

/** What to ask the model: the window's notes in the model's terms, pins and string masks. */
export interface RefingerPlan {
  /** Indices (into the request's notes) of the window, in time order. */
  window: number[];
  /** The window's notes as the model reads them (same order as `window`). */
  notes: PitchedNote[];
  setup: FingeringSetup;
  /** Window position -> the string it keeps. */
  pinned: Map<number, number>;
  /** Window position -> the strings it may use (the selected notes). */
  allowed: Map<number, number[]>;
  /** Window positions struck together (each strum). */
  strums: number[][];
}

const where = (note: NoteEvent, pitch: number) =>
  `The ${noteName(pitch, 'sharps')}${String(Math.floor(pitch / 12) - 1)} at ${note.time.toFixed(2)} s`;

function noteAt(notes: readonly NoteEvent[], i: number): NoteEvent {
  const note = notes[i];
  if (!note)
    throw new RefingerError('bad_selection', `Note ${String(i)} is not in the lesson's notes.`);
  return note;
}

/** Sounding MIDI pitch of a note (frets are relative to the capo). */
const soundingPitch = (note: NoteEvent, guitar: GuitarSetup) =>
  openPitch(guitar, note.string) + note.fret;

/** Fret of `pitch` on string `s`, relative to the capo (may be out of range). */
const fretOn = (pitch: number, s: number, guitar: GuitarSetup) => pitch - openPitch(guitar, s);

function describe(constraint: RefingerConstraint): string {
  if ('position' in constraint) {
    const p = constraint.position;
    return `in the hand position at fret ${String(p)} (frets ${String(p)}-${String(p + HAND_POSITION_FRETS - 1)} or open)`;
  }
  if ('strings' in constraint) {
    return `on string${constraint.strings.length === 1 ? '' : 's'} ${[...constraint.strings].sort().join(', ')}`;
  }
  return `with that note on string ${String(constraint.pin.string)}`;
}

/**
 * The window, pins and masks for re-fingering `selection` (indices into `notes`) under
 * `constraint`. Throws RefingerError when an index does not exist or a selected note cannot be
 * played as asked.
 */
export function planRefinger(
  notes: readonly NoteEvent[],
  selection: readonly number[],
  constraint: RefingerConstraint,
  guitar: GuitarSetup,
): RefingerPlan {
  if (selection.length === 0) throw new RefingerError('bad_selection', 'No note is selected.');
  for (const i of selection) {
    if (!Number.isInteger(i) || i < 0 || i >= notes.length) {
      throw new RefingerError('bad_selection', `Note ${String(i)} is not in the lesson's notes.`);
    }
  }
  if ('pin' in constraint && !selection.includes(constraint.pin.index)) {
    throw new RefingerError('bad_selection', 'The pinned note must be one of the selected notes.');
  }
  const byTime = notes
    .map((_, i) => i)
    .sort((a, b) => (notes[a]?.time ?? 0) - (notes[b]?.time ?? 0) || a - b);
  const rank = new Map(byTime.map((i, k) => [i, k]));
  const ranks = selection.map((i) => rank.get(i) ?? 0);
  const from = Math.max(0, Math.min(...ranks) - REFINGER_CONTEXT);
  const to = Math.min(byTime.length - 1, Math.max(...ranks) + REFINGER_CONTEXT);
  if (to - from + 1 > REFINGER_MAX_SELECTION + 2 * REFINGER_CONTEXT) {
    throw new RefingerError(
      'bad_selection',
      `The selection spans ${String(to - from + 1 - 2 * REFINGER_CONTEXT)} notes; re-finger at most ${String(REFINGER_MAX_SELECTION)} at a time.`,
    );
  }
  const window = byTime.slice(from, to + 1);
  const windowNotes = window.map((i) => noteAt(notes, i));
  const pitches = windowNotes.map((n) => soundingPitch(n, guitar));

  // Strums as the pipeline groups them (tab/groups.ts); the model reads a strum at one time.
  const { groups: strums, time: strumTime } = strumsOf(
    windowNotes.map((n, k) => ({
      time: n.time as Seconds,
      endTime: n.end_time as Seconds,
      pitch: pitches[k] as MidiPitch,
      amplitude: 1,
      onset: 1,
      bend: [],
    })),
  );

  const selectedSet = new Set(selection);
  const selected = window.flatMap((i, k) => (selectedSet.has(i) ? [k] : []));
  const free = new Set(selected);
  for (const members of strums) {
    if (members.some((k) => selectedSet.has(window[k] ?? -1))) for (const k of members) free.add(k);
  }
  const highest = Math.max(...windowNotes.map((n) => n.fret));
  const setup: FingeringSetup = {
    tuning: guitar.tuning,
    capo: guitar.capo,
    maxFret: Math.min(FRET_MAX, Math.max(guitar.frets, highest)),
  };

  const pinned = new Map<number, number>();
  const allowed = new Map<number, number[]>();
  window.forEach((i, k) => {
    const note = noteAt(windowNotes, k);
    if (!free.has(k)) {
      pinned.set(k, note.string);
      return;
    }
    if (!selectedSet.has(i)) return;
    const pitch = pitches[k] ?? 0;
    const playable = [1, 2, 3, 4, 5, 6].filter((s) => {
      const f = fretOn(pitch, s, guitar);
      return f >= 0 && f <= setup.maxFret;
    });
    let ok = playable;
    if ('position' in constraint) {
      const p = constraint.position;
      ok = playable.filter((s) => {
        const f = fretOn(pitch, s, guitar);
        return f === 0 || (f >= p && f < p + HAND_POSITION_FRETS);
      });
    } else if ('strings' in constraint) {
      ok = playable.filter((s) => constraint.strings.includes(s));
    } else if (constraint.pin.index === i) {
      ok = playable.filter((s) => s === constraint.pin.string);
    }
    if (ok.length === 0) {
      throw new RefingerError(
        'no_fingering',
        `${where(note, pitch)} cannot be played ${describe(constraint)}. Nothing was changed.`,
      );
    }
    allowed.set(k, ok);
  });

  return {
    window,
    notes: windowNotes.map((_, k) => ({ time: strumTime[k] ?? 0, pitch: pitches[k] ?? 0 })),
    setup,
    pinned,
    allowed,
    strums,
  };
}

/**
 * The notes the model's answer moves, each at the same pitch; throws RefingerError when the
 * answer breaks the constraint (a note without an allowed string, two notes of a strum on one
 * string): the decoder relaxes its own rules only when nothing else is left.
 */
export function applyRefinger(
  notes: readonly NoteEvent[],
  plan: RefingerPlan,
  fingered: readonly Fingered[],
  guitar: GuitarSetup,
  constraint: RefingerConstraint,
): RefingeredNote[] {
  const strings = plan.window.map((i, k) => fingered[k]?.string ?? notes[i]?.string ?? 0);
  for (const [k, ok] of plan.allowed) {
    const s = fingered[k]?.string;
    if (s == null || !ok.includes(s)) {
      const note = noteAt(notes, plan.window[k] ?? -1);
      throw new RefingerError(
        'no_fingering',
        `${where(note, soundingPitch(note, guitar))} cannot be played ${describe(constraint)} with the notes around it. Nothing was changed.`,
      );
    }
  }
  for (const members of plan.strums) {
    const used = members.map((k) => strings[k]);
    if (new Set(used).size < used.length && members.some((k) => plan.allowed.has(k))) {
      const note = noteAt(notes, plan.window[members[0] ?? 0] ?? -1);
      throw new RefingerError(
        'no_fingering',
        `No fingering plays the chord at ${note.time.toFixed(2)} s one note per string ${describe(constraint)}. Nothing was changed.`,
      );
    }
  }
  const changed: RefingeredNote[] = [];
  plan.window.forEach((i, k) => {
    const note = notes[i];
    const s = strings[k];
    if (!note || s === undefined || s === note.string) return;
    // moveToString keeps the pitch, or refuses (null) a string that cannot play it.
    const moved = moveToString(note, s, guitar.tuning);
    if (!moved) return;
    changed.push({ index: i, note: confirmNote(moved) });
  });
  return changed.sort((a, b) => a.index - b.index);
}
