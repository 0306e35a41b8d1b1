import { UNDO_HISTORY, type ChordEvent, type NoteEvent } from '@riffscribe/core';
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

interface Step {
  readonly label: string;
  readonly before: LessonDoc;
  readonly after: LessonDoc;
}

/** A document with its undo and redo stacks (at most UNDO_HISTORY steps back). */
export interface History {
  readonly doc: LessonDoc;
  readonly past: readonly Step[];
  readonly future: readonly Step[];
  /** Steps applied since the last save (negative after undoing past it). */
  readonly unsaved: number;
}

export function createHistory(doc: LessonDoc): History {
  return { doc, past: [], future: [], unsaved: 0 };
}

/** Applies a command; a command that changes nothing leaves the history as it was. */
export function execute(history: History, command: Command): History {
  const after = command.apply(history.doc);
  if (after === history.doc) return history;
  const past = [...history.past, { label: command.label, before: history.doc, after }];
  return {
    doc: after,
    past: past.length > UNDO_HISTORY ? past.slice(past.length - UNDO_HISTORY) : past,
    future: [],
    unsaved: history.unsaved + 1,
  };
}

export function undo(history: History): History {
  const step = history.past.at(-1);
  if (!step) return history;
  return {
    doc: step.before,
    past: history.past.slice(0, -1),
    future: [step, ...history.future],
    unsaved: history.unsaved - 1,
  };
}

export function redo(history: History): History {
  const step = history.future[0];
  if (!step) return history;
  return {
    doc: step.after,
    past: [...history.past, step],
    future: history.future.slice(1),
    unsaved: history.unsaved + 1,
  };
}

/** The history after its document was saved: nothing unsaved, undo still available. */
export function markSaved(history: History): History {
  return { ...history, unsaved: 0 };
}

export const canUndo = (h: History) => h.past.length > 0;
export const canRedo = (h: History) => h.future.length > 0;
export const isDirty = (h: History) => h.unsaved !== 0;

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
