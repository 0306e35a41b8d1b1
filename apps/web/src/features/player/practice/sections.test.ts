import { MAX_SECTIONS, steadyGrid, type BeatGrid } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import {
  barsPerSection,
  defaultSectionName,
  sectionNameProblem,
  sectionOfLoop,
  sortSections,
  stepSection,
  suggestSections,
} from './sections';

/** 4/4 at 120: a bar every 2 s from 0 (the server's grid for a lesson without beats). */
const steady = (duration: number): BeatGrid => steadyGrid(120, 4, duration);

describe('suggested sections', () => {
  it('cuts every 4 bars, the last one ending at the lesson’s end', () => {
    // 10 bars: 1–4, 5–8, 9–10 (two bars: half a section, kept apart).
    expect(suggestSections(steady(20), 20)).toEqual([
      { name: 'Bars 1–4', start: 0, end: 8 },
      { name: 'Bars 5–8', start: 8, end: 16 },
      { name: 'Bars 9–10', start: 16, end: 20 },
    ]);
  });

  it('joins a remainder of less than half a section to the one before', () => {
    // 9 bars and a bit: the 9th joins bars 5–8; a lesson ending mid-bar ends the last section.
    expect(suggestSections(steady(17.5), 17.5)).toEqual([
      { name: 'Bars 1–4', start: 0, end: 8 },
      { name: 'Bars 5–9', start: 8, end: 17.5 },
    ]);
    expect(suggestSections(steady(5), 5)).toEqual([{ name: 'Bars 1–3', start: 0, end: 5 }]);
    expect(suggestSections(steady(1.5), 1.5)).toEqual([{ name: 'Bar 1', start: 0, end: 1.5 }]);
  });

  it('cuts every 8 bars in a long lesson, and never more than the server keeps', () => {
    expect(barsPerSection(32)).toBe(4);
    expect(barsPerSection(33)).toBe(8);
    expect(barsPerSection(800)).toBe(8);
    expect(barsPerSection(801)).toBe(12);
    // 40 bars (80 s): five sections of 8.
    const long = suggestSections(steady(80), 80);
    expect(long.map((s) => s.name)).toEqual([
      'Bars 1–8',
      'Bars 9–16',
      'Bars 17–24',
      'Bars 25–32',
      'Bars 33–40',
    ]);
    expect(long[1]).toEqual({ name: 'Bars 9–16', start: 16, end: 32 });
    // An hour at 240 beats a minute (3,600 bars of 4).
    const hour = suggestSections(steadyGrid(240, 4, 3600), 3600);
    expect(hour.length).toBeLessThanOrEqual(MAX_SECTIONS);
    expect(hour[hour.length - 1]?.end).toBe(3600);
  });

  it('follows a grid whose tempo and metre change, a pickup opening the first section', () => {
    // A one-beat pickup at 0.5 s, then 3/4 bars at 1, 2.5, 4, 5.8, 7.6 (slowing down); then the
    // same beats in 2/4.
    const grid: BeatGrid = {
      beats: [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.6, 5.2, 5.8, 6.4, 7, 7.6, 8.2, 8.8],
      downbeats: [1, 4, 7, 10, 13],
      beat_unit: 4,
    };
    expect(suggestSections(grid, 9.4)).toEqual([{ name: 'Bars 1–5', start: 0.5, end: 9.4 }]);
    expect(suggestSections({ ...grid, downbeats: [1, 3, 5, 7, 9, 11, 13, 15] }, 9.4)).toEqual([
      { name: 'Bars 1–4', start: 0.5, end: 5.2 },
      { name: 'Bars 5–8', start: 5.2, end: 9.4 },
    ]);
  });

  it('ignores bars past the lesson’s end, and suggests nothing without a grid', () => {
    // The grid runs on to 30 s, the lesson is 6 s long.
    expect(suggestSections(steady(30), 6)).toEqual([{ name: 'Bars 1–3', start: 0, end: 6 }]);
    expect(suggestSections(undefined, 20)).toEqual([]);
    // Unknown duration: up to the grid's last beat.
    expect(suggestSections(steady(8), 0)).toEqual([{ name: 'Bars 1–4', start: 0, end: 8 }]);
  });
});

describe('moving between sections', () => {
  const list = [
    { id: 'c', name: 'C', start: 8, end: 12 },
    { id: 'a', name: 'A', start: 0, end: 4 },
    { id: 'b', name: 'B', start: 4, end: 8 },
  ];

  it('sorts by start, then end', () => {
    expect(sortSections(list).map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(
      sortSections([
        { name: 'long', start: 1, end: 9 },
        { name: 'short', start: 1, end: 2 },
      ]).map((s) => s.name),
    ).toEqual(['short', 'long']);
  });

  it('steps from the section the loop is set to', () => {
    const loopB = { start: 4, end: 8 };
    expect(stepSection(list, 1, 7.9, loopB)?.id).toBe('c');
    expect(stepSection(list, -1, 7.9, loopB)?.id).toBe('a');
    expect(sectionOfLoop(list, loopB)?.id).toBe('b');
    expect(sectionOfLoop(list, { start: 4, end: 7 })).toBeNull();
    // At either end nothing: no wrapping around.
    expect(stepSection(list, 1, 8, { start: 8, end: 12 })).toBeNull();
    expect(stepSection(list, -1, 0, { start: 0, end: 4 })).toBeNull();
  });

  it('steps from the playhead when the loop is not a section', () => {
    expect(stepSection(list, 1, 5, null)?.id).toBe('c');
    expect(stepSection(list, -1, 5, null)?.id).toBe('a');
    // Just after a jump to a section's start, that section is the current one.
    expect(stepSection(list, 1, 4.0004, { start: 1, end: 2 })?.id).toBe('c');
    expect(stepSection(list, -1, 3.9996, null)?.id).toBe('a');
    // Before the first section (one that starts later than the lesson).
    const late = list.map((s) => ({ ...s, start: s.start + 1 }));
    expect(stepSection(late, 1, 0.5, null)?.id).toBe('a');
    expect(stepSection(late, -1, 0.5, null)).toBeNull();
    expect(stepSection([], 1, 0, null)).toBeNull();
  });
});

describe('section names', () => {
  it('numbers new sections after the ones there, skipping a taken name', () => {
    expect(defaultSectionName([])).toBe('Section 1');
    expect(defaultSectionName([{ name: 'Verse', start: 0, end: 1 }])).toBe('Section 2');
    expect(
      defaultSectionName([
        { name: 'Section 2', start: 0, end: 1 },
        { name: 'Section 3', start: 1, end: 2 },
      ]),
    ).toBe('Section 4');
  });

  it('checks a name as the server does', () => {
    expect(sectionNameProblem('  Verse ')).toBeNull();
    expect(sectionNameProblem('   ')).toBe('Each section needs a name.');
    expect(sectionNameProblem('x'.repeat(61))).toBe('A section name can be at most 60 characters.');
    expect(sectionNameProblem('🎸'.repeat(60))).toBeNull();
    expect(sectionNameProblem('Verse\tone')).toBe(
      'A section name may not contain control characters, tabs or line breaks.',
    );
  });
});
