import type { BeatGrid, ChordEvent, NoteEvent, UploadConfig } from '@riffscribe/core';

/** Engine stages in order (DESIGN.md, processing pipeline), as written to a job's `stage`. */
export const ENGINE_STAGES = [
  'probing',
  'extracting_audio',
  'transcribing',
  'assigning_tabs',
  'detecting_techniques',
  'detecting_chords',
] as const;
export type EngineStage = (typeof ENGINE_STAGES)[number];

/** Progress report: the stage, the overall percent 0..100 and a sentence for the user. */
export interface Progress {
  stage: EngineStage;
  percent: number;
  message: string;
}
export type ProgressListener = (progress: Progress) => void;

/** The results file (spec section 3): capo, tuning_name, musical_key, config, duration. */
export interface ResultsFile {
  capo: number;
  tuning: number[];
  tuning_name: string;
  musical_key: string;
  config: UploadConfig;
  /** Length of the analysed audio in seconds. */
  duration: number;
  /** Number of notes written; 0 with `message` when nothing playable was heard. */
  note_count: number;
  /** A sentence for the user when the lesson is empty or partial (silence, no guitar). */
  message: string | null;
  engine_version: string;
}

/** What `transcribe` returns and the CLI writes as results.json, notes.json, chords.json. */
export interface Transcription {
  results: ResultsFile;
  notes: NoteEvent[];
  chords: ChordEvent[];
  /**
   * Beats and bars heard in the audio (rhythm/), valid under beatGridSchema and covering the
   * clip; a clip without a pulse (silence, too few notes) gets a steady 120 BPM 4/4 grid.
   */
  beats: BeatGrid;
}

export interface TranscribeOptions {
  /**
   * Refuse media longer than this many seconds: by ffprobe's duration before decoding, and by
   * the audio itself while decoding (a header can claim less than the file holds), with
   * EngineError too_long.
   */
  maxDurationSeconds?: number;
  /**
   * What a probe of this same file already found (the worker probes before it transcribes): the
   * engine then starts decoding at once instead of running ffprobe a second time.
   */
  probed?: { durationSeconds: number };
  /** Stops the work between stages and kills ffmpeg. */
  signal?: AbortSignal;
  /**
   * Hand the decoded audio to the model in pieces ending on multiples of this many samples
   * (tests at piece boundaries); by default, as ffmpeg writes it.
   */
  chunkSamples?: number;
  /** The technique gate's threshold (LessonNoteOptions.gateThreshold): 0 keeps every mark. */
  gateThreshold?: number;
}
