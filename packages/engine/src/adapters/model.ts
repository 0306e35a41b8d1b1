import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TF from '@tensorflow/tfjs';
import { EngineError } from '../errors.js';
import type { ModelOutput } from '../types.js';
import { HOP } from '../units.js';

/**
 * The Basic Pitch adapter: Spotify's model files from `@spotify/basic-pitch/model`, run by
 * TensorFlow.js 4 on the wasm backend (DESIGN.md: tfjs-node cannot install here, the cpu backend
 * is about 12x slower). Model and backend load once per process; weights come from the file
 * system, never from the network.
 *
 * The package's own framing (`tf.signal.frame`) fails on wasm ("Unknown dtype undefined"), so the
 * audio is framed here: Basic Pitch's 43844-sample windows, 15 frames trimmed at each end, but
 * advancing by a whole number of output frames (142 * HOP samples). Window frame k lies at sample
 * k * HOP of its window, so stitched frame i lies at sample i * HOP of the clip with no drift; the
 * package advances by 36164 samples (141.27 frames) and corrects the drift in its time stamps
 * afterwards. Measured: a tone starting at 0.5 s is found at 0.5 s +- one frame.
 */

const require = createRequire(import.meta.url);

/** Model input: 2 s at 22050 Hz less one hop (Basic Pitch's AUDIO_N_SAMPLES). */
const WINDOW_SAMPLES = 43_844;
/** Output frames per window (ceil(WINDOW_SAMPLES / HOP)). */
const WINDOW_FRAMES = 172;
/** Frames trimmed from each end of a window, where the model sees too little context. */
const EDGE_FRAMES = 15;
const KEPT_FRAMES = WINDOW_FRAMES - 2 * EDGE_FRAMES;
const WINDOW_HOP_SAMPLES = KEPT_FRAMES * HOP;
/** Zeros before the audio so that the first kept frame is the clip's frame 0. */
const LEAD_SAMPLES = EDGE_FRAMES * HOP;
/** Windows per model call: a little faster than one at a time, and bounded memory. */
const BATCH = 4;

const NOTE_BINS = 88;
const CONTOUR_BINS = 264;
/** Graph output names as the Basic Pitch package maps them. */
const OUTPUT_NAMES = { frames: 'Identity_1', onsets: 'Identity_2', contours: 'Identity' } as const;

interface Loaded {
  tf: typeof TF;
  model: TF.GraphModel;
}

let loading: Promise<Loaded> | undefined;

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

async function load(): Promise<Loaded> {
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  // A directory prefix: the backend picks tfjs-backend-wasm(-simd).wasm and, in Node, reads it
  // with fs. The trailing separator matters; the prefix is concatenated with the file name.
  wasm.setWasmPaths(path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep);
  if (!(await tf.setBackend('wasm')))
    throw new Error('the TensorFlow.js wasm backend did not start');
  await tf.ready();

  const modelDir = path.join(packageDir('@spotify/basic-pitch'), 'model');
  const json = JSON.parse(await readFile(path.join(modelDir, 'model.json'), 'utf8')) as {
    modelTopology: object;
    format?: string;
    generatedBy?: string;
    convertedBy?: string;
    signature?: object;
    weightsManifest: { paths: string[]; weights: TF.io.WeightsManifestEntry[] }[];
  };
  const weightSpecs: TF.io.WeightsManifestEntry[] = [];
  const buffers: Buffer[] = [];
  for (const group of json.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const p of group.paths) buffers.push(await readFile(path.join(modelDir, p)));
  }
  const all = Buffer.concat(buffers);
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  const artifacts: TF.io.ModelArtifacts = {
    modelTopology: json.modelTopology,
    weightSpecs,
    weightData,
  };
  if (json.format !== undefined) artifacts.format = json.format;
  if (json.generatedBy !== undefined) artifacts.generatedBy = json.generatedBy;
  if (json.convertedBy !== undefined) artifacts.convertedBy = json.convertedBy;
  if (json.signature !== undefined) artifacts.signature = json.signature;
  const model = await tf.loadGraphModel({ load: () => Promise.resolve(artifacts) });

  // One call on silence compiles the kernels, so the first real clip runs at warm speed.
  tf.tidy(() => {
    const out = model.execute(
      tf.zeros([1, WINDOW_SAMPLES, 1]),
      Object.values(OUTPUT_NAMES),
    ) as TF.Tensor[];
    for (const t of out) t.dataSync();
  });
  return { tf, model };
}

