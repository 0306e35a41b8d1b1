/**
 * A note found in the posteriorgrams, in model frames, before it becomes a DetectedNote.
 * Frames are indices into ModelOutput rows (FRAME_RATE per second); `end` is exclusive.
 */
export interface NoteCandidate {
  start: number;
  end: number;
  /** Integer MIDI pitch. */
  pitch: number;
  /** Peak onset activation within two frames of `start` (0..1). */
  onset: number;
  /** Peak note (frame) activation over the note (0..1). */
  amplitude: number;
  /**
   * How the note was found: 'attack' from an onset peak, 'legato' from note activation alone
   * (no pluck of its own: hammer-on, pull-off, the far end of a slide).
   */
  source: 'attack' | 'legato';
}

/** Sort order used throughout: by start frame, then pitch. */
export function byStart(a: NoteCandidate, b: NoteCandidate): number {
  return a.start - b.start || a.pitch - b.pitch;
}
