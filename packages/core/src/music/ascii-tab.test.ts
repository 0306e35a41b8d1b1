import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { plainNote, type ChordEvent, type NoteEvent } from '../events.js';
import { steadyGrid } from './beats.js';
import { stringNames, toAsciiTab } from './ascii-tab.js';
import type { NotationMeta } from './written.js';
import { scoreOf } from './score.js';

/** Re-accept the golden file on purpose: UPDATE_GOLDEN=1 npx vitest run --project unit <this file>. */
const GOLDEN = new URL('./testdata/a-minor-lick.tab.txt', import.meta.url);

const n = (
  time: number,
  end: number,
  string: number,
  fret: number,
  more: Partial<NoteEvent> = {},
) => plainNote({ time, end_time: end, string, fret, ...more });

/**
 * A hand-built A minor lick at 120 bpm in 4/4 (a beat is 0.5 s): an Am chord, a hammer-on, a
 * bend and release, a pull-off, a slide up, a dead note, a note held with vibrato over the bar
 * line, a triplet pull-off run, a slide out, and a final dyad.
 */
const LICK: NoteEvent[] = [
  // Bar 1: Am (x02210) as a quarter.
  n(0, 0.5, 5, 0),
  n(0, 0.5, 4, 2),
  n(0, 0.5, 3, 2),
  n(0, 0.5, 2, 1),
  n(0, 0.5, 1, 0),
  // 5h7 on the G string, eighths.
  n(0.5, 0.75, 3, 5, { trailing_hammer_on: true }),
  n(0.75, 1, 3, 7, { leading_hammer_on: true }),
  // 8b10r8 on the B string, a quarter.
  n(1, 1.5, 2, 8, { bend_to_fret: 10, release_to_fret: 8 }),
  // 8p5 on the B string, eighths.
  n(1.5, 1.75, 2, 8, { trailing_pull_off: true }),
  n(1.75, 2, 2, 5, { leading_pull_off: true }),
  // Bar 2: 5/7 on the D string, quarters; a dead note on the low E, a rest.
  n(2, 2.5, 4, 5, { trailing_slide: true }),
  n(2.5, 3, 4, 7, { leading_slide: true }),
  n(3, 3.25, 6, 3, { mute: true }),
  // Held from the last eighth of bar 2 over the bar line for a half note, with big vibrato.
  n(3.5, 5, 1, 5, { vibrato: 'big' }),
  // Bar 3: an eighth-note triplet 8p5 on the e string to 8 on the B string, then a slide out.
  n(5, 5.1667, 1, 8, { trailing_pull_off: true }),
  n(5.1667, 5.3333, 1, 5, { leading_pull_off: true }),
  n(5.3333, 5.5, 2, 8),
  n(5.5, 6, 2, 10, { trailing_slide: true }),
  // Bar 4: an A5 dyad, a whole note.
  n(6, 8, 5, 0),
  n(6, 8, 4, 2),
];

const CHORDS: ChordEvent[] = [
  { time: 0, end_time: 2, chord: 'Am', event_type: 'chord' },
  { time: 2, end_time: 3, chord: 'D', event_type: 'chord' },
  { time: 3, end_time: 4, chord: 'Em', event_type: 'chord' },
  { time: 6, end_time: 8, chord: 'A5', event_type: 'chord' },
];

const META: NotationMeta = {
  title: 'A minor lick',
  tuning: [40, 45, 50, 55, 59, 64],
  capo: 0,
  chords: CHORDS,
};

describe('toAsciiTab', () => {
  it('writes the hand-built lesson as its golden file', () => {
    const text = toAsciiTab(scoreOf(LICK, steadyGrid(120, 4, 8)), LICK, META);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('keeps every line within the width, breaking only at bar lines', () => {
    const long = Array.from({ length: 12 }, (_, k) =>
      LICK.map((x) => ({ ...x, time: x.time + 8 * k, end_time: x.end_time + 8 * k })),
    );
    const notes = long.flat();
    const text = toAsciiTab(scoreOf(notes, steadyGrid(120, 4, 96)), notes, META);
    const lines = text.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    for (const line of lines.filter((l) => /^[a-zA-Z#]+ *\|/.test(l)))
      expect(line.endsWith('|')).toBe(true);
    // 48 bars, each closed once on each of the six strings.
    const bars =
      lines
        .filter((l) => l.startsWith('e|'))
        .join('')
        .split('|').length - 1;
    expect(bars - lines.filter((l) => l.startsWith('e|')).length).toBe(48);
  });

  it('names the strings from the tuning, high e on top, with the capo and tempo in the header', () => {
    expect(stringNames([40, 45, 50, 55, 59, 64])).toEqual(['e', 'B', 'G', 'D', 'A', 'E']);
    expect(stringNames([38, 45, 50, 55, 59, 64])).toEqual(['E', 'B', 'G', 'D', 'A', 'D']);
    expect(stringNames([38, 45, 50, 55, 57, 62])).toEqual(['d', 'A', 'G', 'D', 'A', 'D']);
    const notes = [n(0, 1, 6, 0)];
    const text = toAsciiTab(scoreOf(notes, steadyGrid(90, 3, 2)), notes, {
      title: 'Drop D',
      tuning: [38, 45, 50, 55, 59, 64],
      capo: 3,
    });
    expect(text).toContain('Tuning: Drop D (D A D G B E, low to high)');
    expect(text).toContain('Capo: fret 3 (fret numbers count from the capo)');
    expect(text).toContain('Tempo: 90 bpm');
    expect(text).toContain('Time: 3/4');
    expect(
      text
        .split('\n')
        .filter((l) => /^[EBGDA] *\|/.test(l))
        .map((l) => l[0]),
    ).toEqual(['E', 'B', 'G', 'D', 'A', 'D']);
  });
});
