import { UNDO_HISTORY } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { note } from '../testing/notes';
import {
  canRedo,
  canUndo,
  createHistory,
  deleteNotes,
  execute,
  insertNotes,
  isDirty,
  markSaved,
  redo,
  replaceChords,
  undo,
  updateNotes,
} from './history';

const doc = { notes: [note({ time: 1 }), note({ time: 2 })], chords: [] };

describe('history of commands', () => {
  it('applies, undoes and redoes exactly', () => {
    let h = createHistory(doc);
    h = execute(
      h,
      updateNotes('move', [0], (n) => ({ ...n, time: 3, end_time: 3.2 })),
    );
    expect(h.doc.notes.map((n) => n.time)).toEqual([2, 3]);
    h = execute(h, insertNotes('add', [note({ time: 0.5 })]));
    expect(h.doc.notes.map((n) => n.time)).toEqual([0.5, 2, 3]);
    h = undo(h);
    expect(h.doc.notes.map((n) => n.time)).toEqual([2, 3]);
    h = undo(h);
    expect(h.doc).toBe(doc);
    expect(canUndo(h)).toBe(false);
    h = redo(h);
    expect(h.doc.notes.map((n) => n.time)).toEqual([2, 3]);
    expect(canRedo(h)).toBe(true);
  });

  it('drops the redo stack on a new edit and ignores edits that change nothing', () => {
    let h = execute(createHistory(doc), deleteNotes('delete', [1]));
    h = undo(h);
    h = execute(
      h,
      replaceChords('chords', [{ time: 0, end_time: 1, chord: 'E', event_type: 'chord' }]),
    );
    expect(canRedo(h)).toBe(false);
    expect(execute(h, deleteNotes('none', []))).toBe(h);
  });

  it('keeps at most 100 steps', () => {
    let h = createHistory(doc);
    for (let k = 0; k < UNDO_HISTORY + 20; k += 1) {
      h = execute(
        h,
        updateNotes('nudge', [0], (n) => ({ ...n, fret: (n.fret + 1) % 24 })),
      );
    }
    expect(h.past.length).toBe(UNDO_HISTORY);
  });

  it('tracks unsaved changes across save, undo and redo', () => {
    let h = execute(createHistory(doc), deleteNotes('delete', [0]));
    expect(isDirty(h)).toBe(true);
    h = markSaved(h);
    expect(isDirty(h)).toBe(false);
    h = undo(h);
    expect(isDirty(h)).toBe(true);
    h = redo(h);
    expect(isDirty(h)).toBe(false);
  });
});
