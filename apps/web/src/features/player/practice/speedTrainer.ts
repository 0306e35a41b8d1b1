import { clamp } from '@riffscribe/core';

/**
 * The speed trainer (issue 40), pure: the loop starts at `start` speed and, after `passes`
 * completed passes at a speed, steps up by `step` until `target`.
 */
export interface SpeedTrainer {
  /** Speeds as playback rates (1 = the video's own). */
  start: number;
  target: number;
  step: number;
  /** Completed passes at a speed before the next step, 1..10. */
  passes: number;
}

/** Where a training stands: the speed now and the passes done at it. */
export interface TrainerState {
  speed: number;
  done: number;
}

/** Slowest and fastest speed the trainer moves between (the player's own range). */
export const TRAINER_SPEEDS = { min: 0.25, max: 2 } as const;

export const DEFAULT_TRAINER: SpeedTrainer = { start: 0.5, target: 1, step: 0.05, passes: 2 };

/** The trainer with each value inside its range (start and target in the player's speeds). */
export function normalizeTrainer(t: SpeedTrainer): SpeedTrainer {
  const start = clamp(round(t.start), TRAINER_SPEEDS.min, TRAINER_SPEEDS.max);
  return {
    start,
    target: clamp(round(t.target), start, TRAINER_SPEEDS.max),
    step: clamp(round(t.step), 0.01, 0.5),
    passes: clamp(Math.round(t.passes), 1, 10),
  };
}

/** The state a training starts from. */
export function startTraining(t: SpeedTrainer): TrainerState {
  return { speed: normalizeTrainer(t).start, done: 0 };
}

/**
 * After one pass of the loop: counted when `counts` (a completed pass, or with Listen & check a
 * clean one); after `passes` counted passes the speed steps up, never past the target.
 */
export function afterPass(t: SpeedTrainer, state: TrainerState, counts = true): TrainerState {
  if (!counts) return state;
  const trainer = normalizeTrainer(t);
  const done = state.done + 1;
  if (done < trainer.passes || state.speed >= trainer.target) {
    return { speed: state.speed, done: Math.min(done, trainer.passes) };
  }
  return { speed: Math.min(trainer.target, round(state.speed + trainer.step)), done: 0 };
}

/** Speeds to the hundredth (0.1 + 0.05 is 0.15, not 0.15000000000000002). */
function round(v: number): number {
  return Math.round(v * 100) / 100;
}
