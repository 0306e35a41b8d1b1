import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HandPosition } from '@riffscribe/core';
import * as ort from 'onnxruntime-node';
import { EngineError } from '../errors.js';
import type { DecoderWeights, Follow } from '../tab/learned/decode.js';
import {
  decodeFingering,
  prepareFingering,
  type Fingered,
  type PitchedNote,
} from '../tab/learned/finger.js';
import { N_FEATURES, type FingeringSetup, type GuitarClass } from '../tab/learned/features.js';

/**
 * The learned fingering model (packages/engine/models/fingering, see its MODEL_CARD.md) on
 * onnxruntime-node: one session per process, loaded on first use from the package's own files.
 */

/** The folder holding fingering.onnx and decoder.json (same depth from src/ and dist/). */
export const FINGERING_MODEL_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'models',
  'fingering',
);

/** A loaded model: scores notes and decodes them under the hand's rules. */
export interface FingeringModel {
  weights: DecoderWeights;
  /** Log-probabilities [6, n] (channels first) for encoded features [N_FEATURES, n]. */
  score(features: Float32Array, n: number): Promise<Float32Array>;
}

let loading: Promise<FingeringModel> | undefined;

async function load(): Promise<FingeringModel> {
  try {
    const decoder = JSON.parse(
      await readFile(path.join(FINGERING_MODEL_DIR, 'decoder.json'), 'utf8'),
    ) as { shift: number; move: number; fret?: number; features: number };
    if (decoder.features !== N_FEATURES) {
      throw new Error(
        `model expects ${decoder.features} features, the engine encodes ${N_FEATURES}`,
      );
    }
    const session = await ort.InferenceSession.create(
      path.join(FINGERING_MODEL_DIR, 'fingering.onnx'),
      { intraOpNumThreads: 1, interOpNumThreads: 1 },
    );
    return {
      weights: { shift: decoder.shift, move: decoder.move, fret: decoder.fret ?? 0 },
      async score(features, n) {
        if (n === 0) return new Float32Array(0);
        const input = new ort.Tensor('float32', features, [1, N_FEATURES, n]);
        const out = await session.run({ features: input });
        const logp = out.logp;
        if (!logp) throw new Error('the fingering model returned no logp');
        return logp.data as Float32Array;
      },
    };
  } catch (error) {
    loading = undefined;
    throw new EngineError('model_failed', `Could not load the fingering model: ${String(error)}`);
  }
}

/** The process's fingering model, loaded once. */
export function loadFingeringModel(): Promise<FingeringModel> {
  loading ??= load();
  return loading;
}

/**
 * The decoder's extra pull toward the nut (cost per 12 frets of every note's fret, added to the
 * model's own) for each hand position of Guitar Setup: the three "leans" whose per-song choice
 * training/fingering/style.py measured (MODEL_CARD.md: 0.767 with the model's own, 0.815 when the
 * best of the three is taken for each song).
 */
export const HAND_POSITION_LEAN: Record<HandPosition, number> = {
  auto: 0,
  open: 2,
  up_neck: -4,
};

/**
 * String, fret and confidence for every note, in the input's order: the learned model's scores
 * decoded under the hand's rules. `pinned` maps an input index to the string it must keep;
 * `allowed` to the only strings it may use; `follows` to the note it continues on one string
 * (see decodeFingering); `position` the player's hand position (Guitar Setup).
 */
export async function fingerNotes(
  notes: readonly PitchedNote[],
  setup: FingeringSetup,
  guitar: GuitarClass,
  pinned?: ReadonlyMap<number, number>,
  allowed?: ReadonlyMap<number, readonly number[]>,
  follows?: ReadonlyMap<number, Follow>,
  position: HandPosition = 'auto',
): Promise<Fingered[]> {
  const model = await loadFingeringModel();
  const prepared = prepareFingering(notes, setup, guitar);
  const logp = await model.score(prepared.features, notes.length);
  const weights = {
    ...model.weights,
    fret: (model.weights.fret ?? 0) + HAND_POSITION_LEAN[position],
  };
  return decodeFingering(prepared, logp, weights, pinned, allowed, follows);
}
