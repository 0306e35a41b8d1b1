import type { BeatGrid } from '@riffscribe/core';
import type { EngineErrorCode, MediaInfo, Progress, Transcription } from '@riffscribe/engine';

export type { EngineErrorCode };

/**
 * The part of `@riffscribe/engine` the server uses, stated here so that the server depends on
 * a small, fixed surface: probeMedia, transcribe, findFfmpeg, loadModels, refingerSelection. The
 * engine is loaded lazily (it brings ONNX Runtime with it), in the engine child process for
 * transcription and in the API process for probing and re-fingering (the fingering model is
 * small, 425 KiB, and answers in milliseconds; the child works one transcription at a time and
 * an editor's request must not queue behind one).
 */

/** Facts about a media file (engine `probeMedia`). */
export type MediaFacts = Pick<
  MediaInfo,
  | 'durationSeconds'
  | 'hasAudio'
  | 'hasVideo'
  | 'formatName'
  | 'width'
  | 'height'
  | 'frameRate'
  | 'videoCodec'
  | 'pixelFormat'
  | 'videoProfile'
  | 'sampleAspectRatio'
  | 'audioCodec'
  | 'audioChannels'
>;

/** Engine progress: its stage name, its own percent 0..100 and a sentence. */
export type EngineProgress = Progress;

/**
 * What `transcribe` returns: the results file, notes and chords, and the beat grid (stored as
 * beats.json). The grid crosses a process boundary, so the worker treats it as optional: a
 * transcription without one still makes a lesson (the exports and the notation view then use a
 * steady grid).
 */
export type EngineTranscription = Omit<Transcription, 'beats'> & { beats?: BeatGrid };

/** The engine functions the server calls. */
export type EngineApi = Pick<
  typeof import('@riffscribe/engine'),
  'probeMedia' | 'transcribe' | 'findFfmpeg' | 'loadModels' | 'refingerSelection'
>;

/** Every code of the engine's expected failures (EngineError); the compiler keeps it complete. */
const ENGINE_CODES: Record<EngineErrorCode, true> = {
  empty_file: true,
  unreadable_media: true,
  no_audio_stream: true,
  too_long: true,
  timeout: true,
  cancelled: true,
  model_failed: true,
};

/** An engine failure as it crosses a process boundary: its code and its sentence. */
export interface EngineFailure {
  code: EngineErrorCode;
  message: string;
  /** With `too_long`: the media's measured length in seconds. */
  durationSeconds?: number;
}

/** The code and message of an EngineError (by shape: it may come from another module copy). */
export function asEngineFailure(error: unknown): EngineFailure | null {
  if (!(error instanceof Error) || !('code' in error)) return null;
  const code = error.code;
  if (typeof code !== 'string' || !Object.hasOwn(ENGINE_CODES, code)) return null;
  const failure: EngineFailure = { code: code as EngineErrorCode, message: error.message };
  const duration = 'durationSeconds' in error ? error.durationSeconds : undefined;
  if (typeof duration === 'number' && Number.isFinite(duration)) failure.durationSeconds = duration;
  return failure;
}

let loaded: Promise<EngineApi> | null = null;

/** Loads the engine once per process. */
export function loadEngine(): Promise<EngineApi> {
  loaded ??= import('@riffscribe/engine').catch((error: unknown) => {
    loaded = null;
    throw error;
  });
  return loaded;
}
