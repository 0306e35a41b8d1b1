import { describe, expect, it } from 'vitest';
import {
  PLAYHEAD_ANCHOR,
  STAFF_GUTTER,
  followScroll,
  formatClock,
  labelStep,
  rulerTicks,
  timeToX,
  visibleTimeRange,
  xToTime,
  zoomFromWheel,
} from './scale';

describe('time to pixels', () => {
  const view = { zoom: 100, scrollX: 250, width: 1000 };

  it('maps x = time * zoom - scroll, and back', () => {
    expect(timeToX(3, view)).toBe(50);
    expect(xToTime(50, view)).toBe(3);
    for (const t of [0, 0.37, 12.5]) expect(xToTime(timeToX(t, view), view)).toBeCloseTo(t, 9);
  });

  it('shows the seconds of the view, widened by a margin', () => {
    expect(visibleTimeRange(view)).toEqual([2.5, 12.5]);
    expect(visibleTimeRange({ ...view, scrollX: 0 }, 100)).toEqual([0, 11]);
  });

  it('keeps the playhead at its anchor once playback is past it', () => {
    expect(followScroll(1, 100, 1000)).toBe(-STAFF_GUTTER);
    const scroll = followScroll(60, 600, 1000);
    expect(timeToX(60, { zoom: 600, scrollX: scroll, width: 1000 })).toBe(PLAYHEAD_ANCHOR * 1000);
  });

  it('zooms by wheel exponentially within 10..600', () => {
    expect(zoomFromWheel(100, -100)).toBeGreaterThan(100);
    expect(zoomFromWheel(100, 100)).toBeLessThan(100);
    expect(zoomFromWheel(590, -10_000)).toBe(600);
    expect(zoomFromWheel(11, 10_000)).toBe(10);
  });
});

describe('ruler', () => {
  it('ticks every 0.5 s with whole seconds major', () => {
    const ticks = rulerTicks(0.2, 2.1, 100);
    expect(ticks.map((t) => t.time)).toEqual([0.5, 1, 1.5, 2]);
    expect(ticks.map((t) => t.major)).toEqual([false, true, false, true]);
  });

  it('labels ticks only as often as there is room', () => {
    expect(labelStep(600)).toBe(0.5);
    expect(labelStep(100)).toBe(1);
    expect(labelStep(10)).toBe(10);
    const labelled = rulerTicks(0, 30, 10).filter((t) => t.label);
    expect(labelled.map((t) => t.label)).toEqual(['0:00', '0:10', '0:20', '0:30']);
    expect(rulerTicks(0, 1, 600).map((t) => t.label)).toEqual(['0:00.0', '0:00.5', '0:01.0']);
  });

  it('formats clock time', () => {
    expect(formatClock(65.94)).toBe('1:05');
    expect(formatClock(65.94, 1)).toBe('1:05.9');
    expect(formatClock(4.999)).toBe('0:04');
    expect(formatClock(-3)).toBe('0:00');
  });
});
