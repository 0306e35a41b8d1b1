import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { EngineError } from '../errors.js';
import { Activation } from '../notes/posteriorgram.js';
import {
  REFINER_BINS,
  REFINER_CHANNELS,
  REFINER_CHUNK,
  refineActivations,
  type RefinerProbabilities,
} from '../notes/refine.js';
import type { ModelOutput } from '../types.js';
import { SpilledWords } from './spill.js';

/**
 * The note refiner (packages/engine/models/refiner, see its MODEL_CARD.md) on onnxruntime-node:
 * one session per process, loaded on first use from the package's own files. notes/refine.ts
 * builds its input and blends its output with Basic Pitch's onsets.
 */

/** The network's file (same depth from src/ and dist/, like Basic Pitch's in model.ts). */
const REFINER_FILE = fileURLToPath(new URL('../../models/refiner/refiner.onnx', import.meta.url));

/** Clips longer than this many frames (about 48 s) keep the refined activations on disk. */
const SPILL_FRAMES = 4 * REFINER_CHUNK;

type Run = (input: Float32Array, frames: number) => Promise<RefinerProbabilities>;
let loading: Promise<Run> | undefined;

async function load(): Promise<Run> {
  try {
    // Two threads: the refiner runs alone between the note model and the later stages.
    const session = await ort.InferenceSession.create(REFINER_FILE, {
      intraOpNumThreads: 2,
      interOpNumThreads: 1,
      enableCpuMemArena: false,
    });
    return async (input, frames) => {
      const tensor = new ort.Tensor('float32', input, [1, REFINER_CHANNELS, frames, REFINER_BINS]);
      const out = await session.run({ posteriorgrams: tensor });
      const { onsets, notes } = out;
      if (!onsets || !notes) throw new Error('the note refiner returned no onsets or notes');
      return { onsets: onsets.data as Float32Array, notes: notes.data as Float32Array };
    };
  } catch (error) {
    loading = undefined;
    throw new EngineError('model_failed', `Could not load the note refiner: ${String(error)}`);
  }
}

/** The process's note refiner, loaded once. */
export function loadRefiner(): Promise<Run> {
  loading ??= load();
  return loading;
}

/**
 * The network alone: onset and note probabilities, each [frames, REFINER_BINS], for an input
 * built by refinerInput ([REFINER_CHANNELS, frames, REFINER_BINS]).
 */
export async function runRefiner(
  input: Float32Array,
  frames: number,
): Promise<RefinerProbabilities> {
  return (await loadRefiner())(input, frames);
}

/** Basic Pitch's output with refined activations, and a way to free what the refinement kept. */
export interface RefinedOutput {
  output: ModelOutput;
  close(): void;
}

/**
 * `output` with its onset and note activations replaced by the blends of Basic Pitch's and the
 * refiner's (notes/refine.ts); contours unchanged. A long clip's refined activations go to disk;
 * `close` removes them.
 */
export async function refineOutput(output: ModelOutput): Promise<RefinedOutput> {
  await loadRefiner();
  const spill = output.frames.length > SPILL_FRAMES;
  const stores = spill ? [new SpilledWords(), new SpilledWords()] : [];
  const close = () => {
    for (const store of stores) store.close();
  };
  try {
    const { onsets, frames } = await refineActivations(output, runRefiner, {
      onsets: new Activation(REFINER_CHUNK, stores[0]),
      frames: new Activation(REFINER_CHUNK, stores[1]),
    });
    return { output: { ...output, onsets, frames }, close };
  } catch (error) {
    close();
    if (error instanceof EngineError) throw error;
    throw new EngineError('model_failed', `The note refiner failed: ${String(error)}`);
  }
}
