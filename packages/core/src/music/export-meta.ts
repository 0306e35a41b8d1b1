import type { Score } from './score.js';

/** Length of bar `b` of a score in ticks (its time signature at the score's resolution). */
export function barLengthTicks(score: Score, b: number): number {
  const bar = score.bars[b];
  if (!bar) return 0;
  return (bar.numerator * 4 * score.ticksPerQuarter) / bar.denominator;
}

/** Absolute tick where each bar starts (bar 0 at tick 0), plus one closing entry. */
export function barStartTicks(score: Score): number[] {
  const out = [0];
  score.bars.forEach((_, b) => out.push((out[b] ?? 0) + barLengthTicks(score, b)));
  return out;
}

/** A sounded note of the score: where it starts and how long it is written, ties joined. */
export interface PlacedNote {
  /** Index into the notes given to `scoreOf`. */
  note: number;
  bar: number;
  /** Index of the slot in its bar. */
  slot: number;
  /** Absolute ticks from the start of the first bar. */
  tick: number;
  /** Written length in ticks: its slot and every tied slot after it. */
  ticks: number;
}

/**
 * Every note of the score at its slot's tick with its written length: a slot that is not `tied`
 * starts its notes; the tied slots after it (across bar lines too) lengthen them.
 */
export function placedNotes(score: Score): PlacedNote[] {
  const starts = barStartTicks(score);
  const out: PlacedNote[] = [];
  let open: PlacedNote[] = [];
  score.bars.forEach((bar, b) => {
    bar.slots.forEach((slot, s) => {
      if (slot.tied && open.length > 0) {
        for (const p of open) p.ticks += slot.ticks;
        return;
      }
      const tick = (starts[b] ?? 0) + slot.tick;
      open = slot.notes.map((note) => ({ note, bar: b, slot: s, tick, ticks: slot.ticks }));
      out.push(...open);
    });
  });
  return out;
}
