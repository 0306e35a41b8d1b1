import { stat } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type * as Ort from 'onnxruntime-node';
import { EngineError } from '../errors.js';
import { Activation, CONTOUR_BINS, NOTE_BINS } from '../notes/posteriorgram.js';
import type { ModelOutput } from '../types.js';
import type { SpilledRows, SpilledWords } from './spill.js';
import { HOP } from '../units.js';

/**
 * The Basic Pitch adapter: Spotify's network exported to ONNX (`models/basic-pitch/nmp.onnx`,
 * Apache-2.0, LICENSE and NOTICE beside it), run by `onnxruntime-node` on the CPU. One inference
 * session per process, created on first use (or by `loadModel` at start-up) and kept for the
 * life of the process; concurrent callers share it.
 *
 * The audio is framed here: Basic Pitch's 43844-sample windows, 15 frames trimmed at each end,
 * advancing by a whole number of output frames (142 * HOP samples). Window frame k lies at sample
 * k * HOP of its window, so stitched frame i lies at sample i * HOP of the clip with no drift.
 * `ModelStream` takes the audio in pieces of any size and runs windows as soon as a batch of them
 * is complete; the batches, and so the outputs, do not depend on how the audio was cut.
 */

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
/**
 * Windows per model call. A call's transient memory (ONNX Runtime's intermediate tensors) grows
 * with it, about 35 MB for 4 windows and half that for 2, and lands on top of whatever else the
 * process holds at that moment. 2 is as fast per window on 2 cores (npm run bench, 10-minute
 * video: transcribing 8.5-9.5 s with 2, 9.1-10.4 s with 4; 1 is slower, 10-11 s).
 */
const BATCH = 2;

/** Tensor names of the ONNX export (models/basic-pitch, README of the shared copy). */
const INPUT_NAME = 'serving_default_input_2:0';
const OUTPUT_NAMES = {
  contours: 'StatefulPartitionedCall:0',
  frames: 'StatefulPartitionedCall:1',
  onsets: 'StatefulPartitionedCall:2',
} as const;

/** The model file kept in the package (src/adapters and dist/adapters are both two levels down). */
const BUNDLED_MODEL = fileURLToPath(new URL('../../models/basic-pitch/nmp.onnx', import.meta.url));

/** The model file: RIFFSCRIBE_MODEL_FILE when set (operators, fault tests), else the bundled one. */
export function modelFile(): string {
  return process.env.RIFFSCRIBE_MODEL_FILE ?? BUNDLED_MODEL;
}

/**
 * Threads for one model call: RIFFSCRIBE_MODEL_THREADS, else the cores there are, at most 4
 * (the convolutions gain little beyond that, and workers run one engine per core).
 */
function intraOpThreads(): number {
  const fromEnv = Number(process.env.RIFFSCRIBE_MODEL_THREADS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

interface Loaded {
  ort: typeof Ort;
  session: Ort.InferenceSession;
}

let loading: Promise<Loaded> | undefined;

/** A sentence for an operator naming the file; the runtime's own words travel as `cause`. */
function modelError(file: string, why: string, cause?: unknown): EngineError {
  const error = new EngineError(
    'model_failed',
    `The note detection model file ${file} could not be loaded: ${why}. ` +
      'Reinstall the engine (npm ci) or point RIFFSCRIBE_MODEL_FILE at a good copy of nmp.onnx.',
  );
  if (cause !== undefined) error.cause = cause;
  return error;
}

/**
 * Opens an inference session on `file` and runs it once on silence, so that the first clip runs
 * at warm speed. Throws EngineError 'model_failed' naming the file when it is missing, is not
 * an ONNX model or is not Basic Pitch.
 */
export async function openModelSession(file: string): Promise<Loaded> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a regular file');
  } catch {
    throw modelError(file, 'the file is missing');
  }
  const ort = await import('onnxruntime-node');
  let session: Ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(file, {
      executionProviders: ['cpu'],
      intraOpNumThreads: intraOpThreads(),
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // No arena: a batch's tensors go back to the system when it ends, so a worker's memory does
      // not keep the high-water mark of every clip it ran. npm run bench, peak RSS: 30 s clip
      // (four runs) 323 -> 270 MB at the same speed; 10-minute video 412 -> 319 MB, 5.2 -> 5.9 s
      // transcribing.
      enableCpuMemArena: false,
      // Idle threads sleep instead of spinning: on a machine shared with ffmpeg, the web server
      // and other jobs, spinning takes CPU they need (measured: 15 % more CPU for no speed).
      extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
    });
  } catch (err) {
    throw modelError(file, 'it is damaged or not an ONNX model', err);
  }
  const outputs = Object.values(OUTPUT_NAMES);
  if (
    !session.inputNames.includes(INPUT_NAME) ||
    outputs.some((name) => !session.outputNames.includes(name))
  ) {
    await session.release();
    throw modelError(file, 'it does not have Basic Pitch inputs and outputs');
  }
  const loaded = { ort, session };
  try {
    await runBatch(loaded, new Float32Array(WINDOW_SAMPLES), 1);
  } catch (err) {
    await session.release();
    throw modelError(file, 'it does not run', err);
  }
  return loaded;
}

