import type { UploadConfig } from '@riffscribe/core';
import type {
  EngineFailure,
  EngineProgress,
  EngineTranscription,
  MediaFacts,
} from './engine-api.js';

/**
 * Messages between a worker and its engine child process (Node IPC, structured clone). One
 * request runs at a time; `id` pairs answers with requests.
 */

export type EngineRequest =
  | { type: 'probe'; id: number; file: string }
  | {
      type: 'transcribe';
      id: number;
      file: string;
      config: UploadConfig;
      /** Refuse media longer than this (ordinary users). */
      maxDurationSeconds?: number;
      /** The file's duration from the worker's probe: the engine then does not probe again. */
      durationSeconds?: number;
    }
  | { type: 'cancel'; id: number };

/** A failure that is not an EngineError (a bug, a missing module): its name and message. */
export interface InternalFailure {
  code: 'internal';
  name: string;
  message: string;
}

export type EngineResponse =
  | { type: 'ready' }
  | { type: 'progress'; id: number; progress: EngineProgress }
  | { type: 'probed'; id: number; facts: MediaFacts }
  | { type: 'transcribed'; id: number; transcription: EngineTranscription }
  | { type: 'failed'; id: number; failure: EngineFailure | InternalFailure };

/** Whether a message from the child has the shape of an EngineResponse. */
export function isEngineResponse(message: unknown): message is EngineResponse {
  return (
    typeof message === 'object' &&
    message !== null &&
    'type' in message &&
    typeof message.type === 'string'
  );
}

/** Whether a message from the parent has the shape of an EngineRequest. */
export function isEngineRequest(message: unknown): message is EngineRequest {
  return (
    typeof message === 'object' &&
    message !== null &&
    'type' in message &&
    'id' in message &&
    typeof message.id === 'number' &&
    (message.type === 'probe' || message.type === 'transcribe' || message.type === 'cancel')
  );
}
