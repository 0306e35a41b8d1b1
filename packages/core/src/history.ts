import { UNDO_HISTORY } from './constants.js';

/**
 * Undo history of an editor (spec section 4: up to 100 steps). Generic over the document, which
 * is treated as immutable: each step keeps the documents before and after, so undo and redo are
 * exact whatever the edit did.
 */
export interface HistoryStep<D> {
  readonly label: string;
  readonly before: D;
  readonly after: D;
}

export interface History<D> {
  readonly doc: D;
  readonly past: readonly HistoryStep<D>[];
  readonly future: readonly HistoryStep<D>[];
  /** Steps applied since the last save (negative after undoing past it). */
  readonly unsaved: number;
}

export function createHistory<D>(doc: D): History<D> {
  return { doc, past: [], future: [], unsaved: 0 };
}

/**
 * Records `after` as the next document. An edit that changes nothing (the same object) leaves
 * the history as it was; the oldest step goes once there are more than `limit`.
 */
export function record<D>(
  history: History<D>,
  label: string,
  after: D,
  limit: number = UNDO_HISTORY,
): History<D> {
  if (after === history.doc) return history;
  const past = [...history.past, { label, before: history.doc, after }];
  return {
    doc: after,
    past: past.length > limit ? past.slice(past.length - limit) : past,
    future: [],
    unsaved: history.unsaved + 1,
  };
}

export function undo<D>(history: History<D>): History<D> {
  const step = history.past.at(-1);
  if (!step) return history;
  return {
    doc: step.before,
    past: history.past.slice(0, -1),
    future: [step, ...history.future],
    unsaved: history.unsaved - 1,
  };
}

export function redo<D>(history: History<D>): History<D> {
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
export function markSaved<D>(history: History<D>): History<D> {
  return { ...history, unsaved: 0 };
}

export const canUndo = <D>(h: History<D>) => h.past.length > 0;
export const canRedo = <D>(h: History<D>) => h.future.length > 0;
export const isDirty = <D>(h: History<D>) => h.unsaved !== 0;
