import type { Tuning } from '@riffscribe/core';
import type { Activation, RowSource } from './notes/posteriorgram.js';
import type { Fret, MidiPitch, Seconds, StringNumber } from './units.js';

/**
 * The stage contracts of the engine. Each pure stage takes typed arrays and events and returns
 * events; only `adapters/` touch ffmpeg, the model or files.
 *
 *   adapters/media  file -> mono 22050 Hz Float32Array
 *   adapters/model  audio -> ModelOutput (Basic Pitch posteriorgrams)
 *   notes/          ModelOutput -> DetectedNote[]   (pitch, timing, contour)
 *   tab/            DetectedNote[] + GuitarSetup -> TabNote[] (string and fret)
 *   techniques/     TabNote[] + audio -> NoteEvent[] (bends, vibrato, slides, h/p, mutes)
 *   harmony/        DetectedNote[] -> ChordEvent[], musical key
 */

/** Basic Pitch's three posteriorgrams, one row per model frame (FRAME_RATE per second). */
export interface ModelOutput {
  /** Note activation, 88 bins per frame (bin 0 = MIDI 21). Values 0..1. */
  frames: Activation;
  /** Onset activation, 88 bins per frame. */
  onsets: Activation;
  /**
   * Pitch contour, 264 bins per frame: 3 bins per semitone, bin 0 = MIDI 21. Read row by row
   * (`at`): for a long video they are kept on disk (adapters/spill.ts).
   */
  contours: RowSource;
}

/**
 * A clip's samples (mono, SAMPLE_RATE), read a range at a time; a Float32Array is one. For a
 * long video they are kept on disk (adapters/spill.ts), so a range returned may be a view that
 * is valid only until the next `subarray` call on the same clip: read it, do not keep it.
 */
export interface ClipAudio {
  readonly length: number;
  /** Samples `begin` to `end`, clamped to the clip as Float32Array.subarray clamps. */
  subarray(begin: number, end: number): Float32Array;
  /**
   * The sum of the squares of every sample, added in order, when the clip keeps it as it is
   * written (spilled audio does), so that clipRms need not read it all back.
   */
  readonly sumOfSquares?: number;
}

/** A pitched note found in the audio, before it has a string. */
export interface DetectedNote {
  time: Seconds;
  endTime: Seconds;
  /** The note's nominal (integer) MIDI pitch. */
  pitch: MidiPitch;
  /** Peak note activation 0..1: how sure the model is. */
  amplitude: number;
  /**
   * Peak onset activation 0..1 around `time`: how clearly the note was attacked. A legato note
   * (hammer-on, pull-off, the far end of a slide) has a weak onset.
   */
  onset: number;
  /**
   * The sounding pitch over the note, one value per model frame from `time` on, in semitones
   * relative to `pitch` (0 = in tune, +2 = a whole-step bend). May be empty when unknown.
   */
  bend: readonly number[];
}

/** Guitar setup a tab is written for. */
export interface GuitarSetup {
  /** Six open-string MIDI pitches, low string to high string. */
  tuning: Tuning;
  /** Capo fret, 0..12; frets are written relative to it. */
  capo: number;
  /** Highest fret that may be used (visible_frets: classical 19, acoustic 21, electric 23). */
  frets: number;
}

/** A note with its place on the neck: pitch = tuning[6 - string] + capo + fret. */
export interface TabNote extends DetectedNote {
  string: StringNumber;
  fret: Fret;
  /**
   * The learned fingering model's probability (0..1) of this note's string, when the string came
   * from it (the pipeline's tab stage, placeNotes).
   */
  fingeringProbability?: number;
  /**
   * The model's probability of each string for this note (index 0 = string 1), so that a stage
   * that moves the note (the hand's position rule) knows how sure the model was of the new string.
   */
  stringProbabilities?: readonly number[];
  /**
   * The clip glides into this note from the one before it on its string (a slide's arrival, or a
   * bend heard as two notes: techniques/glide-links.ts): the pitch was heard on the way, so the
   * techniques stage takes it as struck again only at a full pick's attack (chains.ts findStrikes).
   */
  glidesIn?: boolean;
}
