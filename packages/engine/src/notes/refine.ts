import type { ModelOutput } from '../types.js';
import { Activation, CONTOUR_BINS_PER_SEMITONE, MIDI_OFFSET, NOTE_BINS } from './posteriorgram.js';

/**
 * The note refiner's input and output (pure; the network runs in adapters/refiner-model.ts).
 *
 * The refiner (packages/engine/models/refiner, MODEL_CARD.md) reads Basic Pitch's three
 * posteriorgrams over the guitar's range and gives new onset and note activations: trained on
 * clips with exact answers rendered by other synthesizers than the evaluation's, it finds the
 * strings of a strum that Basic Pitch hears only as another string's harmonics, strings struck
 * again while they ring, and how long each note really sounds. Its outputs are averaged with
 * Basic Pitch's own (`blendOnsets`, `blendNotes`), so that the extraction rules after it
 * (onsets.ts, tracking.ts, strums.ts) keep their meaning and Basic Pitch's evidence is never
 * thrown away.
 */

/** Lowest MIDI pitch the refiner sees (below the lowest open string of every preset, B1). */
export const REFINER_LOW_PITCH = 35;
/** Pitches it sees: 35..90 (the 24th fret of the high E string and a bend above it). */
export const REFINER_BINS = 56;
/** Input channels: note activation, onset activation, and the three contour bins of the pitch. */
export const REFINER_CHANNELS = 5;
/**
 * Frames of context either side of a chunk: more than the network's reach (17 frames), so that
 * a clip refined chunk by chunk gives exactly what the whole clip at once would.
 */
export const REFINER_CONTEXT = 24;
/** Frames refined per network call (about 12 s). */
export const REFINER_CHUNK = 1024;
/** The refiner's onset probability is doubled (capped at 1) before the average: measured on the
 * tuned parts and the real excerpts (docs/evaluation.md), its probabilities run about half as
 * high as Basic Pitch's onset activation for the same evidence. */
export const REFINER_GAIN = 2;

/**
 * The refiner may lower Basic Pitch's onset activation to this fraction of it, no further: a
 * peak Basic Pitch alone would take as a weak onset (0.6 of the onset threshold and up, see
 * onsets.ts WEAK_ONSET_FACTOR) stays one, so a sound unlike the refiner's training material (a
 * pure tone, an instrument it never heard) keeps Basic Pitch's notes. Measured on the tuned parts:
 * the same figures as with no floor (docs/evaluation.md).
 */
export const REFINER_KEEP = 0.7;

/**
 * Like REFINER_GAIN, for the note (frame) probability: 1, a plain average. Chosen on the string
 * model and the SoundFont tuned part from 0.75, 1, 1.25, 1.5, 2 and 3 (docs/evaluation.md): 1 and
 * 1.25 tie on note F1 (0.890-0.891 tuned), and from 2 up precision falls.
 */
export const REFINER_NOTE_GAIN = 1;
/**
 * Like REFINER_KEEP, for the note activation: the refiner may halve Basic Pitch's note activation,
 * no further, so a sound it never heard keeps a note Basic Pitch holds at twice the frame
 * threshold. On the tuned parts 0, 0.3 and 0.5 give the same figures, 0.7 and 1 less.
 */
export const REFINER_NOTE_KEEP = 0.5;

/**
 * The refiner's input for frames [from, to) of `output`: [REFINER_CHANNELS, to - from,
 * REFINER_BINS], channel-major, as training/notes/data.py `features` builds it.
 */
export function refinerInput(output: ModelOutput, from: number, to: number): Float32Array {
  const frames = to - from;
  const plane = frames * REFINER_BINS;
  const input = new Float32Array(REFINER_CHANNELS * plane);
  const first = REFINER_LOW_PITCH - MIDI_OFFSET;
  const notes = new Float64Array(frames * NOTE_BINS);
  const onsets = new Float64Array(frames * NOTE_BINS);
  output.frames.readFrames(from, to, notes);
  output.onsets.readFrames(from, to, onsets);
  for (let t = 0; t < frames; t++) {
    const row = t * NOTE_BINS + first;
    const at = t * REFINER_BINS;
    for (let b = 0; b < REFINER_BINS; b++) {
      input[at + b] = notes[row + b] ?? 0;
      input[plane + at + b] = onsets[row + b] ?? 0;
    }
    const contour = output.contours.at(from + t);
    if (contour === undefined) continue;
    for (let k = 0; k < CONTOUR_BINS_PER_SEMITONE; k++) {
      const channel = (2 + k) * plane + at;
      for (let b = 0; b < REFINER_BINS; b++)
        input[channel + b] = contour[(first + b) * CONTOUR_BINS_PER_SEMITONE + k] ?? 0;
    }
  }
  return input;
}

