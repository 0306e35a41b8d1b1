import type { NoteEvent } from '@riffscribe/core';
import type { TabNote } from '../types.js';
import { FRAME_RATE } from '../units.js';
import { openPitch } from './fingering.js';

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

/** Tab notes this close to an event's start (seconds) are the note it came from. */
const SAME_START = 1.5 / FRAME_RATE;

/** How far back a note sounding at an event's start may have begun (seconds). */
const LONGEST_NOTE = 10;

/** The tab notes by string and by pitch, each in time order, for sourceTabNote. */
export interface TabIndex {
  byString: Map<number, TabNote[]>;
  byPitch: Map<number, TabNote[]>;
}

export function indexTab(tab: readonly TabNote[]): TabIndex {
  const byString = new Map<number, TabNote[]>();
  const byPitch = new Map<number, TabNote[]>();
  const add = (map: Map<number, TabNote[]>, key: number, n: TabNote) => {
    const list = map.get(key);
    if (list) list.push(n);
    else map.set(key, [n]);
  };
  for (const n of [...tab].sort((a, b) => a.time - b.time)) {
    add(byString, n.string, n);
    add(byPitch, n.pitch, n);
  }
  return { byString, byPitch };
}

/** Index of the first note of `list` (time order) starting at or after `time`. */
function firstFrom(list: readonly TabNote[], time: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid]?.time ?? 0) < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The tab note an event of the lesson came from: one starting at the event's start (within 1.5
 * frames), else one sounding there; on the event's string first, then of its pitch (a stage after
 * the tab may have moved the note to another string), the nearest in time. Undefined when none.
 */
export function sourceTabNote(
  event: NoteEvent,
  index: TabIndex,
  setup: { readonly tuning: readonly number[]; readonly capo: number },
): TabNote | undefined {
  const pitch = openPitch(setup, event.string) + event.fret;
  const lists = [index.byString.get(event.string) ?? [], index.byPitch.get(pitch) ?? []];
  const rank = (n: TabNote) =>
    (n.string === event.string ? 0 : n.pitch === pitch ? 1 : 2) * 10 +
    Math.abs(n.time - event.time);
  let best: TabNote | undefined;
  const consider = (n: TabNote) => {
    if (best === undefined || rank(n) < rank(best)) best = n;
  };
  for (const list of lists) {
    for (let k = firstFrom(list, event.time - SAME_START); k < list.length; k += 1) {
      const n = list[k];
      if (!n || n.time > event.time + SAME_START) break;
      consider(n);
    }
  }
  if (best) return best;
  for (const list of lists) {
    for (let k = firstFrom(list, event.time + 1e-9) - 1; k >= 0; k -= 1) {
      const n = list[k];
      if (!n || n.time < event.time - LONGEST_NOTE) break;
      if (event.time < n.endTime) consider(n);
    }
  }
  return best;
}

/**
 * The lesson's notes with `confidence` set from the tab notes they came from (sourceTabNote):
 * how clearly the model heard it struck, times the fingering model's probability of the string
 * the note is on now (after every stage that moved it). A pitched note no tab note explains gets
 * 0: nothing vouches for it, so the review queue shows it. Dead notes (mute) get none: they were
 * not heard as pitches.
 */
export function withConfidence(
  events: readonly NoteEvent[],
  tab: readonly TabNote[],
  setup: { readonly tuning: readonly number[]; readonly capo: number },
): NoteEvent[] {
  const index = indexTab(tab);
  return events.map((e) => {
    if (e.mute) return e;
    const source = sourceTabNote(e, index, setup);
    if (!source) return { ...e, confidence: 0 };
    const fingering =
      source.string === e.string
        ? source.fingeringProbability
        : (source.stringProbabilities?.[e.string - 1] ?? source.fingeringProbability);
    return {
      ...e,
      confidence: noteConfidence({
        onset: source.onset,
        ...(fingering === undefined ? {} : { fingeringProbability: fingering }),
      }),
    };
  });
}
