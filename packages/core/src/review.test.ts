import { describe, expect, it } from 'vitest';
import { DEFAULT_TUNING } from './guitar.js';
import { noteEventInputSchema, plainNote } from './events.js';
import {
  DOUBTFUL_CONFIDENCE,
  addSuggestion,
  confirmNote,
  dismissSuggestion,
  isDoubtful,
  suggestionLabel,
  moveToPosition,
  playablePositions,
} from './review.js';

const note = (over: Parameters<typeof plainNote>[0]) => plainNote(over);

describe('doubtful notes', () => {
  it('are the notes with a confidence below the threshold; none means checked', () => {
    const base = { time: 1, end_time: 1.2, string: 2, fret: 5 };
    expect(isDoubtful(note({ ...base, confidence: DOUBTFUL_CONFIDENCE - 0.01 }))).toBe(true);
    expect(isDoubtful(note({ ...base, confidence: DOUBTFUL_CONFIDENCE }))).toBe(false);
    expect(isDoubtful(note(base))).toBe(false);
  });

  it('confirming drops the confidence and keeps everything else', () => {
    const n = note({ time: 1, end_time: 1.2, string: 2, fret: 5, confidence: 0.1, mute: true });
    const checked = confirmNote(n);
    expect('confidence' in checked).toBe(false);
    expect({ ...checked, confidence: 0.1 }).toEqual(n);
    const plain = note({ time: 1, end_time: 1.2, string: 2, fret: 5 });
    expect(confirmNote(plain)).toBe(plain);
  });
});

describe('playablePositions', () => {
  it('lists every string and fret of the same pitch, the note’s own included', () => {
    // E4 = 64: 0 on e, 5 on B, 9 on G, 14 on D, 19 on A, 24 on low E.
    expect(playablePositions({ string: 1, fret: 0 }, DEFAULT_TUNING)).toEqual([
      { string: 1, fret: 0 },
      { string: 2, fret: 5 },
      { string: 3, fret: 9 },
      { string: 4, fret: 14 },
      { string: 5, fret: 19 },
      { string: 6, fret: 24 },
    ]);
  });

  it('stops at the neck’s last fret (22 frets, less the capo) and at open strings', () => {
    expect(playablePositions({ string: 2, fret: 5 }, DEFAULT_TUNING, 22 - 3)).toEqual([
      { string: 1, fret: 0 },
      { string: 2, fret: 5 },
      { string: 3, fret: 9 },
      { string: 4, fret: 14 },
      { string: 5, fret: 19 },
    ]);
    // Low E open: nothing lower exists anywhere else.
    expect(playablePositions({ string: 6, fret: 0 }, DEFAULT_TUNING)).toEqual([
      { string: 6, fret: 0 },
    ]);
  });

  it('follows the tuning (drop D: the low string is two frets further)', () => {
    const dropD = [38, 45, 50, 55, 59, 64] as const;
    expect(playablePositions({ string: 5, fret: 0 }, dropD)).toEqual([
      { string: 5, fret: 0 },
      { string: 6, fret: 7 },
    ]);
  });
});

describe('moveToPosition', () => {
  it('moves the note keeping its pitch and bends, and marks it checked', () => {
    const n = note({
      time: 1,
      end_time: 1.5,
      string: 1,
      fret: 7,
      bend_to_fret: 9,
      confidence: 0.2,
    });
    const moved = moveToPosition(n, { string: 2, fret: 12 }, DEFAULT_TUNING);
    expect(moved).toMatchObject({ string: 2, fret: 12, bend_to_fret: 14, time: 1 });
    expect(moved && 'confidence' in moved).toBe(false);
  });

  it('refuses a place of another pitch', () => {
    const n = note({ time: 1, end_time: 1.5, string: 1, fret: 7 });
    expect(moveToPosition(n, { string: 2, fret: 11 }, DEFAULT_TUNING)).toBeNull();
  });

  it('picking the note’s own place confirms it', () => {
    const n = note({ time: 1, end_time: 1.5, string: 1, fret: 7, confidence: 0.2 });
    const same = moveToPosition(n, { string: 1, fret: 7 }, DEFAULT_TUNING);
    expect(same).toMatchObject({ string: 1, fret: 7 });
    expect(same && 'confidence' in same).toBe(false);
  });
});