/**
 * One onset value: Basic Pitch's and the refiner's (doubled, capped at 1) averaged, but never
 * under REFINER_KEEP of Basic Pitch's own.
 */
export function blendOnsets(basicPitch: number, refined: number): number {
  return Math.max(
    0.5 * (basicPitch + Math.min(1, REFINER_GAIN * refined)),
    REFINER_KEEP * basicPitch,
  );
}

/**
 * One note value: Basic Pitch's note activation and the refiner's note probability (times
 * REFINER_NOTE_GAIN, capped at 1) averaged, never under REFINER_NOTE_KEEP of Basic Pitch's own.
 */
export function blendNotes(basicPitch: number, refined: number): number {
  return Math.max(
    0.5 * (basicPitch + Math.min(1, REFINER_NOTE_GAIN * refined)),
    REFINER_NOTE_KEEP * basicPitch,
  );
}

/** What the network gives for one call: onset and note probabilities, [frames, REFINER_BINS]. */
export interface RefinerProbabilities {
  onsets: Float32Array;
  notes: Float32Array;
}

/** The blended activations (every bin; outside the refiner's range Basic Pitch's own). */
export interface RefinedActivations {
  onsets: Activation;
  frames: Activation;
}

/**
 * Runs the refiner over the whole clip chunk by chunk and returns the blended onset and note
 * activations. `run` takes an input built by refinerInput for `frames` frames. `into` receives
 * the rows (spilled Activations for a long video).
 */
export async function refineActivations(
  output: ModelOutput,
  run: (input: Float32Array, frames: number) => Promise<RefinerProbabilities>,
  into: RefinedActivations = {
    onsets: new Activation(REFINER_CHUNK),
    frames: new Activation(REFINER_CHUNK),
  },
): Promise<RefinedActivations> {
  const n = output.frames.length;
  const first = REFINER_LOW_PITCH - MIDI_OFFSET;
  // Basic Pitch's own values of a chunk, read at once.
  const heardOnsets = new Float64Array(REFINER_CHUNK * NOTE_BINS);
  const heardNotes = new Float64Array(REFINER_CHUNK * NOTE_BINS);
  for (let start = 0; start < n; start += REFINER_CHUNK) {
    const end = Math.min(n, start + REFINER_CHUNK);
    const from = Math.max(0, start - REFINER_CONTEXT);
    const to = Math.min(n, end + REFINER_CONTEXT);
    const refined = await run(refinerInput(output, from, to), to - from);
    const onsets = new Float32Array((end - start) * NOTE_BINS);
    const frames = new Float32Array((end - start) * NOTE_BINS);
    output.onsets.readFrames(start, end, heardOnsets);
    output.frames.readFrames(start, end, heardNotes);
    // Basic Pitch's own values outside the refiner's range, the blends inside it.
    onsets.set(heardOnsets.subarray(0, onsets.length));
    frames.set(heardNotes.subarray(0, frames.length));
    for (let t = start; t < end; t++) {
      const row = (t - start) * NOTE_BINS + first;
      const at = (t - from) * REFINER_BINS;
      for (let b = 0; b < REFINER_BINS; b++) {
        onsets[row + b] = blendOnsets(heardOnsets[row + b] ?? 0, refined.onsets[at + b] ?? 0);
        frames[row + b] = blendNotes(heardNotes[row + b] ?? 0, refined.notes[at + b] ?? 0);
      }
    }
    into.onsets.append(onsets);
    into.frames.append(frames);
  }
  return into;
}
