import type { ChordEvent, NoteEvent, UploadConfig } from '@riffscribe/core';
import { AudioBuffer, checkDuration, probeMedia, streamAudio } from './adapters/media.js';
import { ModelStream, runModel, windowCount } from './adapters/model.js';
import { EngineError } from './errors.js';
import { detectChords, detectKey } from './harmony/index.js';
import { defaultNoteOptions, extractNotes } from './notes/extract.js';
import type {
  EngineStage,
  ProgressListener,
  ResultsFile,
  TranscribeOptions,
  Transcription,
} from './pipeline-types.js';
import { assignTab } from './tab/assign.js';
import { oneNotePerString } from './tab/strings.js';
import { detectTechniques } from './techniques/detect.js';
import type { DetectedNote, GuitarSetup, ModelOutput, TabNote } from './types.js';
import { FRAME_RATE, SAMPLE_RATE } from './units.js';

export const ENGINE_VERSION = '1.0.0';

/** Overall percent at the start of each stage; the model's own progress fills `transcribing`. */
const STAGE_START: Record<EngineStage, number> = {
  probing: 0,
  extracting_audio: 4,
  transcribing: 10,
  assigning_tabs: 80,
  detecting_techniques: 86,
  detecting_chords: 94,
};

const STAGE_MESSAGE: Record<EngineStage, string> = {
  probing: 'Checking the video',
  extracting_audio: 'Extracting the audio',
  transcribing: 'Listening for notes',
  assigning_tabs: 'Choosing strings and frets',
  detecting_techniques: 'Finding bends, slides, hammer-ons and pull-offs',
  detecting_chords: 'Naming chords and the key',
};

/** Decoder time limit before the clip's own length is added (see transcribe). */
const DECODE_TIMEOUT_MS = 180_000;

/** RMS below this (about -60 dBFS) is treated as silence. */
const SILENCE_RMS = 0.001;

/** The guitar a config describes. */
export function guitarSetup(config: UploadConfig): GuitarSetup {
  return { tuning: config.tuning, capo: config.capo, frets: config.visible_frets };
}

