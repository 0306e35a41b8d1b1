/** Why the engine refused or could not finish a file. Callers map codes to their own messages. */
export type EngineErrorCode =
  | 'empty_file'
  | 'unreadable_media'
  | 'no_audio_stream'
  | 'too_long'
  | 'timeout'
  | 'model_failed'
  | 'cancelled';

/** An expected failure with a code and a sentence a person can act on. */
export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    /** With `too_long`: the media's length in seconds, as measured (callers word their own message). */
    readonly durationSeconds?: number,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
