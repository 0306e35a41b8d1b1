import { describe, expect, it } from 'vitest';
import {
  MAX_BEAT_SECONDS,
  MIN_BEAT_SECONDS,
  beatGridSchema,
  beatsInBar,
  steadyGrid,
} from './beats.js';
import {
  barAt,
  barLineTimes,
  barTempo,
  doubleBeats,
  halveBeats,
  moveBarLine,
  moveBeat,
  sameGrid,
  setTimeSignature,
  startBarAt,
  tapBarLine,
} from './grid-edits.js';

// 120 beats a minute, 4/4, 4 bars and a closing beat: beats at 0, 0.5, ... 8.0.
const grid = steadyGrid(120, 4, 8);

describe('bar-line edits', () => {
  it('drags a bar line: the bars on either side stretch, the rest stays', () => {
    const moved = moveBarLine(grid, 1, 2.4);
    expect(beatGridSchema.safeParse(moved).success).toBe(true);
    expect(barLineTimes(moved)).toEqual([0, 2.4, 4, 6, 8]);
    // The first bar's beats spread evenly over 0..2.4, the second's over 2.4..4.
    expect(moved.beats.slice(0, 5).map((t) => +t.toFixed(3))).toEqual([0, 0.6, 1.2, 1.8, 2.4]);
    expect(moved.beats.slice(4, 9).map((t) => +t.toFixed(3))).toEqual([2.4, 2.8, 3.2, 3.6, 4]);
    expect(moved.beats.slice(8)).toEqual(grid.beats.slice(8));
    expect(grid.beats[4]).toBe(2);
  });

  it('clamps a drag so that beats stay MIN_BEAT_SECONDS..MAX_BEAT_SECONDS apart', () => {
    const squeezed = moveBarLine(grid, 1, 0.1);
    const gaps = squeezed.beats.slice(1).map((t, i) => t - (squeezed.beats[i] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MIN_BEAT_SECONDS - 1e-9);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(MAX_BEAT_SECONDS + 1e-9);
    expect(barLineTimes(squeezed)[1]).toBeCloseTo(4 * MIN_BEAT_SECONDS, 6);
    // The last beat moves alone; the first beat moves with its bar.
    expect(moveBeat(grid, 16, 8.3).beats.at(-1)).toBeCloseTo(8.3, 6);
    expect(
      moveBarLine(grid, 0, 0.3)
        .beats.slice(0, 2)
        .map((t) => +t.toFixed(3)),
    ).toEqual([0.3, 0.725]);
    // Nowhere to go: the same object, so no undo step is recorded.
    expect(moveBarLine(grid, 9, 1)).toBe(grid);
    expect(moveBarLine(grid, 1, 2)).toBe(grid);
  });

  it('starts a bar on another beat and keeps the metre from there on', () => {
    const shifted = startBarAt(grid, 6);
    expect(shifted.downbeats).toEqual([0, 4, 6, 10, 14]);
    expect(beatsInBar(shifted, 1)).toBe(2);
    expect(startBarAt(grid, 4)).toBe(grid);
    // A pickup: the first bar starts on beat 1.
    expect(startBarAt({ ...grid, downbeats: [2, 6, 10, 14] }, 1).downbeats).toEqual([1, 5, 9, 13]);
  });

  it('taps a bar line in: the nearest beat starts a bar and moves to the tap', () => {
    const tapped = tapBarLine(grid, 3.1);
    expect(barLineTimes(tapped).map((t) => +t.toFixed(3))).toEqual([0, 2, 3.1, 5, 7]);
    expect(beatGridSchema.safeParse(tapped).success).toBe(true);
    expect(barAt(tapped, 3.2)).toBe(2);
  });

  it('changes the time signature from a bar on', () => {
    const waltz = setTimeSignature(grid, 1, 3);
    expect(waltz.downbeats).toEqual([0, 4, 7, 10, 13, 16]);
    const eighths = setTimeSignature(grid, 0, 6, 8);
    expect(eighths.beat_unit).toBe(8);
    expect(eighths.downbeats).toEqual([0, 6, 12]);
    expect(setTimeSignature(grid, 0, 4)).toBe(grid);
    expect(setTimeSignature(grid, 0, 17)).toBe(grid);
  });

  it('doubles and halves the beats, bar lines staying where they are', () => {
    const doubled = doubleBeats(steadyGrid(60, 4, 8));
    expect(doubled.beats).toHaveLength(17);
    expect(barLineTimes(doubled)).toEqual(barLineTimes(steadyGrid(60, 4, 8)));
    expect(beatsInBar(doubled, 0)).toBe(8);
    expect(barTempo(doubled, 0)).toBeCloseTo(120, 6);
    const halved = halveBeats(grid);
    expect(halved.beats).toHaveLength(9);
    expect(barLineTimes(halved)).toEqual(barLineTimes(grid));
    expect(barTempo(halved, 0)).toBeCloseTo(60, 6);
    expect(sameGrid(halveBeats(doubleBeats(grid)), grid)).toBe(true);
    // Too fast to double: unchanged.
    const fast = steadyGrid(200, 4, 4);
    expect(doubleBeats(fast)).toBe(fast);
  });
});