function reporter(onProgress: ProgressListener | undefined) {
  let last = -1;
  return (stage: EngineStage, fraction = 0) => {
    const start = STAGE_START[stage];
    const stages = Object.values(STAGE_START);
    const next = stages.find((p) => p > start) ?? 100;
    const percent = Math.max(last, Math.round(start + (next - start) * fraction));
    last = percent;
    onProgress?.({ stage, percent, message: STAGE_MESSAGE[stage] });
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EngineError('cancelled', 'The transcription was cancelled.');
}

function rms(audio: Float32Array): number {
  let sum = 0;
  for (const sample of audio) sum += sample * sample;
  return audio.length === 0 ? 0 : Math.sqrt(sum / audio.length);
}

/** The notes of a lesson, with the stages' intermediate results. */
export interface LessonNotes {
  /** The notes stage's notes (pitch and timing), also what chords and key are named from. */
  detected: DetectedNote[];
  /** The same notes placed on strings and frets. */
  tab: TabNote[];
  /** The lesson's notes with their techniques, in the spec's format. */
  notes: NoteEvent[];
}

export interface LessonNoteOptions {
  /** Places the detected notes instead of the tab stage (measurement: the true strings). */
  place?: (detected: readonly DetectedNote[]) => TabNote[];
  /** Called before the tab and the techniques stages (progress, cancellation). */
  onStage?: (stage: 'assigning_tabs' | 'detecting_techniques') => void;
}

/**
 * From the model's output to the lesson's notes (pure): notes (notes/extract.ts) without those
 * starting too close to the end, tab (assignTab, then one note per string), techniques. `output`
 * is null for a silent clip. transcribeAudio and the corpus measurement both use this, so they
 * score the same notes.
 */
export function lessonNotes(
  output: ModelOutput | null,
  audio: Float32Array,
  config: UploadConfig,
  options: LessonNoteOptions = {},
): LessonNotes {
  const setup = guitarSetup(config);
  const duration = audio.length / SAMPLE_RATE;
  // A note that starts closer to the end of the audio than the minimum note length cannot be
  // heard whole: at the edge the model sees the sound stop, not a new note.
  const lastStart = duration - config.minimum_note_length / FRAME_RATE;
  const detected = output
    ? extractNotes(output, defaultNoteOptions(setup, config)).filter((n) => n.time < lastStart)
    : [];
  options.onStage?.('assigning_tabs');
  const tab = options.place
    ? options.place(detected)
    : oneNotePerString(assignTab(detected, setup));
  options.onStage?.('detecting_techniques');
  const notes = detectTechniques(tab, audio, setup);
  return { detected, tab, notes };
}

/**
 * Transcribes a video or audio file: probe (unless `options.probed` says what a probe found),
 * then decode to mono 22050 Hz and run the note model
 * at the same time, a batch of windows as soon as the decoder has produced it (the decoder waits
 * for the model, so undecoded audio never piles up), then the stages after the model on the
 * whole clip. The notes come out exactly as `transcribeAudio` gives them for the decoded clip:
 * the model's batches do not depend on how the audio arrives.
 * Throws EngineError for media it cannot use (empty, unreadable, no audio, too long).
 */
export async function transcribe(
  file: string,
  config: UploadConfig,
  onProgress?: ProgressListener,
  options: TranscribeOptions = {},
): Promise<Transcription> {
  const report = reporter(onProgress);
  const { signal } = options;
  report('probing');
  let info: { durationSeconds: number };
  if (options.probed) {
    info = options.probed;
    checkDuration(info.durationSeconds, options.maxDurationSeconds);
  } else {
    info = await probeMedia(file, {
      ...(options.maxDurationSeconds === undefined
        ? {}
        : { maxDurationSeconds: options.maxDurationSeconds }),
      ...(signal ? { signal } : {}),
    });
  }
  throwIfAborted(signal);
  report('extracting_audio');
  const expected = Math.ceil(info.durationSeconds * SAMPLE_RATE);
  // A little room over the probed length: containers round their durations.
  const audio = new AudioBuffer(expected + SAMPLE_RATE / 2);
  const windows = windowCount(expected);
  const model = new ModelStream((done) => {
    report('transcribing', Math.min(1, done / windows));
  });
  await streamAudio(
    file,
    (piece) => {
      audio.append(piece);
      return model.push(piece);
    },
    {
      ...(signal ? { signal } : {}),
      ...(options.chunkSamples === undefined ? {} : { chunkSamples: options.chunkSamples }),
      // The decoder waits for the model: allow for both, at a generous real-time factor.
      timeoutMs: DECODE_TIMEOUT_MS + info.durationSeconds * 1000,
    },
  );
  const samples = audio.samples();
  const output = await model.end();
  throwIfAborted(signal);
  return finishTranscription(
    samples,
    rms(samples) < SILENCE_RMS ? null : output,
    config,
    report,
    signal,
  );
}

/** Transcribes decoded audio (mono, 22050 Hz) into the spec's results, notes and chords. */
export async function transcribeAudio(
  audio: Float32Array,
  config: UploadConfig,
  onProgress?: ProgressListener,
  options: TranscribeOptions = {},
): Promise<Transcription> {
  const report = reporter(onProgress);
  const { signal } = options;
  const silent = rms(audio) < SILENCE_RMS;

  report('transcribing');
  const output = silent
    ? null
    : await runModel(audio, (fraction) => {
        report('transcribing', fraction);
      });
  throwIfAborted(signal);
  return finishTranscription(audio, output, config, report, signal);
}

/** The stages after the model: notes, tab, techniques, chords and key, and the results file. */
function finishTranscription(
  audio: Float32Array,
  output: ModelOutput | null,
  config: UploadConfig,
  report: ReturnType<typeof reporter>,
  signal: AbortSignal | undefined,
): Transcription {
  const duration = audio.length / SAMPLE_RATE;
  const silent = output === null;
  const { detected, notes } = lessonNotes(output, audio, config, {
    onStage: (stage) => {
      throwIfAborted(signal);
      report(stage);
    },
  });
  throwIfAborted(signal);

  report('detecting_chords');
  const chords: ChordEvent[] = detectChords(detected);
  const musicalKey = detected.length > 0 ? detectKey(detected) : '';

  const results: ResultsFile = {
    capo: config.capo,
    tuning: [...config.tuning],
    tuning_name: config.tuning_name,
    musical_key: musicalKey,
    config,
    duration,
    note_count: notes.length,
    message: silent
      ? 'The video is silent, so there were no notes to write.'
      : notes.length === 0
        ? 'No guitar notes were heard in this video.'
        : null,
    engine_version: ENGINE_VERSION,
  };
  return { results, notes, chords };
}
