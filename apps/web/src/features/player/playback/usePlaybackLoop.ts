import { useEffect, useRef } from 'react';
import { soundingAt, type NoteIndex } from '../model/noteIndex';
import { loopTarget, type Loop } from '../model/playerState';
import { MediaClock } from './clock';
import { perfLog, type PlaybackBus } from './playbackBus';

/**
 * What the practice tools do when a loop wraps: `'hold'` keeps the video paused at the loop's
 * start (a count-in plays it on), `'play'` lets it go on at once.
 */
export type LoopWrap = (loop: Loop) => 'hold' | 'play';

/**
 * The animation loop: every frame it reads the video's time (the master clock), wraps the loop,
 * finds the sounding notes and publishes them on the bus, whose listeners draw synchronously in
 * the same frame. `onWrap` hears each completed pass of the loop.
 */
export function usePlaybackLoop(
  video: HTMLVideoElement | null,
  index: NoteIndex,
  loop: Loop | null,
  bus: PlaybackBus,
  onWrap?: LoopWrap,
): void {
  const state = useRef({ index, loop, onWrap });
  useEffect(() => {
    state.current = { index, loop, onWrap };
  }, [index, loop, onWrap]);

  useEffect(() => {
    if (!video) return;
    const clock = new MediaClock();
    const onSeeking = () => {
      clock.reset();
    };
    video.addEventListener('seeking', onSeeking);
    let raf = 0;
    const frame = (now: number) => {
      raf = requestAnimationFrame(frame);
      const perf = perfLog();
      const started = perf ? performance.now() : 0;
      const { loop: activeLoop, index: notes, onWrap: wrapped } = state.current;
      const playing = !video.paused && !video.ended;
      let t = clock.read(video.currentTime, now, video.playbackRate, playing && !video.seeking);
      const back = loopTarget(activeLoop, t);
      if (back !== null && activeLoop && (playing || video.ended)) {
        const next = wrapped?.(activeLoop) ?? 'play';
        if (next === 'hold') video.pause();
        video.currentTime = back;
        clock.reset();
        t = back;
        if (next === 'play' && (video.ended || video.paused)) {
          void video.play().catch(() => undefined);
        }
      }
      bus.publish(t, soundingAt(notes, t), playing);
      if (perf) {
        perf.frames.push(now);
        perf.work.push(performance.now() - started);
      }
    };
    raf = requestAnimationFrame(frame);
    return () => {
      cancelAnimationFrame(raf);
      video.removeEventListener('seeking', onSeeking);
    };
  }, [video, bus]);
}
