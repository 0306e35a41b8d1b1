import {
  UNDO_HISTORY,
  canRedo,
  canUndo,
  createHistory as createCoreHistory,
  isDirty,
  markSaved,
  record,
  redo,
  undo,
  type ChordEvent,
  type History as CoreHistory,
  type NoteEvent,
} from '@riffscribe/core';
import { sortEvents } from './lesson';

/** The editable content of a lesson: its notes and chords, each sorted by time. */
export interface LessonDoc {
  readonly notes: readonly NoteEvent[];
  readonly chords: readonly ChordEvent[];
}

/**
 * One edit: a pure function from a document to the next. Commands never mutate; the history keeps
 * the documents before and after, so undo and redo are exact whatever the command did.
 */
export interface Command {
  readonly label: string;
  apply(doc: LessonDoc): LessonDoc;
}

/** The lesson's history: at most UNDO_HISTORY steps back (packages/core's history). */
export type History = CoreHistory<LessonDoc>;

export { canRedo, canUndo, isDirty, markSaved, redo, undo };

/** A history of the lesson's document with nothing to undo yet. */
export const createHistory = (doc: LessonDoc): History => createCoreHistory(doc);

/** Applies a command; a command that changes nothing leaves the history as it was. */
export function execute(history: History, command: Command): History {
  return record(history, command.label, command.apply(history.doc), UNDO_HISTORY);
}

/** Replaces the notes at `indices` with `patch` applied to each, keeping the list sorted. */
export function updateNotes(
  label: string,
  indices: readonly number[],
  patch: (note: NoteEvent) => NoteEvent,
): Command {
  return {
    label,
    apply(doc) {
      if (indices.length === 0) return doc;
      const wanted = new Set(indices);
      const notes = doc.notes.map((n, i) => (wanted.has(i) ? patch(n) : n));
      return { ...doc, notes: sortEvents(notes) };
    },
  };
}

/** Adds notes (kept sorted by time). */
export function insertNotes(label: string, added: readonly NoteEvent[]): Command {
  return {
    label,
    apply: (doc) =>
      added.length === 0 ? doc : { ...doc, notes: sortEvents([...doc.notes, ...added]) },
  };
}

/** Removes the notes at `indices`. */
export function deleteNotes(label: string, indices: readonly number[]): Command {
  return {
    label,
    apply(doc) {
      if (indices.length === 0) return doc;
      const gone = new Set(indices);
      return { ...doc, notes: doc.notes.filter((_, i) => !gone.has(i)) };
    },
  };
}

/** Replaces the chords with another list (kept sorted by time). */
export function replaceChords(label: string, chords: readonly ChordEvent[]): Command {
  return { label, apply: (doc) => ({ ...doc, chords: sortEvents(chords) }) };
}
