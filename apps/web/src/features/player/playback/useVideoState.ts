import { useEffect, useState } from 'react';

export interface VideoState {
  playing: boolean;
  /** Seconds; 0 until the metadata is loaded. */
  duration: number;
}

/** The video element's play state and duration, from its own events. */
export function useVideoState(video: HTMLVideoElement | null): VideoState {
  const [state, setState] = useState<VideoState>({ playing: false, duration: 0 });
  useEffect(() => {
    if (!video) return;
    const update = () => {
      setState({
        playing: !video.paused && !video.ended,
        duration: Number.isFinite(video.duration) ? video.duration : 0,
      });
    };
    const events = [
      'play',
      'pause',
      'ended',
      'loadedmetadata',
      'durationchange',
      'error',
      'emptied',
    ];
    for (const e of events) video.addEventListener(e, update);
    update();
    return () => {
      for (const e of events) video.removeEventListener(e, update);
    };
  }, [video]);
  return state;
}
