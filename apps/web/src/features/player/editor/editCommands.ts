import type { ChordEvent, NoteEvent } from '@riffscribe/core';
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
 * as a string move to a fret outside 0..24) leaves that note as it was.
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
    const next = patch(n) ?? n;
    kept.add(next);
    return next;
  });
  if (notes.every((n, i) => n === doc.notes[i])) return { doc, notes: [...selected], chord: null };
  const sorted = sortEvents(notes);
  return { doc: { ...doc, notes: sorted }, notes: indicesOf(sorted, kept), chord: null };
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
