import { MESSAGES, type JobStage } from '@riffscribe/core';

/**
 * Stage names, messages and overall percentages of the processing pipeline (DESIGN.md,
 * "Processing pipeline"). The engine reports its own stages with a percent of its own work;
 * the worker maps that onto the job's overall percent and adds its own stages around it.
 */

/** The sentence shown for each stage while it runs. */
export const STAGE_MESSAGES: Record<JobStage, string> = {
  queued: MESSAGES.defaultProcessingMessage,
  probing: 'Checking your video...',
  extracting_audio: 'Extracting the audio...',
  transcribing: 'Listening to the notes...',
  assigning_tabs: 'Placing the notes on strings and frets...',
  detecting_techniques: 'Detecting bends, slides, hammer-ons and vibrato...',
  detecting_chords: 'Detecting chords and key...',
  // The web app shows 'Generating new video' when the stage mentions final video generation.
  final_video_generation: 'Final video generation: preparing a browser-ready copy of your video...',
  completed: MESSAGES.processingComplete,
  failed: MESSAGES.jobFailed,
};

/** Where each part of the work sits on the overall 0..100 scale. */
export interface ProgressPlan {
  /** Engine work (probe to chords) spans [engineFrom, engineTo]. */
  engineFrom: number;
  engineTo: number;
  /** The browser video spans [videoFrom, videoTo]; empty when it is skipped. */
  videoFrom: number;
  videoTo: number;
  /** Storing the outputs. */
  storing: number;
}

/** The plan for a job with or without the browser video. */
export function progressPlan(withVideo: boolean): ProgressPlan {
  return withVideo
    ? { engineFrom: 2, engineTo: 75, videoFrom: 75, videoTo: 96, storing: 97 }
    : { engineFrom: 2, engineTo: 95, videoFrom: 95, videoTo: 95, storing: 97 };
}

function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** The overall percent (whole number) for `percent` (0..100) of the span [from, to]. */
export function spanPercent(from: number, to: number, percent: number): number {
  return Math.round(from + ((to - from) * clampPercent(percent)) / 100);
}
