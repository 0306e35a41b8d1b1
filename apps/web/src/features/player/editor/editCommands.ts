import {
  addSuggestion,
  confirmNote,
  type ChordEvent,
  type NoteEvent,
  type RefingeredNote,
} from '@riffscribe/core';
import { sortEvents } from '../model/lesson';
import type { LessonDoc } from '../model/history';

/**
 * The editor's edits as pure functions of the document and the selection (indices into the sorted
 * notes or chords). Each returns the next document and where the edited events are now, so the
 * selection follows them through the re-sort. An edit that changes nothing returns the same
 * document object (the history then records nothing).
 */
export interface Edited {
  doc: LessonDoc;
  /** Indices of the edited notes in the new document. */
  notes: number[];
  /** Index of the edited chord in the new document, null when none. */
  chord: number | null;
}

/** Indices of `wanted` events (by identity) in `events`. */
function indicesOf<T>(events: readonly T[], wanted: ReadonlySet<T>): number[] {
  const out: number[] = [];
  events.forEach((e, i) => {
    if (wanted.has(e)) out.push(i);
  });
  return out;
}

/**
 * Replaces each selected note with `patch(note)`; a patch answering null (a refused edit, such
 * as a string move to a fret outside 0..24) leaves that note as it was. A note the patch changed
 * loses the AI's confidence: a person has looked at it, so it leaves the review queue.
 */
export function patchNotes(
  doc: LessonDoc,
  selected: readonly number[],
  patch: (note: NoteEvent) => NoteEvent | null,
): Edited {
  const chosen = new Set(selected);
  const kept = new Set<NoteEvent>();
  const notes = doc.notes.map((n, i) => {
    if (!chosen.has(i)) return n;
    const patched = patch(n) ?? n;
    const next = patched === n ? n : confirmNote(patched);
    kept.add(next);
    return next;
  });
  if (notes.every((n, i) => n === doc.notes[i])) return { doc, notes: [...selected], chord: null };
  const sorted = sortEvents(notes);
  return { doc: { ...doc, notes: sorted }, notes: indicesOf(sorted, kept), chord: null };
}

/**
 * Applies a re-fingering's answer (POST /api/refinger): each changed note replaces the note at
 * its index; the selection stays on the selected notes. One edit however many notes moved.
 */
export function applyRefingered(
  doc: LessonDoc,
  selected: readonly number[],
  changed: readonly RefingeredNote[],
): Edited {
  if (changed.length === 0) return { doc, notes: [...selected], chord: null };
  const byIndex = new Map(changed.map((c) => [c.index, c.note]));
  const notes = doc.notes.map((n, i) => byIndex.get(i) ?? n);
  const keep = new Set(selected.map((i) => notes[i]).filter((n) => n !== undefined));
  const sorted = sortEvents(notes);
  return { doc: { ...doc, notes: sorted }, notes: indicesOf(sorted, keep), chord: null };
}

/**
 * Writes the first technique the AI only suggested for the note at `index` onto the tab (the
 * review queue's "Add bend"): the note, and the note a slide or slur joins it to (core
 * addSuggestion). The note loses the AI's confidence (a person looked at it) but keeps its other
 * suggestions, which still wait for an answer. Same document when it has none.
 */
export function applySuggestion(doc: LessonDoc, index: number): Edited {
  const changed = addSuggestion(doc.notes, index);
  if (changed.length === 0) return { doc, notes: [index], chord: null };
  const byIndex = new Map(changed.map((c) => [c.index, c.note]));
  const reviewed = byIndex.get(index);
  if (reviewed) {
    const checked = { ...reviewed };
    delete checked.confidence;
    byIndex.set(index, checked);
  }
  const notes = doc.notes.map((n, i) => byIndex.get(i) ?? n);
  const keep = new Set([notes[index]].filter((n) => n !== undefined));
  const sorted = sortEvents(notes);
  return { doc: { ...doc, notes: sorted }, notes: indicesOf(sorted, keep), chord: null };
}

/** Adds notes; they become the selection. */
export function addNotes(doc: LessonDoc, added: readonly NoteEvent[]): Edited {
  if (added.length === 0) return { doc, notes: [], chord: null };
  const sorted = sortEvents([...doc.notes, ...added]);
  return { doc: { ...doc, notes: sorted }, notes: indicesOf(sorted, new Set(added)), chord: null };
}

/** Removes the selected notes. */
export function removeNotes(doc: LessonDoc, selected: readonly number[]): Edited {
  if (selected.length === 0) return { doc, notes: [], chord: null };
  const gone = new Set(selected);
  return {
    doc: { ...doc, notes: doc.notes.filter((_, i) => !gone.has(i)) },
    notes: [],
    chord: null,
  };
}

/** Replaces chord `k` with `next` (null refuses the edit); the chord stays selected. */
export function patchChord(doc: LessonDoc, k: number, next: ChordEvent | null): Edited {
  const old = doc.chords[k];
  if (!old || !next || next === old) return { doc, notes: [], chord: old ? k : null };
  const sorted = sortEvents(doc.chords.map((c, i) => (i === k ? next : c)));
  return { doc: { ...doc, chords: sorted }, notes: [], chord: sorted.indexOf(next) };
}

/** Adds a chord; it becomes the selection. */
export function addChord(doc: LessonDoc, chord: ChordEvent | null): Edited {
  if (!chord) return { doc, notes: [], chord: null };
  const sorted = sortEvents([...doc.chords, chord]);
  return { doc: { ...doc, chords: sorted }, notes: [], chord: sorted.indexOf(chord) };
}

/** Removes chord `k`. */
export function removeChord(doc: LessonDoc, k: number): Edited {
  if (!doc.chords[k]) return { doc, notes: [], chord: null };
  return { doc: { ...doc, chords: doc.chords.filter((_, i) => i !== k) }, notes: [], chord: null };
}
