import type { BeatGrid } from '@riffscribe/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Loop, SettingsAction } from '../model/playerState';
import type { LoopWrap } from '../playback/usePlaybackLoop';
import { clicksBetween, countIn, type Click } from './metronome';
import {
  afterPass,
  DEFAULT_TRAINER,
  normalizeTrainer,
  startTraining,
  type SpeedTrainer,
  type TrainerState,
} from './speedTrainer';

/** How often the metronome looks ahead, ms, and how far (seconds of the audio clock). */
const TICK_MS = 25;
const LOOK_AHEAD_S = 0.15;
/** Time between the count-in's start and its first click (the audio clock needs a moment). */
const COUNT_LEAD_S = 0.1;

/** A click as scheduled, for the tests (window.__RIFFSCRIBE_CLICKS__ when a test sets it). */
export interface ScheduledClick extends Click {
  kind: 'beat' | 'count';
  /** The audio clock's time it sounds at, and the speed it was scheduled for. */
  at: number;
  speed: number;
}

function clickLog(): ScheduledClick[] | null {
  const w = window as unknown as { __RIFFSCRIBE_CLICKS__?: ScheduledClick[] };
  return w.__RIFFSCRIBE_CLICKS__ ?? null;
}

/** The metronome's sound: a short sine blip, higher on a bar's first beat. */
export function blip(ctx: AudioContext, when: number, accent: boolean, volume: number): void {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = accent ? 1760 : 1175;
  const peak = Math.max(0.0001, volume * (accent ? 1 : 0.7));
  gain.gain.setValueAtTime(0.0001, when);
  gain.gain.exponentialRampToValueAtTime(peak, when + 0.002);
  gain.gain.exponentialRampToValueAtTime(0.0001, when + 0.05);
  osc.connect(gain).connect(ctx.destination);
  osc.start(when);
  osc.stop(when + 0.06);
}

export interface Practice {
  metronome: boolean;
  setMetronome: (on: boolean) => void;
  clickVolume: number;
  setClickVolume: (volume: number) => void;
  countInOn: boolean;
  setCountIn: (on: boolean) => void;
  /** A count-in is playing (the video waits). */
  counting: boolean;
  trainer: SpeedTrainer;
  setTrainer: (trainer: SpeedTrainer) => void;
  /** The training under way, or null. */
  training: TrainerState | null;
  /** Starts (at the trainer's start speed) or stops the speed trainer. */
  toggleTraining: () => void;
  /** For usePlaybackLoop: each completed pass of the loop. */
  onWrap: LoopWrap;
  /** Play with a count-in when it is on (else plays at once); a second press stops the count. */
  play: () => void;
}

/**
 * The practice tools (issue 40): the metronome on the lesson's beats, a one-bar count-in before
 * play and before each repeat of the loop, and the speed trainer that steps the loop's speed up
 * after its passes. Clicks are scheduled on the Web Audio clock a little ahead, from the video's
 * time and speed, so they stay on the beats at any speed.
 */
