import type { NoteEvent } from '@riffscribe/core';
import type { ClipAudio, GuitarSetup, TabNote } from '../types.js';
import { analyseAttacks, type AttackAnalysis } from './attacks.js';
import { chainEvents } from './chain-events.js';
import { buildChains, findStrikes, findStrums, strikeFeatures } from './chains.js';
import { contourOffset } from './curves.js';
import { deadenShortNotes, findMutes } from './mutes.js';
import { alignParallelMoves } from './parallel.js';

/**
 * Technique detection (pure): the tab's notes and the clip in, the lesson's notes with their
 * techniques out, in the spec's NoteEvent format.
 *
 * 0. curves.ts: the clip's constant offset in the model's contours is removed (the contour can
 *    sit a fraction of a semitone off for a whole recording, which would read as a bend);
 * 1. attacks.ts: where strings are struck, from the clip's high-band spectral flux;
 * 2. chains.ts: the notes of one string between two strikes (a struck note and the unstruck notes
 *    that continue it), so that a bend the notes stage reported as several notes becomes one;
 * 3. chain-events.ts: per chain, from its pitch track, steps (hammer-on up, pull-off down),
 *    slow glides within a bend's reach (bend and release: one note with bend_to_fret,
 *    release_to_fret and pitch_arr), other glides (slides), and each note's vibrato;
 * 4. parallel.ts: a double stop moving together does one thing on both strings (a step beside a
 *    slide is a slide);
 * 5. mutes.ts: dead notes: short notes whose partials die at once, and attacks that no pitched
 *    note explains after which the sound dies.
 *
 * Without audio (an empty array) strikes are judged from the model's onset activation and no
 * dead notes are found. Each step uses its module's default options (CHAIN_OPTIONS, ...).
 */

/**
 * @param notes the tab (string and fret per note; `bend` per model frame, semitones from pitch).
 * @param audio the clip, mono at 22050 Hz (may be empty).
 * @returns NoteEvents sorted by time then string, one technique per side of a note.
 */
export function detectTechniques(
  notes: readonly TabNote[],
  audio: ClipAudio,
  setup: GuitarSetup,
): NoteEvent[] {
  return techniqueStage(notes, audio, setup).events;
}

/**
 * detectTechniques with the clip's attack analysis it made (null without audio), for the
 * technique gate (gate.ts), which reads the same analysis rather than making its own.
 * `analysis`: the clip's analyseAttacks when the caller made it already (on another thread).
 */
export function techniqueStage(
  notes: readonly TabNote[],
  audio: ClipAudio,
  setup: GuitarSetup,
  analysis?: AttackAnalysis,
): { events: NoteEvent[]; attacks: AttackAnalysis | null } {
  const { sorted, attacks, strummed, struck } = strikeInputs(notes, audio, false, analysis);
  const chains = buildChains(sorted, struck, strummed, setup);
  const events = deadenShortNotes(
    alignParallelMoves(chains.flatMap((chain) => chainEvents(chain, audio, setup))),
    audio,
    setup,
  );
  const mutes = attacks ? findMutes(events, attacks, setup) : [];
  return {
    events: [...events, ...mutes].sort((a, b) => a.time - b.time || b.string - a.string),
    attacks,
  };
}

/** The notes as detectTechniques orders them, with what the strike decision reads. */
export interface StrikeInputs {
  sorted: TabNote[];
  attacks: AttackAnalysis | null;
  strummed: boolean[];
  /** strikeFeatures of `sorted` (when asked for), for a learned strike model's training data. */
  features: number[][];
  /** The rule's answer (chains.ts findStrikes). */
  struck: boolean[];
}

/**
 * The notes as detectTechniques orders them (time, then pitch), the clip's attacks, the strums,
 * the rule's strikes and (with `withFeatures`) what a learned strike model would read
 * (packages/lab/src/strike-data.ts, training/strikes).
 */
export function strikeInputs(
  notes: readonly TabNote[],
  audio: ClipAudio,
  withFeatures = false,
  analysis?: AttackAnalysis,
): StrikeInputs {
  const offset = contourOffset(notes);
  const sorted = notes
    .map((n) => (offset === 0 ? n : { ...n, bend: n.bend.map((v) => v - offset) }))
    .sort((a, b) => a.time - b.time || a.pitch - b.pitch);
  const attacks = audio.length > 0 ? (analysis ?? analyseAttacks(audio)) : null;
  const strummed = findStrums(sorted);
  return {
    sorted,
    attacks,
    strummed,
    features: withFeatures ? strikeFeatures(sorted, attacks, strummed) : [],
    struck: findStrikes(sorted, attacks, strummed),
  };
}
