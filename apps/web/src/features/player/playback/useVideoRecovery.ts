import { useCallback, useEffect, useRef } from 'react';

/**
 * When the video fails to load (a signed link that expired during a long session, a dropped
 * connection), asks for a fresh link and puts the new video back where the old one was.
 */
export function useVideoRecovery(video: HTMLVideoElement | null, refresh: () => void) {
  const resumeAt = useRef<number | null>(null);
  useEffect(() => {
    if (!video) return;
    const onLoaded = () => {
      if (resumeAt.current !== null) restore(video, resumeAt.current);
      resumeAt.current = null;
    };
    video.addEventListener('loadedmetadata', onLoaded);
    return () => {
      video.removeEventListener('loadedmetadata', onLoaded);
    };
  }, [video]);
  return useCallback(() => {
    if (!video) return;
    resumeAt.current = video.currentTime;
    refresh();
  }, [video, refresh]);
}

function restore(video: HTMLVideoElement, time: number): void {
  video.currentTime = time;
}
