import {
  canRedo,
  canUndo,
  createHistory as createCoreHistory,
  isDirty,
  markSaved,
  redo,
  undo,
  type BeatGrid,
  type ChordEvent,
  type History as CoreHistory,
  type NoteEvent,
} from '@riffscribe/core';

/**
 * The editable content of a lesson: its notes and chords, each sorted by time, and its beats and
 * bars (absent until they are loaded; the bar-line corrections edit them).
 */
export interface LessonDoc {
  readonly notes: readonly NoteEvent[];
  readonly chords: readonly ChordEvent[];
  readonly beats?: BeatGrid | undefined;
}

/**
 * The lesson's history (packages/core's, at most UNDO_HISTORY steps back); the editor's commands
 * (editor/editCommands.ts) record into it.
 */
export type History = CoreHistory<LessonDoc>;

export { canRedo, canUndo, isDirty, markSaved, redo, undo };

/** A history of the lesson's document with nothing to undo yet. */
export const createHistory = (doc: LessonDoc): History => createCoreHistory(doc);