describe('saved notes and their confidence', () => {
  const base = { time: 1, end_time: 1.2, string: 2, fret: 5 };
  it('keeps a confidence in 0..1 and accepts a note without one', () => {
    expect(noteEventInputSchema.parse({ ...base, confidence: 0.25 }).confidence).toBe(0.25);
    expect('confidence' in noteEventInputSchema.parse(base)).toBe(false);
  });
  it('refuses a confidence outside 0..1', () => {
    expect(noteEventInputSchema.safeParse({ ...base, confidence: 1.5 }).success).toBe(false);
    expect(noteEventInputSchema.safeParse({ ...base, confidence: 'high' }).success).toBe(false);
  });
});

describe('suggested techniques (precision first)', () => {
  const bend = { technique: 'bend' as const, confidence: 0.3, fields: { bend_to_fret: 9 } };
  const hammer = {
    technique: 'hammer_on' as const,
    confidence: 0.42,
    fields: { leading_hammer_on: true },
  };
  const first = note({ time: 1, end_time: 1.2, string: 3, fret: 5, confidence: 0.9 });
  const second = note({
    time: 1.2,
    end_time: 1.6,
    string: 3,
    fret: 7,
    confidence: 0.9,
    suggestions: [hammer, bend],
  });

  it('make a note doubtful until a person answers them', () => {
    expect(isDoubtful(second)).toBe(true);
    expect(isDoubtful(first)).toBe(false);
    expect(suggestionLabel('hammer_on')).toBe('hammer-on?');
    const checked = confirmNote(second);
    expect('suggestions' in checked || 'confidence' in checked).toBe(false);
    expect(isDoubtful(checked)).toBe(false);
    expect(checked.leading_hammer_on).toBe(false);
  });

  it('adding a slur writes it on both notes it joins and keeps the other suggestions', () => {
    const changed = addSuggestion([first, second], 1);
    const byIndex = new Map(changed.map((c) => [c.index, c.note]));
    expect(byIndex.get(1)).toMatchObject({ leading_hammer_on: true, suggestions: [bend] });
    expect(byIndex.get(0)).toMatchObject({ trailing_hammer_on: true, string: 3, fret: 5 });
    expect(addSuggestion([first, second], 0)).toEqual([]);
  });

  it('a slur into a note with no note before it on its string marks only that note', () => {
    const alone = { ...second, string: 2 };
    expect(addSuggestion([first, alone], 1).map((c) => c.index)).toEqual([1]);
  });

  it('dismissing the first leaves the rest, and the last leaves none', () => {
    const once = dismissSuggestion(second);
    expect(once.suggestions).toEqual([bend]);
    expect('suggestions' in dismissSuggestion(once)).toBe(false);
    expect(dismissSuggestion(first)).toBe(first);
  });

  it('are saved and read back, and a malformed one is refused', () => {
    const base = { time: 1, end_time: 1.2, string: 2, fret: 5 };
    expect(noteEventInputSchema.parse({ ...base, suggestions: [bend] }).suggestions).toEqual([
      bend,
    ]);
    expect('suggestions' in noteEventInputSchema.parse({ ...base, suggestions: [] })).toBe(false);
    const bad = [{ ...bend, technique: 'tap' }];
    expect(noteEventInputSchema.safeParse({ ...base, suggestions: bad }).success).toBe(false);
    const sneaky = [{ ...bend, fields: { fret: 3 } }];
    expect(noteEventInputSchema.safeParse({ ...base, suggestions: sneaky }).success).toBe(false);
  });
});
