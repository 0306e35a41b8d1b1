import type { ClipAudio, DetectedNote } from '../types.js';
import { CHAIN_EVENT_OPTIONS, type ChainEventOptions } from './chain-events.js';
import { readJunction, type Junction } from './junction.js';
import { firstAtLeast } from '../sorted.js';

/**
 * Notes the clip glides between (pure): where one note stops and the next starts, a step of up to
 * an octave away, and the clip's pitch passes through the way between them (junction.ts), the
 * string that played the first kept sounding and moved to the second: a slide, or a bend the
 * notes stage heard as two notes. Both are on one string, and a slide's ends are fretted (no
 * finger slides on an open string). The tab stage is told so (pipeline.ts placeNotes): the
 * fingering model reads pitches and times only and would otherwise put the two notes wherever a
 * picked line of those pitches goes, often on two strings, where no slide can be seen.
 */

/** The first note stops within this many seconds of the second's start. */
export const LINK_GAP = 0.06;
/** Largest interval (semitones) one string glides over. */
export const LINK_INTERVAL = 12;
/**
 * Hops (2.9 ms each) in which the pitch must be heard in the middle of the way (junction.ts
 * MIDDLE): a glide seen only as a ramp toward the second pitch may be a window straddling two
 * picked notes. On the string model and the SoundFont tuned part, true glides between two notes
 * showed 5-18 such hops but one, links between notes of two strings 0-3.
 */
const MIN_MIDDLE_HOPS = 4;
/** Notes starting this close after the first one were struck with it (a chord's strum). */
const STRUCK_WITH = 0.05;
/** The junction is read from this long before the second note's start (a glide of a few frets). */
const LOOKBACK = 0.14;
/** ... to this long after it (the model can place the start a frame or two early). */
const LOOKAHEAD = 0.024;

/**
 * Whether a junction is a glide the string was heard making: at least `stepMaxSeconds` on the
 * way (the chain stage's line between a step and a slide), with the pitch heard in the middle of
 * the way for MIN_MIDDLE_HOPS hops, not only seen as a ramp.
 */
export function heardGliding(junction: Junction, stepMaxSeconds: number): boolean {
  return junction.glideSeconds >= stepMaxSeconds && junction.middle >= MIN_MIDDLE_HOPS;
}

/** A note the clip reaches by a glide from another. */
export interface GlideLink {
  /** Index of the note it glides from. */
  from: number;
  /**
   * A slide: the fretting hand moved with the string (wider than a bend reaches, or faster
   * than a bend rises: chain-events.ts `maxBend`, `bendMaxSpeed`), rather than a bend or its
   * release, where the hand stays.
   */
  slide: boolean;
}

/**
 * For each note that the clip reaches by a glide from exactly one note (its index in `notes`),
 * that note. A glide is a junction whose pitch spends at least the chain stage's
 * `stepMaxSeconds` on the way (the same line between a step and a slide).
 */
export function glideLinks(
  notes: readonly DetectedNote[],
  audio: ClipAudio,
  opts: ChainEventOptions = CHAIN_EVENT_OPTIONS,
): Map<number, GlideLink> {
  const links = new Map<number, GlideLink>();
  if (audio.length === 0) return links;
  const byEnd = notes
    .map((_, i) => i)
    .sort((a, b) => (notes[a]?.endTime ?? 0) - (notes[b]?.endTime ?? 0));
  const ends = byEnd.map((i) => notes[i]?.endTime ?? 0);
  const byStart = notes
    .map((_, i) => i)
    .sort((a, b) => (notes[a]?.time ?? 0) - (notes[b]?.time ?? 0));
  /**
   * Whether a note other than `i` and `j` starts or stops between `from` and `to` (seconds): a
   * chord changing there, whose mix the pitch estimate wanders through; or sounds there at a
   * pitch on the way between the two (within a semitone), where the estimate would find it.
   * Strings ringing on across the junction at other pitches are no harm: the estimate is
   * searched between the two pitches only.
   */
  const othersMove = (i: number, j: number, from: number, to: number) => {
    const a = notes[i]?.pitch ?? 0;
    const b = notes[j]?.pitch ?? 0;
    for (const k of byStart) {
      const n = notes[k];
      if (n === undefined || n.time >= to) break;
      if (k === i || k === j) continue;
      // A note struck while the first sounds (the line went on elsewhere: an arpeggio).
      if (n.time > (notes[j]?.time ?? 0) + STRUCK_WITH) return true;
      if (n.endTime <= from) continue;
      if (n.time > from || n.endTime < to) return true;
      if (n.pitch >= Math.min(a, b) - 1 && n.pitch <= Math.max(a, b) + 1) return true;
    }
    return false;
  };
  notes.forEach((note, i) => {
    const glided: GlideLink[] = [];
    for (let k = firstAtLeast(ends, note.time - LINK_GAP, (e) => e); k < byEnd.length; k++) {
      if ((ends[k] ?? 0) > note.time + LINK_GAP) break;
      const j = byEnd[k] ?? -1;
      const from = notes[j];
      if (from === undefined || j === i || from.time > note.time - LOOKBACK / 2) continue;
      const interval = Math.abs(note.pitch - from.pitch);
      if (interval < 1 || interval > LINK_INTERVAL) continue;
      // The way between two pitches is not read where a chord changes.
      if (othersMove(i, j, note.time - LOOKBACK, note.time + LOOKAHEAD)) continue;
      const junction = readJunction(
        audio,
        note.time - LOOKBACK,
        note.time + LOOKAHEAD,
        from.pitch,
        note.pitch,
      );
      if (!heardGliding(junction, opts.stepMaxSeconds)) continue;
      glided.push({
        from: j,
        slide: interval > opts.maxBend || interval / junction.glideSeconds >= opts.bendMaxSpeed,
      });
    }
    const [only] = glided;
    if (glided.length === 1 && only !== undefined) links.set(i, only);
  });
  return links;
}
