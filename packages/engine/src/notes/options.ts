import { DEFAULT_THRESHOLDS, type UploadConfig } from '@riffscribe/core';
import type { GuitarSetup } from '../types.js';

/** Settings of note extraction. Pitches are MIDI numbers; frames are model frames. */
export interface NoteOptions {
  /** Onset activation (0..1) above which a peak starts a note without further evidence. */
  onsetThreshold: number;
  /** Note activation (0..1) under which a note is silent; notes end after a run of such frames. */
  frameThreshold: number;
  /** A note must last more than this many frames (5 = 58 ms). */
  minNoteFrames: number;
  /**
   * Peak note activation (0..1) a note must reach somewhere along its length; weaker notes are
   * dropped. Applied to the peak rather than the mean so that a long, decaying but clearly played
   * note survives while a note the model is never sure of does not.
   */
  amplitudeThreshold: number;
  /** Lowest and highest MIDI pitch the guitar can play (from tuning, capo and frets). */
  minPitch: number;
  maxPitch: number;
  /** Most notes sounding at once (6 strings). */
  maxPolyphony: number;
  /** Open-string pitches with the capo, low to high (strum recovery checks chord shapes). */
  strings?: readonly number[];
  /** Highest fret above the capo. */
  frets?: number;
}

/** The four analysis thresholds of the upload config (spec section 9). */
export type NoteThresholds = Pick<
  UploadConfig,
  'amplitude_threshold' | 'onset_threshold' | 'frame_threshold' | 'minimum_note_length'
>;

/**
 * Options for a guitar setup: the pitch range runs from the lowest open string (with the capo)
 * to the highest string at its last fret; thresholds default to the spec's.
 */
export function defaultNoteOptions(
  setup: GuitarSetup,
  thresholds: Partial<NoteThresholds> = {},
): NoteOptions {
  const open = [...setup.tuning];
  return {
    onsetThreshold: thresholds.onset_threshold ?? DEFAULT_THRESHOLDS.onset_threshold,
    frameThreshold: thresholds.frame_threshold ?? DEFAULT_THRESHOLDS.frame_threshold,
    minNoteFrames: thresholds.minimum_note_length ?? DEFAULT_THRESHOLDS.minimum_note_length,
    amplitudeThreshold: thresholds.amplitude_threshold ?? DEFAULT_THRESHOLDS.amplitude_threshold,
    minPitch: Math.min(...open) + setup.capo,
    maxPitch: Math.max(...open) + setup.capo + setup.frets,
    maxPolyphony: 6,
    strings: open.map((p) => p + setup.capo),
    frets: setup.frets,
  };
}
