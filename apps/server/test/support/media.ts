import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFfmpeg } from '@riffscribe/engine';

const cached = new Map<number, Buffer>();

/**
 * A real, tiny MP4 (`seconds` long, default 1; 64x48 H.264 picture, AAC tone; a few kilobytes)
 * made once per process and length with ffmpeg. process-video probes what it is given, so tests
 * that only need an accepted upload send this instead of arbitrary bytes.
 */
export function tinyVideo(seconds = 1): Buffer {
  const hit = cached.get(seconds);
  if (hit) return hit;
  const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-tiny-'));
  const out = path.join(dir, 'tiny.mp4');
  try {
    const result = spawnSync(
      findFfmpeg(),
      [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        `color=c=gray:s=64x48:r=10:d=${seconds}`,
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=440:duration=${seconds}`,
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-shortest',
        '-movflags',
        '+faststart',
        '-y',
        out,
      ],
      { encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr}`);
    const made = readFileSync(out);
    cached.set(seconds, made);
    return made;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
