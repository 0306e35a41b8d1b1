import { describe, expect, it } from 'vitest';
import {
  canRedo,
  canUndo,
  createHistory,
  isDirty,
  markSaved,
  record,
  redo,
  undo,
} from './history.js';

describe('undo history', () => {
  it('undoes and redoes exactly, and an edit after undo drops the redo', () => {
    let h = createHistory(0);
    h = record(h, 'one', 1);
    h = record(h, 'two', 2);
    expect(isDirty(h)).toBe(true);
    h = undo(h);
    expect(h.doc).toBe(1);
    expect(canRedo(h)).toBe(true);
    h = redo(h);
    expect(h.doc).toBe(2);
    h = undo(h);
    h = record(h, 'three', 3);
    expect(canRedo(h)).toBe(false);
    expect(h.past.map((s) => s.label)).toEqual(['one', 'three']);
    h = markSaved(h);
    expect(isDirty(h)).toBe(false);
    expect(canUndo(h)).toBe(true);
  });

  it('keeps at most 100 steps', () => {
    let h = createHistory(0);
    for (let k = 1; k <= 130; k += 1) h = record(h, `step ${String(k)}`, k);
    expect(h.past).toHaveLength(100);
    for (let k = 0; k < 150; k += 1) h = undo(h);
    // The oldest 30 steps are gone: undo stops at the document after step 30.
    expect(h.doc).toBe(30);
    expect(canUndo(h)).toBe(false);
  });

  it('tracks unsaved changes across save, undo and redo', () => {
    let h = record(createHistory(0), 'one', 1);
    h = markSaved(h);
    expect(isDirty(h)).toBe(false);
    h = undo(h);
    expect(isDirty(h)).toBe(true);
    h = redo(h);
    expect(isDirty(h)).toBe(false);
  });

  it('stays dirty after a save, an undo past it and a new edit (issue 37: the 7 was lost)', () => {
    let h = record(createHistory(0), 'fret 5', 5);
    h = markSaved(h);
    h = undo(h);
    h = record(h, 'fret 7', 7);
    expect(h.doc).toBe(7);
    expect(isDirty(h)).toBe(true);
    // Undoing the 7 leaves the original on screen while the server holds 5: still dirty.
    expect(isDirty(undo(h))).toBe(true);
  });

  it('counts as saved what was saved, even when edits came in during the save', () => {
    let h = record(createHistory(0), 'one', 1);
    const sent = h.doc;
    h = record(h, 'two', 2);
    h = markSaved(h, sent);
    expect(isDirty(h)).toBe(true);
    expect(isDirty(undo(h))).toBe(false);
  });

  it('records nothing for an edit that changes nothing', () => {
    const h = createHistory({ a: 1 });
    expect(record(h, 'none', h.doc)).toBe(h);
  });
});
