import type { ChordEvent, NoteEvent, UploadConfig } from '@riffscribe/core';
import { decodeAudio, probeMedia } from './adapters/media.js';
import { runModel } from './adapters/model.js';
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
import type { GuitarSetup } from './types.js';
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

/**
 * Transcribes a video or audio file: probe, decode to mono 22050 Hz, then `transcribeAudio`.
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
  await probeMedia(file, {
    ...(options.maxDurationSeconds === undefined
      ? {}
      : { maxDurationSeconds: options.maxDurationSeconds }),
    ...(signal ? { signal } : {}),
  });
  throwIfAborted(signal);
  report('extracting_audio');
  const audio = await decodeAudio(file, signal ? { signal } : {});
  return transcribeAudio(audio, config, onProgress, options);
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
  const setup = guitarSetup(config);
  const duration = audio.length / SAMPLE_RATE;
  const silent = rms(audio) < SILENCE_RMS;

  report('transcribing');
  const output = silent
    ? null
    : await runModel(audio, (fraction) => {
        report('transcribing', fraction);
      });
  throwIfAborted(signal);
  // A note that starts closer to the end of the audio than the minimum note length cannot be
  // heard whole: at the edge the model sees the sound stop, not a new note.
  const lastStart = duration - config.minimum_note_length / FRAME_RATE;
  const detected = output
    ? extractNotes(output, defaultNoteOptions(setup, config)).filter((n) => n.time < lastStart)
    : [];

  report('assigning_tabs');
  const tab = oneNotePerString(assignTab(detected, setup));
  throwIfAborted(signal);

  report('detecting_techniques');
  const notes: NoteEvent[] = detectTechniques(tab, audio, setup);
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