export function usePractice(input: {
  video: HTMLVideoElement | null;
  grid: BeatGrid | undefined;
  loop: Loop | null;
  speed: number;
  dispatch: (action: SettingsAction) => void;
  /**
   * At each wrap of the loop: whether the pass counts for the speed trainer (with Listen & check
   * on, only a pass of at least 90 % hits does). Counts when absent.
   */
  passCounts?: (loop: Loop) => boolean;
}): Practice {
  const { video, grid, loop, speed, dispatch, passCounts } = input;
  const [metronome, setMetronome] = useState(false);
  const [clickVolume, setClickVolume] = useState(0.6);
  const [countInOn, setCountIn] = useState(false);
  const [counting, setCounting] = useState(false);
  const [trainer, setTrainerState] = useState<SpeedTrainer>(DEFAULT_TRAINER);
  const [trainingState, setTraining] = useState<TrainerState | null>(null);
  // The trainer needs a loop: without one there is no training.
  const training = loop ? trainingState : null;
  const audio = useRef<AudioContext | null>(null);
  const countTimer = useRef<number | null>(null);
  const live = useRef({
    metronome,
    clickVolume,
    countInOn,
    grid,
    trainer,
    training,
    speed,
    passCounts,
  });
  useEffect(() => {
    live.current = {
      metronome,
      clickVolume,
      countInOn,
      grid,
      trainer,
      training,
      speed,
      passCounts,
    };
  }, [metronome, clickVolume, countInOn, grid, trainer, training, speed, passCounts]);

  const context = useCallback((): AudioContext => {
    audio.current ??= new AudioContext({ latencyHint: 'interactive' });
    if (audio.current.state === 'suspended') void audio.current.resume();
    return audio.current;
  }, []);
  useEffect(
    () => () => {
      if (countTimer.current !== null) window.clearTimeout(countTimer.current);
      void audio.current?.close();
    },
    [],
  );

  const sound = useCallback(
    (click: Click, at: number, kind: ScheduledClick['kind'], rate: number) => {
      const ctx = context();
      blip(ctx, at, click.accent, live.current.clickVolume);
      clickLog()?.push({ ...click, kind, at, speed: rate });
    },
    [context],
  );

  // The metronome: every TICK_MS, the beats of the next LOOK_AHEAD_S of audio clock.
  useEffect(() => {
    if (!metronome || !video) return;
    let last = -Infinity;
    const reset = () => {
      last = -Infinity;
    };
    video.addEventListener('seeking', reset);
    video.addEventListener('pause', reset);
    const timer = window.setInterval(() => {
      const g = live.current.grid;
      if (!g || video.paused || video.ended || video.seeking) return;
      const ctx = context();
      const t = video.currentTime;
      const rate = video.playbackRate || 1;
      const from = Math.max(t, last + 1e-6);
      for (const click of clicksBetween(g, from, t + LOOK_AHEAD_S * rate)) {
        sound(click, ctx.currentTime + (click.time - t) / rate, 'beat', rate);
        last = click.time;
      }
    }, TICK_MS);
    return () => {
      window.clearInterval(timer);
      video.removeEventListener('seeking', reset);
      video.removeEventListener('pause', reset);
    };
  }, [metronome, video, context, sound]);

  const stopCount = useCallback(() => {
    if (countTimer.current !== null) window.clearTimeout(countTimer.current);
    countTimer.current = null;
    setCounting(false);
  }, []);

  /** One bar of clicks before `at`, then the video plays from `at`. */
  const runCountIn = useCallback(
    (at: number, rate: number) => {
      const g = live.current.grid;
      if (!video) return;
      const clicks = g ? countIn(g, at) : [];
      const first = clicks[0];
      if (!first) {
        void video.play().catch(() => undefined);
        return;
      }
      const ctx = context();
      const start = ctx.currentTime + COUNT_LEAD_S;
      for (const c of clicks) sound(c, start + (c.time - first.time) / rate, 'count', rate);
      stopCount();
      setCounting(true);
      countTimer.current = window.setTimeout(
        () => {
          countTimer.current = null;
          setCounting(false);
          video.currentTime = at;
          void video.play().catch(() => undefined);
        },
        (COUNT_LEAD_S + (at - first.time) / rate) * 1000,
      );
    },
    [video, context, sound, stopCount],
  );

  const onWrap = useCallback<LoopWrap>(
    (wrapped) => {
      const now = live.current;
      const before = now.training;
      let rate = now.speed;
      const counts = now.passCounts?.(wrapped) ?? true;
      if (before) {
        const next = afterPass(now.trainer, before, counts);
        // At once, so that a second wrap before React renders counts from this pass.
        live.current = { ...now, training: next };
        setTraining(next);
        if (next.speed !== before.speed) {
          rate = next.speed;
          dispatch({ type: 'setTrainerSpeed', speed: next.speed });
        }
      }
      if (now.countInOn && now.grid) {
        runCountIn(wrapped.start, rate);
        return 'hold';
      }
      return 'play';
    },
    [dispatch, runCountIn],
  );

  const play = useCallback(() => {
    if (!video) return;
    if (countTimer.current !== null) {
      stopCount();
      return;
    }
    if (!video.paused && !video.ended) {
      video.pause();
      return;
    }
    if (live.current.countInOn && live.current.grid) {
      runCountIn(video.currentTime, video.playbackRate || live.current.speed);
    } else {
      void video.play().catch(() => undefined);
    }
  }, [video, runCountIn, stopCount]);

  const setTrainer = useCallback((t: SpeedTrainer) => {
    setTrainerState(normalizeTrainer(t));
  }, []);

  const toggleTraining = useCallback(() => {
    if (live.current.training) {
      setTraining(null);
      return;
    }
    const state = startTraining(live.current.trainer);
    setTraining(state);
    dispatch({ type: 'setTrainerSpeed', speed: state.speed });
  }, [dispatch]);

  return {
    metronome,
    setMetronome: (on) => {
      if (on) context();
      setMetronome(on);
    },
    clickVolume,
    setClickVolume,
    countInOn,
    setCountIn: (on) => {
      if (on) context();
      else stopCount();
      setCountIn(on);
    },
    counting,
    trainer,
    setTrainer,
    training,
    toggleTraining,
    onWrap,
    play,
  };
}
