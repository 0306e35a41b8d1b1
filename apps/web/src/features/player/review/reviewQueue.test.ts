import { DEFAULT_TUNING, plainNote, type NoteEvent } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { pickPosition, positionPoint } from '../fretboard/geometry';
import { patchNotes } from '../editor/editCommands';
import { doubtfulCount, fretChoice, nextDoubtful, reviewLoop } from './reviewQueue';

const n = (time: number, confidence?: number, string = 3, fret = 5): NoteEvent =>
  plainNote({
    time,
    end_time: time + 0.2,
    string,
    fret,
    ...(confidence === undefined ? {} : { confidence }),
  });

// Doubtful: 1 (0.2), 3 (0.1), 5 (0.45). Sure: 0 (0.9), 4 (0.5: the threshold itself). 2: checked.
const notes = [n(0, 0.9), n(1, 0.2), n(2), n(3, 0.1), n(4, 0.5), n(5, 0.45)];

describe('review queue', () => {
  it('counts the doubtful notes', () => {
    expect(doubtfulCount(notes)).toBe(3);
    expect(doubtfulCount([])).toBe(0);
  });

  it('goes from the selected note to the next doubtful one, wrapping around', () => {
    expect(nextDoubtful(notes, 1, 0)).toBe(3);
    expect(nextDoubtful(notes, 3, 0)).toBe(5);
    expect(nextDoubtful(notes, 5, 0)).toBe(1);
    expect(nextDoubtful(notes, 3, 0, -1)).toBe(1);
    expect(nextDoubtful(notes, 1, 0, -1)).toBe(5);
  });

  it('without a selection starts at the playhead', () => {
    expect(nextDoubtful(notes, null, 0)).toBe(1);
    expect(nextDoubtful(notes, null, 2.5)).toBe(3);
    expect(nextDoubtful(notes, null, 3)).toBe(3);
    expect(nextDoubtful(notes, null, 9)).toBe(1);
    expect(nextDoubtful(notes, null, 4, -1)).toBe(3);
  });

  it('finds nothing once every note is checked, and the counter drops as notes are edited', () => {
    expect(nextDoubtful([n(0, 0.9), n(1)], null, 0)).toBeNull();
    expect(nextDoubtful([], null, 0)).toBeNull();
    // Any edit of a note (here its fret) makes it checked: it leaves the queue.
    const doc = { notes, chords: [] };
    const edited = patchNotes(doc, [3], (x) => ({ ...x, fret: 7 }));
    expect(doubtfulCount(edited.doc.notes)).toBe(2);
    expect(nextDoubtful(edited.doc.notes, 1, 0)).toBe(5);
  });

  it('loops 2 s centred on the note, kept inside the video', () => {
    expect(reviewLoop({ time: 5, end_time: 5.2 }, 30)).toEqual({ start: 4.1, end: 6.1 });
    expect(reviewLoop({ time: 0.2, end_time: 0.4 }, 30)).toEqual({ start: 0, end: 2 });
    const end = reviewLoop({ time: 29.8, end_time: 30 }, 30);
    expect(end.start).toBeCloseTo(28, 9);
    expect(end.end).toBeCloseTo(30, 9);
    // A long note: the loop centres on its first 2 s.
    expect(reviewLoop({ time: 10, end_time: 14 }, 30)).toEqual({ start: 10, end: 12 });
    // A clip shorter than 2 s loops whole.
    expect(reviewLoop({ time: 0.5, end_time: 0.7 }, 1.5)).toEqual({ start: 0, end: 1.5 });
  });
});

describe('fretboard choices', () => {
  it('offers the other places of the pitch on the 22-fret neck above the capo', () => {
    // B3 (59) = string 2 open; 4 on G, 9 on D, 14 on A, 19 on low E.
    const choice = fretChoice(n(1, 0.2, 2, 0), DEFAULT_TUNING, 0);
    expect(choice.current).toEqual({ string: 2, fret: 0 });
    expect(choice.others).toEqual([
      { string: 3, fret: 4 },
      { string: 4, fret: 9 },
      { string: 5, fret: 14 },
      { string: 6, fret: 19 },
    ]);
    // Capo 5: only 17 frets are left above it, so 19 on the low E is off the neck.
    expect(fretChoice(n(1, 0.2, 2, 0), DEFAULT_TUNING, 5).others).toHaveLength(3);
  });

  it('offers nothing for a dead note', () => {
    expect(fretChoice({ ...n(1, 0.2, 2, 3), mute: true }, DEFAULT_TUNING, 0).others).toEqual([]);
  });

  it('picks the place whose dot is clicked, none between dots', () => {
    const box = { width: 600, height: 160 };
    const places = fretChoice(n(1, 0.2, 2, 0), DEFAULT_TUNING, 2).others;
    for (const p of places) {
      const at = positionPoint(p, 2, box);
      expect(pickPosition(at.x + 3, at.y - 2, places, 2, box)).toEqual(p);
    }
    const a = positionPoint({ string: 3, fret: 4 }, 2, box);
    expect(pickPosition(a.x + 40, a.y, places, 2, box)).toBeNull();
  });
});
