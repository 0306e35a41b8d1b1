import { DEFAULT_THRESHOLDS, type UploadConfig } from '@riffscribe/core';
import type { DetectedNote, GuitarSetup, ModelOutput } from '../types.js';
import { framesToSeconds, midi } from '../units.js';
import { byStart, type NoteCandidate } from './candidate.js';
import { bendCurve } from './contour.js';
import { removeGhosts } from './ghosts.js';
import { keepLegatoContinuations } from './legato.js';
import { findOnsets } from './onsets.js';
import { limitPolyphony } from './polyphony.js';
import { recoverStrumNotes } from './strums.js';
import { trackNotes } from './tracking.js';

/**
 * Note extraction (pure): Basic Pitch's posteriorgrams in, notes with onset, offset, pitch and
 * pitch curve out. Starts from Basic Pitch's published note creation and adds rules chosen on
 * rendered guitar material and then checked on the real excerpts (see eval/notes-dev.ts):
 *
 * 1. onsets.ts: weak onset peaks count when the note activation confirms them;
 * 2. tracking.ts: each onset followed in the note activation (Basic Pitch);
 * 3. amplitude: a note whose note activation never reaches `amplitudeThreshold` is dropped;
 * 4. ghosts.ts: octave and harmonic ghosts of a simultaneous stronger note are dropped;
 * 5. legato.ts: notes without an attack are kept only as a string's legato continuation;
 * 6. strums.ts: notes of a strum missed above are recovered from the chord around them;
 * 7. polyphony.ts: at most `maxPolyphony` notes sound at once.
 */

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

/**
 * Switches for the rules beyond stock Basic Pitch, all on by default. For measuring what each
 * rule contributes (eval/notes-dev.ts); production callers leave them alone.
 */
export interface NoteRuleSwitches {
  inferOnsets: boolean;
  weakOnsets: boolean;
  amplitude: boolean;
  ghosts: boolean;
  /** 'legato': keep notes without an attack only as continuations; 'all': keep them all (stock). */
  unattacked: 'legato' | 'all' | 'none';
  polyphony: boolean;
  /** Recover missed notes of strums from the chord around them (strums.ts). */
  strums: boolean;
}

export const ALL_RULES: NoteRuleSwitches = {
  inferOnsets: true,
  weakOnsets: true,
  amplitude: true,
  ghosts: true,
  unattacked: 'legato',
  polyphony: true,
  strums: true,
};

/** The candidates before conversion (frames), for measurement and tests. */
export function extractCandidates(
  output: ModelOutput,
  options: NoteOptions,
  rules: NoteRuleSwitches = ALL_RULES,
): NoteCandidate[] {
  const minPitch = Math.max(21, Math.round(options.minPitch));
  const maxPitch = Math.min(108, Math.round(options.maxPitch));
  if (output.frames.length === 0 || maxPitch < minPitch) return [];
  const onsets = findOnsets(output, {
    onsetThreshold: options.onsetThreshold,
    amplitudeThreshold: options.amplitudeThreshold,
    minPitch,
    maxPitch,
    inferOnsets: rules.inferOnsets,
    weakOnsets: rules.weakOnsets,
  });
  let notes = trackNotes(output, onsets, {
    frameThreshold: options.frameThreshold,
    minNoteFrames: options.minNoteFrames,
    minPitch,
    maxPitch,
    legatoCandidates: rules.unattacked !== 'none',
  });
  if (rules.amplitude) notes = notes.filter((n) => n.amplitude >= options.amplitudeThreshold);
  if (rules.ghosts) notes = removeGhosts(notes);
  if (rules.unattacked === 'legato') notes = keepLegatoContinuations(notes);
  if (rules.strums) notes = recoverStrumNotes(output, notes, options);
  if (rules.polyphony) notes = limitPolyphony(notes, options.maxPolyphony);
  return notes.sort(byStart);
}

/**
 * Notes in the clip, sorted by time then pitch. Times are frame times (frame i at i / FRAME_RATE
 * seconds); `bend` has one value per frame of the note, in semitones from `pitch`.
 */
export function extractNotes(
  output: ModelOutput,
  options: NoteOptions,
  rules: NoteRuleSwitches = ALL_RULES,
): DetectedNote[] {
  return extractCandidates(output, options, rules).map((c) => toDetectedNote(output, c));
}

export function toDetectedNote(output: ModelOutput, c: NoteCandidate): DetectedNote {
  return {
    time: framesToSeconds(c.start),
    endTime: framesToSeconds(c.end),
    pitch: midi(c.pitch),
    amplitude: c.amplitude,
    onset: c.onset,
    bend: bendCurve(output.contours, c.pitch, c.start, c.end),
  };
}
