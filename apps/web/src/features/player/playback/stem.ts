import { GUITAR_STEM_SPEED_RATIO } from '@riffscribe/core';

/**
 * The guitar stem's position and rate for a video position and speed (spec section 9: the stem
 * plays at 1.4286 times the speed ratio, so it runs that much further per second of video).
 */
export function stemPlayback(videoTime: number, speed: number): { time: number; rate: number } {
  return { time: videoTime * GUITAR_STEM_SPEED_RATIO, rate: speed * GUITAR_STEM_SPEED_RATIO };
}

/** The stem has drifted enough from the video to be moved back in place (seconds of stem). */
export const STEM_RESYNC_SECONDS = 0.12;
