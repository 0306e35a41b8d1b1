import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFfmpeg } from '../../packages/engine/src/adapters/binaries.js';

/** A scratch directory for the media files one test file makes. */
export function mediaDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'riffscribe-e2e-media-'));
}

/**
 * Makes a real H.264/AAC MP4 with ffmpeg: a moving test pattern and a plucked-string-like
 * tone sequence (A minor arpeggio), `seconds` long, 640x360 at 30 fps; `audio: false` leaves
 * the sound track out.
 */
export function makeVideo(
  dir: string,
  name: string,
  seconds: number,
  options: { audio?: boolean } = {},
): string {
  const audio = options.audio ?? true;
  const file = path.join(dir, name);
  const notes = [220, 261.63, 329.63, 440, 329.63, 261.63];
  const step = 0.5;
  // One decaying sine per half second, cycling through the arpeggio.
  const expr = notes
    .map((f, i) => {
      const phase = `mod(t,${String(step * notes.length)})-${String(i * step)}`;
      return `between(${phase},0,${String(step)})*sin(2*PI*${String(f)}*t)*exp(-4*(${phase}))`;
    })
    .join('+');
  execFileSync(
    findFfmpeg(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=640x360:rate=30:duration=${String(seconds)}`,
      ...(audio
        ? ['-f', 'lavfi', '-i', `aevalsrc='0.6*(${expr})':s=44100:d=${String(seconds)}`]
        : []),
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-preset',
      'veryfast',
      ...(audio ? ['-c:a', 'aac', '-b:a', '96k', '-shortest'] : ['-an']),
      '-movflags',
      '+faststart',
      file,
    ],
    { timeout: 120_000 },
  );
  return file;
}

/** A short real audio file (MP3): the wrong type for the upload. */
export function makeAudio(dir: string, name: string): string {
  const file = path.join(dir, name);
  execFileSync(
    findFfmpeg(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      '-c:a',
      'libmp3lame',
      file,
    ],
    { timeout: 60_000 },
  );
  return file;
}

/** A sparse file of `bytes` bytes (no disk used) with a video extension: too large to upload. */
export function makeSparseFile(dir: string, name: string, bytes: number): string {
  const file = path.join(dir, name);
  const fd = openSync(file, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return file;
}
