import type { NoteEvent } from '@riffscribe/core';
import type { GuitarSetup, TabNote } from '../types.js';
import { analyseAttacks } from './attacks.js';
import { CHAIN_EVENT_OPTIONS, chainEvents, type ChainEventOptions } from './chain-events.js';
import { buildChains, CHAIN_OPTIONS, findStrikes, type ChainOptions } from './chains.js';
import { contourOffset } from './curves.js';
import { findMutes, MUTE_OPTIONS, type MuteOptions } from './mutes.js';

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
 * 4. mutes.ts: dead notes, struck but unpitched, where no pitched note explains the attack.
 *
 * Without audio (an empty array) strikes are judged from the model's onset activation and no
 * dead notes are found.
 */

export interface TechniqueOptions {
  chains: ChainOptions;
  events: ChainEventOptions;
  mutes: MuteOptions;
}

export const TECHNIQUE_OPTIONS: TechniqueOptions = {
  chains: CHAIN_OPTIONS,
  events: CHAIN_EVENT_OPTIONS,
  mutes: MUTE_OPTIONS,
};

/**
 * @param notes the tab (string and fret per note; `bend` per model frame, semitones from pitch).
 * @param audio the clip, mono at 22050 Hz (may be empty).
 * @returns NoteEvents sorted by time then string, one technique per side of a note.
 */
export function detectTechniques(
  notes: readonly TabNote[],
  audio: Float32Array,
  setup: GuitarSetup,
  options: TechniqueOptions = TECHNIQUE_OPTIONS,
): NoteEvent[] {
  const offset = contourOffset(notes);
  const sorted = notes
    .map((n) => (offset === 0 ? n : { ...n, bend: n.bend.map((v) => v - offset) }))
    .sort((a, b) => a.time - b.time || a.pitch - b.pitch);
  const attacks = audio.length > 0 ? analyseAttacks(audio) : null;
  const struck = findStrikes(sorted, attacks, options.chains);
  const chains = buildChains(sorted, struck, setup, options.chains);
  const events = chains.flatMap((chain) => chainEvents(chain, audio, setup, options.events));
  const mutes = attacks ? findMutes(events, attacks, setup, options.mutes) : [];
  return [...events, ...mutes].sort((a, b) => a.time - b.time || b.string - a.string);
}
