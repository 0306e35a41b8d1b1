import { useEffect } from 'react';
import type { PlayerSettings } from '../model/playerState';
import { STEM_RESYNC_SECONDS, stemPlayback } from './stem';

/**
 * Applies speed, audio source and volume to the media elements: the video keeps its pitch at any
 * speed; its sound is heard only with the original source; the guitar stem follows the video at
 * the spec's speed ratio and is put back in place when it drifts.
 */
export function useMediaOutputs(
  video: HTMLVideoElement | null,
  stem: HTMLAudioElement | null,
  settings: Pick<PlayerSettings, 'speed' | 'audioSource' | 'volume'>,
): void {
  const { speed, audioSource, volume } = settings;

  useEffect(() => {
    if (video) applyToVideo(video, speed, audioSource, volume);
  }, [video, speed, audioSource, volume]);

  useEffect(() => {
    if (!video || !stem) return;
    if (audioSource !== 'guitar') {
      stem.pause();
      return;
    }
    const align = () => {
      alignStem(video, stem, volume);
    };
    const events = ['play', 'pause', 'seeked', 'ratechange'];
    for (const e of events) video.addEventListener(e, align);
    const timer = window.setInterval(align, 250);
    align();
    return () => {
      for (const e of events) video.removeEventListener(e, align);
      window.clearInterval(timer);
      stem.pause();
    };
  }, [video, stem, audioSource, volume]);
}

function applyToVideo(
  video: HTMLVideoElement,
  speed: number,
  source: PlayerSettings['audioSource'],
  volume: number,
): void {
  video.preservesPitch = true;
  video.playbackRate = speed;
  video.muted = source !== 'original';
  video.volume = volume;
}

function alignStem(video: HTMLVideoElement, stem: HTMLAudioElement, volume: number): void {
  const want = stemPlayback(video.currentTime, video.playbackRate);
  stem.preservesPitch = true;
  stem.volume = volume;
  stem.playbackRate = want.rate;
  if (Math.abs(stem.currentTime - want.time) > STEM_RESYNC_SECONDS) stem.currentTime = want.time;
  if (video.paused && !stem.paused) stem.pause();
  if (!video.paused && stem.paused) void stem.play().catch(() => undefined);
}
