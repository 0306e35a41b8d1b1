import { useEffect, useRef } from 'react';
import { soundingAt, type NoteIndex } from '../model/noteIndex';
import { loopTarget, type Loop } from '../model/playerState';
import { MediaClock } from './clock';
import { perfLog, type PlaybackBus } from './playbackBus';

/**
 * The animation loop: every frame it reads the video's time (the master clock), wraps the loop,
 * finds the sounding notes and publishes them on the bus, whose listeners draw synchronously in
 * the same frame.
 */
export function usePlaybackLoop(
  video: HTMLVideoElement | null,
  index: NoteIndex,
  loop: Loop | null,
  bus: PlaybackBus,
): void {
  const state = useRef({ index, loop });
  useEffect(() => {
    state.current = { index, loop };
  }, [index, loop]);

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
      const { loop: activeLoop, index: notes } = state.current;
      const playing = !video.paused && !video.ended;
      let t = clock.read(video.currentTime, now, video.playbackRate, playing && !video.seeking);
      const back = loopTarget(activeLoop, t);
      if (back !== null && (playing || video.ended)) {
        video.currentTime = back;
        clock.reset();
        t = back;
        if (video.ended || video.paused) void video.play().catch(() => undefined);
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