function loaded(): Promise<Loaded> {
  loading ??= openModelSession(modelFile()).catch((err: unknown) => {
    // Forget the failure so a later call can try again (a file restored, a transient error).
    loading = undefined;
    throw err;
  });
  return loading;
}

/**
 * Loads the model once per process (later and concurrent callers share the same session). Call
 * at start-up to keep model loading out of the first transcription.
 */
export async function loadModel(): Promise<void> {
  await loaded();
}

/** One model call on `count` windows laid end to end in `input`. */
async function runBatch(
  { ort, session }: Loaded,
  input: Float32Array,
  count: number,
): Promise<{ frames: Float32Array; onsets: Float32Array; contours: Float32Array }> {
  const feeds = { [INPUT_NAME]: new ort.Tensor('float32', input, [count, WINDOW_SAMPLES, 1]) };
  const out = await session.run(feeds);
  const data = (name: string, width: number): Float32Array => {
    const tensor = out[name];
    if (tensor?.type !== 'float32' || tensor.data.length !== count * WINDOW_FRAMES * width)
      throw new Error(`unexpected output ${name}`);
    return tensor.data as Float32Array;
  };
  return {
    frames: data(OUTPUT_NAMES.frames, NOTE_BINS),
    onsets: data(OUTPUT_NAMES.onsets, NOTE_BINS),
    contours: data(OUTPUT_NAMES.contours, CONTOUR_BINS),
  };
}

/** Kept contour rows of one batch (when no store takes them): `count` frames from `first`. */
interface Block {
  first: number;
  count: number;
  contours: Float32Array;
}

/** Stores for a long video's outputs, on disk instead of in memory (adapters/spill.ts). */
export interface OutputStores {
  contours: SpilledRows;
  frames: SpilledWords;
  onsets: SpilledWords;
}

/**
 * Basic Pitch over audio that arrives in pieces (a decoder's output): `push` the samples (mono,
 * 22050 Hz) in order, then `end` for the posteriorgrams. Only the samples the next windows need
 * are kept, so the audio held here stays under a batch of windows whatever the clip's length.
 */
export class ModelStream {
  /** Samples from absolute index `bufferStart` on: `bufferLength` of them from `buffer[head]`. */
  private buffer = new Float32Array(WINDOW_SAMPLES * 2);
  private head = 0;
  private bufferStart = 0;
  private bufferLength = 0;
  private received = 0;
  private nextWindow = 0;
  private readonly blocks: Block[] = [];
  private readonly frames: Activation;
  private readonly onsets: Activation;
  private readonly contourStore: SpilledRows | undefined;
  private running: Promise<void> = Promise.resolve();
  private failure: EngineError | undefined;

  /**
   * @param onWindows called with the number of windows done so far, after each batch.
   * @param stores where the outputs go instead of memory (a long video's are large; the caller
   *   closes them when done with the output).
   */
  constructor(
    private readonly onWindows?: (done: number) => void,
    stores?: OutputStores,
  ) {
    this.frames = new Activation(BATCH * KEPT_FRAMES, stores?.frames);
    this.onsets = new Activation(BATCH * KEPT_FRAMES, stores?.onsets);
    this.contourStore = stores?.contours;
  }

  /** Samples received so far. */
  get samples(): number {
    return this.received;
  }

  /** Adds samples (copied) and runs every complete batch of windows; resolves when they ran. */
  push(samples: Float32Array): Promise<void> {
    this.append(samples);
    this.running = this.running.then(() => this.drain(false));
    return this.running;
  }

  /** Runs the remaining windows (the last ones padded with zeros) and returns the outputs. */
  async end(): Promise<ModelOutput> {
    this.running = this.running.then(() => this.drain(true));
    await this.running;
    const nFrames = Math.floor(this.received / HOP) + 1;
    const rows = (pick: (b: Block) => Float32Array, width: number): Float32Array[] => {
      const out: Float32Array[] = [];
      for (const block of this.blocks) {
        const data = pick(block);
        for (let i = 0; i < block.count && block.first + i < nFrames; i++)
          out.push(data.subarray(i * width, (i + 1) * width));
      }
      return out;
    };
    this.contourStore?.limit(nFrames);
    this.frames.limit(nFrames);
    this.onsets.limit(nFrames);
    return {
      frames: this.frames,
      onsets: this.onsets,
      contours: this.contourStore ?? rows((b) => b.contours, CONTOUR_BINS),
    };
  }

  private append(samples: Float32Array): void {
    const needed = this.bufferLength + samples.length;
    if (this.head + needed > this.buffer.length) {
      // Move the kept samples to the front, into a larger buffer when they do not fit.
      const target =
        needed > this.buffer.length
          ? new Float32Array(Math.max(needed, this.buffer.length * 2))
          : this.buffer;
      if (target === this.buffer)
        this.buffer.copyWithin(0, this.head, this.head + this.bufferLength);
      else target.set(this.buffer.subarray(this.head, this.head + this.bufferLength));
      this.buffer = target;
      this.head = 0;
    }
    this.buffer.set(samples, this.head + this.bufferLength);
    this.bufferLength += samples.length;
    this.received += samples.length;
  }

