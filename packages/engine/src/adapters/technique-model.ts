import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { NoteEvent } from '@riffscribe/core';
import * as ort from 'onnxruntime-node';
import { EngineError } from '../errors.js';
import type { AttackAnalysis } from '../techniques/attacks.js';
import {
  demoteMarks,
  GATE_WIDTH,
  gateFeatures,
  markOccurrences,
  type GateThreshold,
} from '../techniques/gate.js';
import type { GuitarSetup } from '../types.js';

/**
 * The technique gate's model (packages/engine/models/techniques, MODEL_CARD.md) on
 * onnxruntime-node: one session per process, loaded on first use. techniques/gate.ts says what
 * it reads and what is done with its answer.
 */

const MODEL_DIR = new URL('../../models/techniques/', import.meta.url);

/**
 * A loaded gate: the probability that each mark is right, and the thresholds under which a mark
 * is a suggestion (gate.json: `threshold`, and `thresholds` per technique where they differ).
 */
export interface TechniqueGate {
  threshold: GateThreshold;
  run(features: Float32Array, rows: number): Promise<Float32Array>;
}

let loading: Promise<TechniqueGate> | undefined;

async function load(): Promise<TechniqueGate> {
  try {
    const card = JSON.parse(
      await readFile(fileURLToPath(new URL('gate.json', MODEL_DIR)), 'utf8'),
    ) as { features: number; threshold: number; thresholds?: Record<string, number> };
    if (card.features !== GATE_WIDTH) {
      throw new Error(`model expects ${card.features} features, the engine makes ${GATE_WIDTH}`);
    }
    const session = await ort.InferenceSession.create(
      fileURLToPath(new URL('gate.onnx', MODEL_DIR)),
      { intraOpNumThreads: 1, interOpNumThreads: 1 },
    );
    return {
      threshold: { ...card.thresholds, default: card.threshold },
      async run(features, rows) {
        if (rows === 0) return new Float32Array(0);
        const out = await session.run({
          features: new ort.Tensor('float32', features, [rows, GATE_WIDTH]),
        });
        const p = out.probability;
        if (!p) throw new Error('the technique gate returned no probability');
        return p.data as Float32Array;
      },
    };
  } catch (error) {
    loading = undefined;
    throw new EngineError('model_failed', `Could not load the technique gate: ${String(error)}`);
  }
}

/** The process's technique gate, loaded once. */
export function loadTechniqueGate(): Promise<TechniqueGate> {
  loading ??= load();
  return loading;
}

/**
 * The lesson's notes with the marks the gate doubts moved to suggestions (gate.ts demoteMarks).
 * `threshold` overrides the model card's for every technique (measurement).
 */
export async function gateTechniques(
  notes: readonly NoteEvent[],
  attacks: AttackAnalysis | null,
  setup: GuitarSetup,
  threshold?: number,
): Promise<NoteEvent[]> {
  const marks = markOccurrences(notes);
  if (marks.length === 0) return [...notes];
  const gate = await loadTechniqueGate();
  const p = await gate.run(gateFeatures(notes, marks, attacks, setup), marks.length);
  return demoteMarks(notes, marks, p, threshold ?? gate.threshold);
}
