import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFfmpeg } from '../../../../packages/engine/src/adapters/binaries.js';

let cached: Buffer | null = null;

/**
 * A real, tiny MP4 (1 s, 64x48 H.264 picture, AAC tone; a few kilobytes) made once per process
 * with ffmpeg. process-video probes what it is given, so tests that only need an accepted
 * upload send this instead of arbitrary bytes.
 */
export function tinyVideo(): Buffer {
  if (cached) return cached;
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
        'color=c=gray:s=64x48:r=10:d=1',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:duration=1',
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
    cached = readFileSync(out);
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