function loaded(): Promise<Loaded> {
  loading ??= load().catch((err: unknown) => {
    // Forget the failure so a later call can try again (a transient file-system error).
    loading = undefined;
    throw new EngineError(
      'model_failed',
      `The note detection model could not be loaded (${err instanceof Error ? err.message : String(err)}). ` +
        'Reinstall the engine dependencies with "npm install".',
    );
  });
  return loading;
}

/**
 * Loads the backend and the model once per process (later and concurrent callers share the same
 * promise). Call at start-up to keep model loading out of the first transcription.
 */
export async function loadModel(): Promise<void> {
  await loaded();
}

/** Tensors the backend holds (the model's weights and nothing else between calls): a leak check. */
export async function modelTensorCount(): Promise<number> {
  const { tf } = await loaded();
  return tf.memory().numTensors;
}

/**
 * Runs Basic Pitch over a whole clip.
 *
 * @param audio mono samples at SAMPLE_RATE (22050 Hz).
 * @param onProgress called with the fraction 0..1 of windows done.
 * @returns posteriorgrams with floor(audio.length / HOP) + 1 frames; frame i is centred on sample
 *   i * HOP (time i / FRAME_RATE seconds). Each row is a view into one buffer per posteriorgram.
 */
export async function runModel(
  audio: Float32Array,
  onProgress?: (fraction: number) => void,
): Promise<ModelOutput> {
  const { tf, model } = await loaded();
  const nFrames = Math.floor(audio.length / HOP) + 1;
  const nWindows = Math.ceil(nFrames / KEPT_FRAMES);
  const frames = new Float32Array(nFrames * NOTE_BINS);
  const onsets = new Float32Array(nFrames * NOTE_BINS);
  const contours = new Float32Array(nFrames * CONTOUR_BINS);
  const names = [OUTPUT_NAMES.frames, OUTPUT_NAMES.onsets, OUTPUT_NAMES.contours];

  onProgress?.(0);
  for (let first = 0; first < nWindows; first += BATCH) {
    const count = Math.min(BATCH, nWindows - first);
    const input = new Float32Array(count * WINDOW_SAMPLES);
    for (let b = 0; b < count; b++) {
      const start = (first + b) * WINDOW_HOP_SAMPLES - LEAD_SAMPLES;
      const from = Math.max(0, start);
      const to = Math.min(audio.length, start + WINDOW_SAMPLES);
      if (to > from) input.set(audio.subarray(from, to), b * WINDOW_SAMPLES + (from - start));
    }
    let results: Float32Array[];
    try {
      results = tf.tidy(() => {
        const out = model.execute(
          tf.tensor3d(input, [count, WINDOW_SAMPLES, 1]),
          names,
        ) as TF.Tensor[];
        return out.map((t) => t.dataSync() as Float32Array);
      });
    } catch (err) {
      throw new EngineError(
        'model_failed',
        `Note detection failed (${err instanceof Error ? err.message : String(err)}). Try again; if it keeps failing, report the file.`,
      );
    }
    const [f, o, c] = results;
    if (f === undefined || o === undefined || c === undefined)
      throw new EngineError('model_failed', 'Note detection returned no output.');
    for (let b = 0; b < count; b++) {
      const globalStart = (first + b) * KEPT_FRAMES;
      const keep = Math.min(KEPT_FRAMES, nFrames - globalStart);
      if (keep <= 0) break;
      const srcFrame = b * WINDOW_FRAMES + EDGE_FRAMES;
      frames.set(
        f.subarray(srcFrame * NOTE_BINS, (srcFrame + keep) * NOTE_BINS),
        globalStart * NOTE_BINS,
      );
      onsets.set(
        o.subarray(srcFrame * NOTE_BINS, (srcFrame + keep) * NOTE_BINS),
        globalStart * NOTE_BINS,
      );
      contours.set(
        c.subarray(srcFrame * CONTOUR_BINS, (srcFrame + keep) * CONTOUR_BINS),
        globalStart * CONTOUR_BINS,
      );
    }
    onProgress?.((first + count) / nWindows);
    // The model call blocks the thread; let timers, progress writes and aborts run between batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const rows = (buffer: Float32Array, width: number) =>
    Array.from({ length: nFrames }, (_, i) => buffer.subarray(i * width, (i + 1) * width));
  return {
    frames: rows(frames, NOTE_BINS),
    onsets: rows(onsets, NOTE_BINS),
    contours: rows(contours, CONTOUR_BINS),
  };
}
