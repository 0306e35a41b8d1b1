import {
  barLineTimes,
  MAX_SECTIONS,
  sectionNameSchema,
  type BeatGrid,
  type Section,
} from '@riffscribe/core';
import type { Loop } from '../model/playerState';

/**
 * Sections (issue 40 part 3), pure: the bar-grid suggestions, the section before or after the
 * playhead, default names and name checks. Times are lesson seconds.
 */

/** A section before it has an id (a suggestion, a loop about to be saved). */
export type SectionDraft = Omit<Section, 'id'>;

/** Bars per suggested section, and from how many bars a lesson counts as long (8 a section). */
export const SUGGESTED_BARS = 4;
export const LONG_SUGGESTED_BARS = 8;
export const LONG_LESSON_BARS = 32;
/** Shorter than this a section is not suggested (seconds; less than a frame of a loop). */
const MIN_SECTION_SECONDS = 0.05;
/** Two times closer than this are the same (a seek lands within it). */
const SAME_TIME = 1e-3;

/** Sections by start, then end (the order the list, the keys and the server use). */
export function sortSections<T extends SectionDraft>(sections: readonly T[]): T[] {
  return [...sections].sort((a, b) => a.start - b.start || a.end - b.end);
}

/** How many bars each suggested section spans for a lesson of `bars` bars. */
export function barsPerSection(bars: number): number {
  if (bars <= LONG_LESSON_BARS) return SUGGESTED_BARS;
  // Never more than MAX_SECTIONS suggestions: very long lessons get longer sections.
  const per = Math.max(LONG_SUGGESTED_BARS, Math.ceil(bars / MAX_SECTIONS));
  return Math.ceil(per / SUGGESTED_BARS) * SUGGESTED_BARS;
}

const barsName = (first: number, last: number) =>
  first === last ? `Bar ${String(first)}` : `Bars ${String(first)}–${String(last)}`;

/**
 * Sections every 4 bars of the lesson's bar grid (8 for a lesson of more than 32 bars), named by
 * their bars ("Bars 1–4"). Bar 1 is the first full bar; a pickup before it opens the first
 * section. The last section ends at the lesson's end; a remainder of fewer than half a section's
 * bars joins the section before it. `duration` 0 (unknown): the grid's last beat ends it.
 */
export function suggestSections(grid: BeatGrid | undefined, duration: number): SectionDraft[] {
  if (!grid || grid.beats.length < 2) return [];
  const end = duration > 0 ? duration : (grid.beats[grid.beats.length - 1] ?? 0);
  const bars = barLineTimes(grid).filter((t) => t < end - MIN_SECTION_SECONDS);
  const firstBar = bars[0];
  if (firstBar === undefined) return [];
  const per = barsPerSection(bars.length);
  const pickup = Math.max(0, Math.min(firstBar, grid.beats[0] ?? firstBar));
  const out: SectionDraft[] = [];
  for (let i = 0; i < bars.length; i += per) {
    const last = Math.min(i + per, bars.length);
    out.push({
      name: barsName(i + 1, last),
      start: i === 0 ? pickup : (bars[i] ?? 0),
      end: Math.min(bars[i + per] ?? end, end),
    });
  }
  const rest = bars.length % per;
  const tail = out[out.length - 1];
  const before = out[out.length - 2];
  if (tail && before && rest > 0 && rest < per / 2) {
    out.splice(out.length - 2, 2, {
      name: barsName(bars.length - rest - per + 1, bars.length),
      start: before.start,
      end: tail.end,
    });
  }
  return out.filter((s) => s.end - s.start >= MIN_SECTION_SECONDS).slice(0, MAX_SECTIONS);
}

const isLoopOf = (loop: Loop | null, s: SectionDraft) =>
  loop !== null &&
  Math.abs(loop.start - s.start) < SAME_TIME &&
  Math.abs(loop.end - s.end) < SAME_TIME;

/** The section the loop is set to, if it is one. */
export function sectionOfLoop<T extends SectionDraft>(
  sections: readonly T[],
  loop: Loop | null,
): T | null {
  return sections.find((s) => isLoopOf(loop, s)) ?? null;
}

/**
 * The next (`by` 1) or previous (-1) section from where the player is: from the section the loop
 * is set to, else from the last section that starts at or before the playhead (before the
 * first: the first is next, nothing is previous). Null at either end: no wrapping around.
 */
export function stepSection<T extends SectionDraft>(
  sections: readonly T[],
  by: 1 | -1,
  time: number,
  loop: Loop | null,
): T | null {
  const sorted = sortSections(sections);
  let current = sorted.findIndex((s) => isLoopOf(loop, s));
  if (current < 0) {
    current = -1;
    sorted.forEach((s, i) => {
      if (s.start <= time + SAME_TIME) current = i;
    });
  }
  return sorted[current + by] ?? null;
}

/** "Section N" for the next section saved from a loop: N one more than there are, not taken. */
export function defaultSectionName(sections: readonly SectionDraft[]): string {
  const names = new Set(sections.map((s) => s.name));
  let n = sections.length + 1;
  while (names.has(`Section ${String(n)}`)) n += 1;
  return `Section ${String(n)}`;
}

/** What is wrong with a section name (the server's own rule, core's sectionNameSchema), or null. */
export function sectionNameProblem(name: string): string | null {
  return sectionNameSchema.safeParse(name).error?.issues[0]?.message ?? null;
}
