import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFfmpeg, findFfprobe } from '../../packages/engine/src/adapters/binaries.js';

/**
 * Media files the e2e tests and benches make with ffmpeg (the engine's lookup: PATH, else the
 * static binaries npm ships). Arguments stay within what ffmpeg 4.1 understands.
 */

/** A scratch directory for the media files one test file makes. */
export function mediaDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'riffscribe-e2e-media-'));
}

/** A hang guard, not a speed check: a long clip on a busy two-core machine takes minutes. */
function ffmpeg(args: string[], timeoutMs = 600_000): void {
  execFileSync(findFfmpeg(), ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    timeout: timeoutMs,
  });
}

/** A plucked-string-like A minor arpeggio, one decaying tone every 0.5 s (A3 C4 E4 A4 E4 C4). */
function arpeggio(seconds: number): string {
  const notes = [220, 261.63, 329.63, 440, 329.63, 261.63];
  const step = 0.5;
  const expr = notes
    .map((f, i) => {
      const phase = `mod(t,${String(step * notes.length)})-${String(i * step)}`;
      return `between(${phase},0,${String(step)})*sin(2*PI*${String(f)}*t)*exp(-4*(${phase}))`;
    })
    .join('+');
  return `aevalsrc='0.6*(${expr})':s=44100:d=${String(seconds)}`;
}

export interface VideoOptions {
  /**
   * The sound track: the A minor `arpeggio` (default; the engine finds its notes), a quiet
   * 220 Hz `tone` (a lesson whose notes the test supplies), or `none` (no audio stream).
   */
  sound?: 'arpeggio' | 'tone' | 'none';
  /** 360x640 like a phone recording, instead of 640x360. */
  portrait?: boolean;
  /** Video frames per second (30 unless set): a long clip for a bench is quicker made at fewer. */
  fps?: number;
  /** A WAV file for the sound track instead of `sound` (e.g. a rendered performance). */
  audioFile?: string;
}

/**
 * A real H.264/AAC MP4 (yuv420p, a keyframe every second, index at the front as the worker
 * writes video.mp4) with a moving test pattern at 30 fps, `seconds` long. Returns its path.
 */
export function makeVideo(
  dir: string,
  name: string,
  seconds: number,
  options: VideoOptions = {},
): string {
  const sound = options.sound ?? 'arpeggio';
  const size = options.portrait ? '360x640' : '640x360';
  const file = path.join(dir, name);
  const audioInput = options.audioFile
    ? ['-i', options.audioFile]
    : sound === 'arpeggio'
      ? ['-f', 'lavfi', '-i', arpeggio(seconds)]
      : sound === 'tone'
        ? ['-f', 'lavfi', '-i', `sine=frequency=220:sample_rate=44100:duration=${String(seconds)}`]
        : [];
  cachedFfmpeg(file, [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size}:rate=${String(options.fps ?? 30)}:duration=${String(seconds)}`,
    ...audioInput,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '30',
    ...(sound === 'none'
      ? ['-an']
      : [
          '-c:a',
          'aac',
          '-b:a',
          '96k',
          ...(sound === 'tone' ? ['-af', 'volume=0.2'] : []),
          '-shortest',
        ]),
    '-movflags',
    '+faststart',
  ]);
  return file;
}

/**
 * Writes `file` as ffmpeg makes it from `args` (its inputs and options, without the output),
 * from a cache shared by every test file and run on this machine: the same arguments to the same
 * ffmpeg give the same file, and several test files use the same clips. Made in a file of its
 * own and renamed into place, so a test never reads half of one.
 */
function cachedFfmpeg(file: string, args: string[]): void {
  const binary = findFfmpeg();
  const key = createHash('sha256')
    .update([binary, String(statSync(binary).mtimeMs), ...args].join('\0'))
    .digest('hex')
    .slice(0, 24);
  const cache = path.join(tmpdir(), 'riffscribe-test-media', `${key}${path.extname(file)}`);
  if (!existsSync(cache)) {
    mkdirSync(path.dirname(cache), { recursive: true });
    const partial = `${cache}.${String(process.pid)}.partial${path.extname(file)}`;
    try {
      ffmpeg([...args, partial]);
      renameSync(partial, cache);
    } finally {
      rmSync(partial, { force: true });
    }
  }
  copyFileSync(cache, file);
}

/** A mono 16-bit WAV of a steady sine, e.g. a guitar string for the tuner's fake microphone. */
export function makeToneWav(dir: string, hz: number, seconds: number): string {
  const file = path.join(dir, `tone-${String(hz)}.wav`);
  ffmpeg(
    [
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
    60_000,
  );
  return file;
}

/** A short real audio file (MP3): the wrong type for the upload. */
export function makeAudio(dir: string, name: string): string {
  const file = path.join(dir, name);
  ffmpeg(
    ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'libmp3lame', file],
    60_000,
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

/** A JPEG frame of `video` at `seconds`, as the browser's thumbnail would be. */
export function jpegFrame(video: string, seconds: number): Buffer {
  return execFileSync(
    findFfmpeg(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-ss',
      String(seconds),
      '-i',
      video,
      '-frames:v',
      '1',
      '-vf',
      'scale=480:-2',
      '-f',
      'mjpeg',
      'pipe:1',
    ],
    { timeout: 60_000 },
  );
}

/** What ffprobe reads of a file: its duration (from the packets if the header has none) and streams. */
export function probeMedia(file: string): {
  duration: number;
  video: { codec: string; width: number; height: number } | null;
  audio: { codec: string } | null;
} {
  const run = (args: string[]) =>
    execFileSync(findFfprobe(), ['-v', 'error', ...args, file], {
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    }).toString();
  const info = JSON.parse(run(['-show_streams', '-show_format', '-of', 'json'])) as {
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
    format: { duration?: string };
  };
  const v = info.streams.find((s) => s.codec_type === 'video');
  const a = info.streams.find((s) => s.codec_type === 'audio');
  let duration = Number(info.format.duration);
  if (!Number.isFinite(duration)) {
    // The end of the last video packet.
    const lines = run([
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time,duration_time',
      '-of',
      'csv=p=0',
    ])
      .trim()
      .split('\n');
    const [pts, dur] = (lines.at(-1) ?? '').split(',').map(Number);
    duration = (pts ?? 0) + (Number.isFinite(dur) ? (dur ?? 0) : 0);
  }
  return {
    duration,
    video: v ? { codec: v.codec_name, width: v.width ?? 0, height: v.height ?? 0 } : null,
    audio: a ? { codec: a.codec_name } : null,
  };
}

/** One frame at `seconds`, scaled to width x height, as RGB bytes. */
export function rgbFrame(video: string, seconds: number, width: number, height: number): Buffer {
  return execFileSync(
    findFfmpeg(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      video,
      '-ss',
      String(seconds),
      '-frames:v',
      '1',
      '-vf',
      `scale=${String(width)}:${String(height)}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
}
