import { useCallback, useEffect, useRef, useState } from 'react';
import { VideoRetryPolicy } from './videoRetry';

/**
 * When the video fails to load (a signed link that expired during a long session, a dropped
 * connection), asks for a fresh link once and puts the new video back where the old one was.
 * A link that fails again before it could play is not retried (see VideoRetryPolicy).
 */
export function useVideoRecovery(video: HTMLVideoElement | null, refresh: () => void) {
  const resumeAt = useRef<number | null>(null);
  const [policy] = useState(() => new VideoRetryPolicy());
  useEffect(() => {
    if (!video) return;
    const onLoaded = () => {
      if (resumeAt.current !== null) video.currentTime = resumeAt.current;
      resumeAt.current = null;
    };
    const onPlayable = () => {
      policy.playable();
    };
    video.addEventListener('loadedmetadata', onLoaded);
    video.addEventListener('canplay', onPlayable);
    return () => {
      video.removeEventListener('loadedmetadata', onLoaded);
      video.removeEventListener('canplay', onPlayable);
    };
  }, [video, policy]);
  return useCallback(() => {
    if (!video || !policy.shouldRetry(video.error?.code)) return;
    resumeAt.current = video.currentTime;
    refresh();
  }, [video, policy, refresh]);
}
