import { type NoteEvent, plainNote } from '@riffscribe/core';

/** A plain note for tests: override only what the test is about. */
export function note(over: Partial<NoteEvent> & Pick<NoteEvent, 'time'>): NoteEvent {
  return plainNote({ end_time: over.time + 0.25, string: 3, fret: 5, ...over });
}

/** A curve in the spec's units for a note of `seconds`: points = floor(s*22050/256)+1. */
export function curve(seconds: number, at: (t: number) => number): number[] {
  const rate = 22050 / 256;
  const n = Math.floor(seconds * rate) + 1;
  return Array.from({ length: n }, (_, i) => at(i / rate));
}
