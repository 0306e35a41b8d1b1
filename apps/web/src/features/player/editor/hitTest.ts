import { STRING_COUNT, type ChordEvent } from '@riffscribe/core';
import { windowRange, type NoteIndex } from '../model/noteIndex';
import { fretHalfWidth } from '../timeline/glyphs';
import { stringY, type TimelineLayout } from '../timeline/layout';

/**
 * What is under the pointer on the timeline, in content coordinates (x = time * zoom, CSS px):
 * a note's fret number (its start) or the end of its line, a chord name or its end, a string
 * line at some time, or nothing.
 */
export type Hit =
  | { kind: 'note'; index: number; part: 'start' | 'end' }
  | { kind: 'chord'; index: number; part: 'body' | 'end' }
  | { kind: 'string'; string: number; time: number }
  | { kind: 'none'; time: number };

/** How near (CSS px) the pointer must be to a note's end to grab it. */
const END_GRAB_PX = 5;

/** The string whose line is nearest `y`, if it is within half a string gap. */
export function stringAt(y: number, layout: TimelineLayout): number | null {
  const s = Math.round((y - layout.firstStringY) / layout.stringGap) + 1;
  if (s < 1 || s > STRING_COUNT) return null;
  return Math.abs(y - stringY(layout, s)) <= layout.stringGap / 2 ? s : null;
}

export function hitTest(
  x: number,
  y: number,
  input: { index: NoteIndex; chords: readonly ChordEvent[]; zoom: number; layout: TimelineLayout },
): Hit {
  const { index, chords, zoom, layout } = input;
  const time = x / zoom;
  if (Math.abs(y - layout.chordY) <= 12) {
    for (let k = chords.length - 1; k >= 0; k -= 1) {
      const c = chords[k];
      if (!c) continue;
      const x0 = c.time * zoom;
      const x1 = c.end_time * zoom;
      if (x >= x0 - 2 && x <= x1 + 3) {
        return { kind: 'chord', index: k, part: x >= x1 - END_GRAB_PX ? 'end' : 'body' };
      }
    }
    return { kind: 'none', time };
  }
  const string = stringAt(y, layout);
  if (string === null) return { kind: 'none', time };
  const slack = 30 / zoom;
  const [from, to] = windowRange(index, time - slack, time + slack);
  let end: number | null = null;
  for (let i = to - 1; i >= from; i -= 1) {
    const n = index.notes[i];
    if (n?.string !== string) continue;
    const text = n.mute ? 'X' : String(n.fret);
    if (Math.abs(x - n.time * zoom) <= fretHalfWidth(text) + 2) {
      return { kind: 'note', index: i, part: 'start' };
    }
    if (end === null && Math.abs(x - n.end_time * zoom) <= END_GRAB_PX) end = i;
  }
  if (end !== null) return { kind: 'note', index: end, part: 'end' };
  return { kind: 'string', string, time };
}

/** Indices of the notes whose fret number lies inside the rectangle (content coordinates). */
export function notesInRect(
  index: NoteIndex,
  rect: { x0: number; y0: number; x1: number; y1: number },
  zoom: number,
  layout: TimelineLayout,
): number[] {
  const left = Math.min(rect.x0, rect.x1);
  const right = Math.max(rect.x0, rect.x1);
  const top = Math.min(rect.y0, rect.y1);
  const bottom = Math.max(rect.y0, rect.y1);
  const out: number[] = [];
  const [from, to] = windowRange(index, left / zoom, right / zoom);
  for (let i = from; i < to; i += 1) {
    const n = index.notes[i];
    if (!n) continue;
    const x = n.time * zoom;
    const y = stringY(layout, n.string);
    if (x >= left && x <= right && y >= top && y <= bottom) out.push(i);
  }
  return out;
}
