import type { ModelOutput } from '../types.js';
import { byStart, type NoteCandidate } from './candidate.js';
import type { Onset } from './onsets.js';
import { MIDI_OFFSET, NOTE_BINS, peakOver } from './posteriorgram.js';

/**
 * From onsets to notes (pure), after Basic Pitch's note creation: each onset is followed forward
 * in its pitch's note activation until the activation has stayed under the frame threshold for
 * ENERGY_TOLERANCE frames. Onsets are taken latest first and each note consumes the activation it
 * covers (and its two semitone neighbours', where the model smears a note), so a re-plucked note
 * ends where the next pluck of its pitch begins.
 *
 * Activation left over afterwards belongs to notes without an onset of their own. They are
 * returned as 'legato' candidates (grown both ways from the strongest remaining frame, as in
 * Basic Pitch's "melodia trick"); extract.ts keeps only those that continue another note.
 */

export interface TrackingOptions {
  frameThreshold: number;
  /** A note must last more than this many frames (Basic Pitch's minimum note length). */
  minNoteFrames: number;
  minPitch: number;
  maxPitch: number;
  /** Look for notes without onsets in the leftover activation (default true). */
  legatoCandidates?: boolean;
}

/** Frames (about 128 ms) a note may dip under the frame threshold and still continue. */
export const ENERGY_TOLERANCE = 11;

export function trackNotes(
  output: ModelOutput,
  onsets: readonly Onset[],
  opts: TrackingOptions,
): NoteCandidate[] {
  const { frames } = output;
  const n = frames.length;
  // Consumed activation, one bit per frame and bin (a copy of the activations would be sixteen
  // times the size, which matters for a long video).
  const consumed = new Uint32Array(Math.ceil((n * NOTE_BINS) / 32));
  const isConsumed = (cell: number): boolean =>
    ((consumed[cell >>> 5] ?? 0) & (1 << (cell & 31))) !== 0;
  const left = (t: number, p: number): number => {
    const b = p - MIDI_OFFSET;
    if (t < 0 || t >= n || b < 0 || b >= NOTE_BINS || isConsumed(t * NOTE_BINS + b)) return 0;
    return frames.value(t, b);
  };
  const consume = (t: number, p: number): void => {
    if (t < 0 || t >= n) return;
    for (let b = p - MIDI_OFFSET - 1; b <= p - MIDI_OFFSET + 1; b++)
      if (b >= 0 && b < NOTE_BINS) {
        const cell = t * NOTE_BINS + b;
        consumed[cell >>> 5] = (consumed[cell >>> 5] ?? 0) | (1 << (cell & 31));
      }
  };
  const candidate = (
    start: number,
    end: number,
    pitch: number,
    source: NoteCandidate['source'],
  ): NoteCandidate => ({
    start,
    end,
    pitch,
    onset: peakOver(output.onsets, pitch, start - 2, start + 2),
    amplitude: peakOver(frames, pitch, start, end - 1),
    source,
  });

  const notes: NoteCandidate[] = [];
  const latestFirst = [...onsets].sort((a, b) => b.frame - a.frame || a.pitch - b.pitch);
  for (const { frame: start, pitch } of latestFirst) {
    if (start >= n - 1) continue;
    let t = start + 1;
    let quiet = 0;
    while (t < n - 1 && quiet < ENERGY_TOLERANCE) {
      quiet = left(t, pitch) < opts.frameThreshold ? quiet + 1 : 0;
      t++;
    }
    const end = t - quiet;
    if (end - start <= opts.minNoteFrames) continue;
    for (let u = start; u < end; u++) consume(u, pitch);
    notes.push(candidate(start, end, pitch, 'attack'));
  }

  if (opts.legatoCandidates !== false) {
    // Strongest leftover frames first; sorting once keeps this linear-logarithmic in clip length.
    const peaks: { v: number; t: number; p: number }[] = [];
    for (let t = 0; t < n; t++) {
      for (let p = opts.minPitch; p <= opts.maxPitch; p++) {
        const v = left(t, p);
        if (v > opts.frameThreshold) peaks.push({ v, t, p });
      }
    }
    peaks.sort((a, b) => b.v - a.v || a.t - b.t || a.p - b.p);
    for (const { t: peakT, p: peakP } of peaks) {
      // Already taken by a note grown from a stronger frame.
      if (left(peakT, peakP) <= opts.frameThreshold) continue;
      consume(peakT, peakP);
      let t = peakT + 1;
      let quiet = 0;
      while (t < n - 1 && quiet < ENERGY_TOLERANCE) {
        quiet = left(t, peakP) < opts.frameThreshold ? quiet + 1 : 0;
        consume(t, peakP);
        t++;
      }
      const end = t - quiet;
      t = peakT - 1;
      quiet = 0;
      while (t > 0 && quiet < ENERGY_TOLERANCE) {
        quiet = left(t, peakP) < opts.frameThreshold ? quiet + 1 : 0;
        consume(t, peakP);
        t--;
      }
      const start = t + 1 + quiet;
      if (end - start <= opts.minNoteFrames) continue;
      notes.push(candidate(start, end, peakP, 'legato'));
    }
  }
  return notes.sort(byStart);
}
