import type { Tuning } from '@riffscribe/core';
import { useEffect, useRef, useState } from 'react';
import type { NoteIndex } from '../model/noteIndex';
import type { SynthSettings } from '../model/playerState';
import type { SynthEngine } from './synthEngine';
import { SynthScheduler } from './synthPlayer';

/** How often the scheduler looks ahead, ms (well inside its 200 ms look-ahead). */
const TICK_MS = 25;
/** The voice count is passed to React at most this often, ms, so a dense passage re-renders little. */
const COUNT_MS = 250;

export type SynthStatus = 'off' | 'loading' | 'running' | 'blocked';

/**
 * Plays the lesson's notes on the synth while the synth is the audio source. Tone.js loads on
 * first use; the scheduler runs on a timer rather than animation frames so that sound keeps going
 * when the tab is in the background. `voices` counts the notes handed to the synth so far.
 */
export function useSynth(input: {
  video: HTMLVideoElement | null;
  enabled: boolean;
  settings: SynthSettings;
  volume: number;
  lesson: { index: NoteIndex; tuning: Tuning; capo: number };
}): { status: SynthStatus; voices: number } {
  const { video, enabled, settings, volume, lesson } = input;
  const [engine, setEngine] = useState<SynthEngine | null>(null);
  const [status, setStatus] = useState<SynthStatus>('off');
  const [voices, setVoices] = useState(0);
  const scheduler = useRef<SynthScheduler | null>(null);

  useEffect(() => {
    if (!enabled || engine) return;
    let cancelled = false;
    void import('./synthEngine').then(({ SynthEngine }) => {
      if (!cancelled) setEngine(new SynthEngine());
    });
    return () => {
      cancelled = true;
    };
  }, [enabled, engine]);

  useEffect(() => () => engine?.dispose(), [engine]);

  useEffect(() => {
    engine?.apply(settings);
  }, [engine, settings]);
  useEffect(() => {
    engine?.setVolume(volume);
  }, [engine, volume]);

  useEffect(() => {
    if (!engine) return;
    if (scheduler.current) scheduler.current.setLesson(lesson);
    else scheduler.current = new SynthScheduler(engine, lesson);
  }, [engine, lesson]);

  useEffect(() => {
    const sched = scheduler.current;
    if (!enabled || !engine || !video || !sched) return;
    let alive = true;
    void engine.start().then(
      () => {
        if (alive) setStatus(engine.running ? 'running' : 'blocked');
      },
      () => {
        if (alive) setStatus('blocked');
      },
    );
    const reset = () => {
      sched.reset();
    };
    video.addEventListener('seeking', reset);
    const tick = () => {
      if (!engine.running) void engine.start();
      sched.tick(
        video.currentTime,
        video.playbackRate,
        !video.paused && !video.ended && !video.seeking,
      );
    };
    const timer = window.setInterval(tick, TICK_MS);
    const counter = window.setInterval(() => {
      setVoices(sched.scheduled);
    }, COUNT_MS);
    return () => {
      alive = false;
      window.clearInterval(timer);
      window.clearInterval(counter);
      setVoices(sched.scheduled);
      video.removeEventListener('seeking', reset);
      sched.reset();
      setStatus('off');
    };
  }, [enabled, engine, video]);

  return {
    status: enabled && status === 'off' ? 'loading' : status,
    voices,
  };
}
