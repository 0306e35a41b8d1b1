import type { DetectedNote, ModelOutput } from '../types.js';
import { framesToSeconds, midi } from '../units.js';
import { byStart, type NoteCandidate } from './candidate.js';
import type { NoteOptions } from './options.js';
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
 * rendered guitar material and then checked on the real excerpts (packages/lab/src/notes-dev.ts):
 *
 * 1. onsets.ts: weak onset peaks count when the note activation confirms them;
 * 2. tracking.ts: each onset followed in the note activation (Basic Pitch);
 * 3. amplitude: a note whose note activation never reaches `amplitudeThreshold` is dropped;
 * 4. ghosts.ts: octave and harmonic ghosts of a simultaneous stronger note are dropped;
 * 5. legato.ts: notes without an attack are kept only as a string's legato continuation;
 * 6. strums.ts: notes of a strum missed above are recovered from the chord around them;
 * 7. polyphony.ts: at most `maxPolyphony` notes sound at once.
 */

/**
 * Switches for the rules beyond stock Basic Pitch, all on by default. For measuring what each
 * rule contributes (packages/lab/src/notes-dev.ts); production callers leave them alone.
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
