import { RULER_TICK_SECONDS, TIMELINE_ZOOM_WHEEL, clamp } from '@riffscribe/core';

/**
 * The timeline's time-to-pixel mapping. Content x of a time is `time * zoom` (zoom in CSS pixels
 * per second, spec section 2); the view shows content from `scrollX` on, `width` pixels wide.
 */
export interface TimelineView {
  /** Pixels per second, 10..600. */
  zoom: number;
  /** Content x (CSS px) at the view's left edge, >= -STAFF_GUTTER. */
  scrollX: number;
  /** View width in CSS px. */
  width: number;
}

/** Width of the string names column at the left of the staff, CSS px; time 0 starts after it. */
export const STAFF_GUTTER = 24;

/** Where the playhead sits while following playback, as a share of the view's width. */
export const PLAYHEAD_ANCHOR = 0.3;

export const timeToX = (time: number, view: TimelineView) => time * view.zoom - view.scrollX;
export const xToTime = (x: number, view: TimelineView) => (x + view.scrollX) / view.zoom;

/**
 * The scroll that keeps the playhead at PLAYHEAD_ANCHOR of the view (it moves from the left edge
 * until it gets there, then the tab scrolls under it). At the start the content sits right of the
 * string names, so the first notes are not under them.
 */
export function followScroll(time: number, zoom: number, width: number): number {
  return Math.max(-STAFF_GUTTER, time * zoom - PLAYHEAD_ANCHOR * width);
}

/**
 * The seconds the view shows, widened by `marginPx` on each side so glyphs that start off-screen
 * (bend labels, arcs) are still drawn.
 */
export function visibleTimeRange(view: TimelineView, marginPx = 0): [number, number] {
  return [
    Math.max(0, (view.scrollX - marginPx) / view.zoom),
    (view.scrollX + view.width + marginPx) / view.zoom,
  ];
}

/** Zoom after a wheel step: exponential so each notch feels the same, clamped 10..600. */
export function zoomFromWheel(zoom: number, deltaY: number): number {
  return clamp(zoom * Math.exp(-deltaY * 0.0015), TIMELINE_ZOOM_WHEEL.min, TIMELINE_ZOOM_WHEEL.max);
}

export interface RulerTick {
  time: number;
  /** Whole seconds are major ticks. */
  major: boolean;
  /** Text under the tick ("0:05"), only every few ticks so labels never crowd. */
  label: string | null;
}

/** Label steps, seconds: the smallest that leaves at least MIN_LABEL_GAP_PX between labels. */
const LABEL_STEPS = [0.5, 1, 2, 5, 10, 15, 30, 60, 120];
const MIN_LABEL_GAP_PX = 56;

export function labelStep(zoom: number): number {
  return LABEL_STEPS.find((s) => s * zoom >= MIN_LABEL_GAP_PX) ?? 300;
}

/** "m:ss" (decimals 0) or "m:ss.s" (decimals 1); truncates, so 4.99 s never reads 0:05. */
export function formatClock(seconds: number, decimals = 0): string {
  const factor = 10 ** decimals;
  const total = Math.floor(Math.max(0, seconds) * factor + 1e-6) / factor;
  const minutes = Math.floor(total / 60);
  const [whole = '0', fraction] = (total - minutes * 60).toFixed(decimals).split('.');
  return `${String(minutes)}:${whole.padStart(2, '0')}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Ruler ticks every 0.5 s (spec section 9) between t0 and t1; at small zooms the ticks are
 * still there but only every labelStep seconds carries a label.
 */
export function rulerTicks(t0: number, t1: number, zoom: number): RulerTick[] {
  const step = labelStep(zoom);
  const ticks: RulerTick[] = [];
  const first = Math.max(0, Math.ceil(t0 / RULER_TICK_SECONDS - 1e-9));
  for (let k = first; k * RULER_TICK_SECONDS <= t1 + 1e-9; k += 1) {
    const time = k * RULER_TICK_SECONDS;
    const labelled = Math.abs(time / step - Math.round(time / step)) < 1e-6;
    ticks.push({
      time,
      major: k % 2 === 0,
      label: labelled ? formatClock(time, step < 1 ? 1 : 0) : null,
    });
  }
  return ticks;
}