  private windowStart(w: number): number {
    return w * WINDOW_HOP_SAMPLES - LEAD_SAMPLES;
  }

  /** Runs whole batches whose windows are complete, or at the end everything that is left. */
  private async drain(final: boolean): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    const nWindows = final ? windowCount(this.received) : 0;
    for (;;) {
      let count: number;
      if (final) {
        count = Math.min(BATCH, nWindows - this.nextWindow);
      } else {
        const lastEnd = this.windowStart(this.nextWindow + BATCH - 1) + WINDOW_SAMPLES;
        count = this.received >= lastEnd ? BATCH : 0;
      }
      if (count <= 0) return;
      try {
        await this.runWindows(count);
      } catch (err) {
        this.failure =
          err instanceof EngineError
            ? err
            : new EngineError(
                'model_failed',
                `Note detection failed (${err instanceof Error ? err.message : String(err)}). Try again; if it keeps failing, report the file.`,
              );
        throw this.failure;
      }
    }
  }

  private async runWindows(count: number): Promise<void> {
    const model = await loaded();
    const input = new Float32Array(count * WINDOW_SAMPLES);
    const bufferEnd = this.bufferStart + this.bufferLength;
    for (let b = 0; b < count; b++) {
      const start = this.windowStart(this.nextWindow + b);
      const from = Math.max(this.bufferStart, start);
      const to = Math.min(bufferEnd, start + WINDOW_SAMPLES);
      if (to > from)
        input.set(
          this.buffer.subarray(
            this.head + from - this.bufferStart,
            this.head + to - this.bufferStart,
          ),
          b * WINDOW_SAMPLES + (from - start),
        );
    }
    const out = await runBatch(model, input, count);
    const keep = (data: Float32Array, width: number): Float32Array => {
      const kept = new Float32Array(count * KEPT_FRAMES * width);
      for (let b = 0; b < count; b++) {
        const src = (b * WINDOW_FRAMES + EDGE_FRAMES) * width;
        kept.set(data.subarray(src, src + KEPT_FRAMES * width), b * KEPT_FRAMES * width);
      }
      return kept;
    };
    this.frames.append(keep(out.frames, NOTE_BINS));
    this.onsets.append(keep(out.onsets, NOTE_BINS));
    if (this.contourStore) this.contourStore.append(keep(out.contours, CONTOUR_BINS));
    else
      this.blocks.push({
        first: this.nextWindow * KEPT_FRAMES,
        count: count * KEPT_FRAMES,
        contours: keep(out.contours, CONTOUR_BINS),
      });
    this.nextWindow += count;
    outputBytesSinceCollection +=
      out.frames.byteLength + out.onsets.byteLength + out.contours.byteLength;
    if (outputBytesSinceCollection >= COLLECT_AFTER_BYTES) {
      outputBytesSinceCollection = 0;
      collectYoungGarbage();
    }
    // Forget the samples no later window reads (the space is reused by the next append).
    const drop = Math.min(
      this.bufferLength,
      Math.max(0, this.windowStart(this.nextWindow) - this.bufferStart),
    );
    this.head += drop;
    this.bufferStart += drop;
    this.bufferLength -= drop;
    this.onWindows?.(this.nextWindow);
  }
}

/**
 * ONNX Runtime returns each call's outputs in new buffers outside V8's heap (0.6 MB a call of 2
 * windows), which V8 frees only when it next collects: over a long video they piled up to 15-27
 * MB before it did, and the peak moved with them. Where the process was started with --expose-gc
 * (the engine child, see process-settings.ts), a young-generation collection after every
 * COLLECT_AFTER_BYTES of outputs frees them; elsewhere this does nothing.
 */
const COLLECT_AFTER_BYTES = 5 * 1024 * 1024;
let outputBytesSinceCollection = 0;

function collectYoungGarbage(): void {
  const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
  gc?.({ type: 'minor' });
}

/** Windows the model runs for a clip of `samples` samples. */
export function windowCount(samples: number): number {
  return Math.ceil((Math.floor(samples / HOP) + 1) / KEPT_FRAMES);
}

/**
 * Runs Basic Pitch over a whole clip.
 *
 * @param audio mono samples at SAMPLE_RATE (22050 Hz).
 * @param onProgress called with the fraction 0..1 of windows done.
 * @returns posteriorgrams with floor(audio.length / HOP) + 1 frames; frame i is centred on sample
 *   i * HOP (time i / FRAME_RATE seconds). Note and onset activations are Activation grids (16-bit); contour rows are views into one
 *   buffer per batch.
 */
export async function runModel(
  audio: Float32Array,
  onProgress?: (fraction: number) => void,
): Promise<ModelOutput> {
  const total = windowCount(audio.length);
  onProgress?.(0);
  const stream = new ModelStream((done) => onProgress?.(done / total));
  await stream.push(audio);
  return stream.end();
}
