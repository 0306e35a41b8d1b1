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
  /**
   * The document as last saved (at first: as loaded). The history is dirty while its document is
   * another one, however it got there: counting steps since the save called "type 5, save, undo,
   * type 7" clean, and the 7 was never saved.
   */
  readonly saved: D;
}

export function createHistory<D>(doc: D): History<D> {
  return { doc, past: [], future: [], saved: doc };
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
    saved: history.saved,
  };
}

export function undo<D>(history: History<D>): History<D> {
  const step = history.past.at(-1);
  if (!step) return history;
  return {
    doc: step.before,
    past: history.past.slice(0, -1),
    future: [step, ...history.future],
    saved: history.saved,
  };
}

export function redo<D>(history: History<D>): History<D> {
  const step = history.future[0];
  if (!step) return history;
  return {
    doc: step.after,
    past: [...history.past, step],
    future: history.future.slice(1),
    saved: history.saved,
  };
}

/**
 * The history once `saved` (by default its document) is what the server holds: clean while the
 * document is that one, undo still available.
 */
export function markSaved<D>(history: History<D>, saved: D = history.doc): History<D> {
  return { ...history, saved };
}

export const canUndo = <D>(h: History<D>) => h.past.length > 0;
export const canRedo = <D>(h: History<D>) => h.future.length > 0;
export const isDirty = <D>(h: History<D>) => h.doc !== h.saved;
