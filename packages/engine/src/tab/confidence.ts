import type { NoteEvent } from '@riffscribe/core';
import type { TabNote } from '../types.js';
import { FRAME_RATE } from '../units.js';

/**
 * How sure the engine is of each note it writes (0..1), for the player's review queue: the
 * product of how clearly the model heard the note struck and how clearly the tab stage chose its
 * string. Pure.
 *
 *  - heard: the note's onset activation (Basic Pitch's onset posterior at its start, 0..1)
 *    mapped linearly from HEARD_LOW to HEARD_HIGH. On the rendered corpus it tells the notes of
 *    a wrong pitch (ghosts, octave and neighbour errors) from right ones far better than the
 *    note posterior does (ranking AUC 0.91 against 0.59 for the mean note activation and 0.69
 *    for the peak; docs/review-queue.md);
 *  - fingering: the learned fingering model's probability of the note's string
 *    (TabNote.fingeringProbability, set by the pipeline's tab stage, placeNotes); a note whose
 *    string came from elsewhere (a measurement's true tab) counts as sure of its string.
 */

/** Onset activation at or under this: hardly an attack of its own (confidence 0 from it). */
const HEARD_LOW = 0.6;
/** Onset activation at or over this: a clear attack (confidence 1 from it). */
const HEARD_HIGH = 0.9;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Confidence from the model's onset activation alone (0..1). */
export const heardConfidence = (onset: number) =>
  clamp01((onset - HEARD_LOW) / (HEARD_HIGH - HEARD_LOW));

/** A note's confidence, rounded to 3 decimals (it is stored in notes.json). */
export function noteConfidence(note: Pick<TabNote, 'onset' | 'fingeringProbability'>): number {
  const fingering = clamp01(note.fingeringProbability ?? 1);
  return Math.round(heardConfidence(note.onset) * fingering * 1000) / 1000;
}

/** Tab notes this close to an event's start (seconds) on its string are the note it came from. */
const SAME_START = 1.5 / FRAME_RATE;

/**
 * The lesson's notes with `confidence` set from the tab notes they came from: the tab note on
 * the same string starting at the event's start (within 1.5 frames), else the one sounding there.
 * Dead notes (mute) and events no tab note explains get none: they were not heard as pitches.
 */
export function withConfidence(events: readonly NoteEvent[], tab: readonly TabNote[]): NoteEvent[] {
  const byString = new Map<number, TabNote[]>();
  for (const n of tab) {
    const list = byString.get(n.string) ?? [];
    list.push(n);
    byString.set(n.string, list);
  }
  return events.map((e) => {
    if (e.mute) return e;
    const list = byString.get(e.string) ?? [];
    let source: TabNote | undefined;
    let gap = Infinity;
    for (const n of list) {
      const d = Math.abs(n.time - e.time);
      if (d < gap) {
        gap = d;
        source = n;
      }
    }
    if (!source || gap > SAME_START) {
      source = list.find((n) => n.time <= e.time && e.time < n.endTime);
    }
    if (!source) return e;
    return { ...e, confidence: noteConfidence(source) };
  });
}
