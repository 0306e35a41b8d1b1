import { type NoteEvent, plainNote } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { renderAsciiTab } from './ascii-tab.js';

function note(
  time: number,
  string: number,
  fret: number,
  extra: Partial<NoteEvent> = {},
): NoteEvent {
  return plainNote({ time, end_time: time + 0.25, string, fret, ...extra });
}

const standard = { tuning: [40, 45, 50, 55, 59, 64], capo: 0 };

describe('renderAsciiTab', () => {
  it('writes one line per string, high e on top, with a chord in one column', () => {
    const text = renderAsciiTab(
      [note(0, 5, 3), note(0.01, 4, 2), note(0.02, 2, 1)],
      [{ time: 0, end_time: 1, chord: 'C', event_type: 'chord' }],
      standard,
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('0.0s');
    expect(lines[1]?.trim()).toBe('C');
    expect(lines.slice(2, 8)).toEqual([
      'E |---|',
      'B |-1-|',
      'G |---|',
      'D |-2-|',
      'A |-3-|',
      'E |---|',
    ]);
  });

  it('writes techniques the usual way', () => {
    const text = renderAsciiTab(
      [
        note(0, 3, 5, { trailing_hammer_on: true }),
        note(0.3, 3, 7, { leading_hammer_on: true, trailing_slide: true }),
        note(0.6, 3, 9, { leading_slide: true, trailing_pull_off: true }),
        note(0.9, 3, 7, { leading_pull_off: true, bend_to_fret: 9, release_to_fret: 7 }),
        note(1.2, 3, 0, { mute: true }),
        note(1.5, 3, 5, { vibrato: 'big' }),
      ],
      [],
      standard,
    );
    expect(text).toContain('G |-5h-7/-9p-7b9r7-x-5~-|');
  });

  it('labels strings by the sounding pitch with a capo and wraps long passages', () => {
    const notes = Array.from({ length: 60 }, (_, i) => note(i * 0.2, 1, i % 12));
    const text = renderAsciiTab(notes, [], {
      tuning: [38, 45, 50, 55, 59, 64],
      capo: 2,
      width: 40,
    });
    expect(text.split('\n').filter((l) => l.startsWith('E '))).not.toHaveLength(0);
    expect(text.split('\n').filter((l) => l.startsWith('F#')).length).toBeGreaterThan(0);
    expect(text.split('\n').filter((l) => l.endsWith('s')).length).toBeGreaterThan(1);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(45);
  });

  it('says so when there are no notes', () => {
    expect(renderAsciiTab([], [], standard)).toBe('(no notes)\n');
  });
});
