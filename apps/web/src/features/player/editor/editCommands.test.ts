import { describe, expect, it } from 'vitest';
import { note } from '../testing/notes';
import {
  addChord,
  addNotes,
  applyRefingered,
  patchChord,
  patchNotes,
  removeChord,
  removeNotes,
} from './editCommands';

const doc = {
  notes: [note({ time: 1 }), note({ time: 2 }), note({ time: 3 })],
  chords: [
    { time: 1, end_time: 2, chord: 'C', event_type: 'chord' as const },
    { time: 3, end_time: 4, chord: 'G', event_type: 'chord' as const },
  ],
};

describe('editor commands', () => {
  it('keeps the selection on the edited notes through the re-sort', () => {
    const r = patchNotes(doc, [0], (n) => ({ ...n, time: 2.5, end_time: 2.7 }));
    expect(r.doc.notes.map((n) => n.time)).toEqual([2, 2.5, 3]);
    expect(r.notes).toEqual([1]);
  });

  it('returns the same document when nothing changes or the rule refuses', () => {
    expect(patchNotes(doc, [0, 1], (n) => n).doc).toBe(doc);
    expect(patchNotes(doc, [0], () => null).doc).toBe(doc);
    expect(patchChord(doc, 0, null).doc).toBe(doc);
  });

  it('adds, removes and selects notes and chords', () => {
    const added = addNotes(doc, [note({ time: 0.5 })]);
    expect(added.notes).toEqual([0]);
    expect(removeNotes(added.doc, [0, 3]).doc.notes.map((n) => n.time)).toEqual([1, 2]);
    const chord = { time: 2, end_time: 2.6, chord: 'Am', event_type: 'chord' as const };
    const withChord = addChord(doc, chord);
    expect(withChord.chord).toBe(1);
    expect(removeChord(withChord.doc, 1).doc.chords.map((c) => c.chord)).toEqual(['C', 'G']);
    const moved = patchChord(doc, 0, { ...doc.chords[0]!, time: 3.5, end_time: 4 });
    expect(moved.chord).toBe(1);
  });

  it('applies a re-fingering as one edit, the selection kept on the selected notes', () => {
    const d = {
      notes: [note({ time: 1, string: 3, fret: 2 }), note({ time: 2, string: 2, fret: 1 })],
      chords: [],
    };
    const moved = { ...d.notes[1]!, string: 3, fret: 5 };
    const r = applyRefingered(d, [1], [{ index: 1, note: moved }]);
    expect(r.doc.notes[1]).toBe(moved);
    expect(r.doc.notes[0]).toBe(d.notes[0]);
    expect(r.notes).toEqual([1]);
    // Nothing changed: the same document (the history records nothing).
    expect(applyRefingered(d, [0], []).doc).toBe(d);
  });
});
