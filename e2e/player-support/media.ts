import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findFfmpeg } from '../../packages/engine/src/adapters/binaries.js';

/**
 * A real H.264/AAC MP4 (faststart, as the worker writes video.mp4) made by ffmpeg: a moving test
 * picture in portrait, like a phone recording, with a quiet tone as its sound.
 */
export function makeVideo(dir: string, seconds: number): Buffer {
  const file = path.join(dir, `lesson-${String(seconds)}s.mp4`);
  execFileSync(
    findFfmpeg(),
    [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=360x640:rate=30:duration=${String(seconds)}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=220:sample_rate=44100:duration=${String(seconds)}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '30',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-af',
      'volume=0.2',
      '-movflags',
      '+faststart',
      '-shortest',
      file,
    ],
    { timeout: 120_000 },
  );
  return readFileSync(file);
}

/** A mono 16-bit WAV of a steady sine, e.g. a guitar string for the tuner's fake microphone. */
export function makeToneWav(dir: string, hz: number, seconds: number): string {
  const file = path.join(dir, `tone-${String(hz)}.wav`);
  execFileSync(
    findFfmpeg(),
    [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${String(hz)}:sample_rate=48000:duration=${String(seconds)}`,
      '-af',
      'volume=0.5',
      '-ac',
      '1',
      '-c:a',
      'pcm_s16le',
      file,
    ],
    { timeout: 60_000 },
  );
  return file;
}
