import { describe, expect, it } from 'vitest';
import { buildNoteIndex } from '../model/noteIndex';
import { note } from '../testing/notes';
import { stringY, timelineLayout } from '../timeline/layout';
import { hitTest, notesInRect } from './hitTest';

const layout = timelineLayout(300);
const index = buildNoteIndex([
  note({ time: 1, end_time: 1.5, string: 2, fret: 3 }),
  note({ time: 2, end_time: 2.4, string: 5, fret: 12 }),
]);
const chords = [{ time: 1, end_time: 2, chord: 'Am', event_type: 'chord' as const }];
const input = { index, chords, zoom: 100, layout };

describe('timeline hit testing', () => {
  it('finds a note by its fret number, and its end', () => {
    expect(hitTest(101, stringY(layout, 2), input)).toEqual({
      kind: 'note',
      index: 0,
      part: 'start',
    });
    expect(hitTest(150, stringY(layout, 2) + 2, input)).toEqual({
      kind: 'note',
      index: 0,
      part: 'end',
    });
    expect(hitTest(300, stringY(layout, 4), input)).toEqual({
      kind: 'string',
      string: 4,
      time: 3,
    });
  });

  it('finds a chord and its end in the chord lane', () => {
    expect(hitTest(120, layout.chordY, input)).toMatchObject({ kind: 'chord', part: 'body' });
    expect(hitTest(199, layout.chordY, input)).toMatchObject({ kind: 'chord', part: 'end' });
    expect(hitTest(400, layout.chordY, input)).toMatchObject({ kind: 'none' });
  });

  it('selects the notes inside a rectangle', () => {
    const all = { x0: 0, y0: 0, x1: 400, y1: layout.rulerY };
    expect(notesInRect(index, all, 100, layout)).toEqual([0, 1]);
    const first = { x0: 50, y0: 0, x1: 150, y1: layout.rulerY };
    expect(notesInRect(index, first, 100, layout)).toEqual([0]);
  });
});
