import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { findFfmpeg, findFfprobe, fixtureFile } from '@riffscribe/engine';

/**
 * The GuitarSet recording the pipeline tests cut their clips from (22 s, 44.1 kHz), kept in the
 * repository (packages/engine/fixtures/datasets).
 */
export const GUITAR_WAV = fixtureFile(
  path.resolve(import.meta.dirname, '../../../../..'),
  'guitarset/00_BN1-129-Eb_comp_mic.wav',
);

export function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(findFfmpeg(), ['-nostdin', '-v', 'error', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg ${args.join(' ')} failed: ${stderr}`));
    });
  });
}

export interface ClipOptions {
  /** Length in seconds. */
  seconds: number;
  /** Where in the guitar recording the audio starts (it loops past its end). */
  offset?: number;
  width?: number;
  height?: number;
  /** Leave the picture out (an audio-only MP4). */
  audioOnly?: boolean;
  /** Leave the sound out (a silent video). */
  silent?: boolean;
  /** Put the MP4 index at the end instead of the front. */
  indexAtEnd?: boolean;
}

/**
 * A real MP4 made with ffmpeg: a generated moving picture (testsrc2) and the guitar recording
 * as AAC sound. Returns its path inside `dir`.
 */
export async function makeClip(dir: string, name: string, options: ClipOptions): Promise<string> {
  const out = path.join(dir, name);
  const size = `${options.width ?? 320}x${options.height ?? 240}`;
  const picture = ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`];
  const sound = ['-stream_loop', '-1', '-ss', String(options.offset ?? 0), '-i', GUITAR_WAV];
  const inputs = options.audioOnly ? sound : options.silent ? picture : [...picture, ...sound];
  const maps = options.audioOnly
    ? ['-map', '0:a']
    : options.silent
      ? ['-map', '0:v']
      : ['-map', '0:v', '-map', '1:a'];
  const video = options.audioOnly
    ? []
    : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  const audio = options.silent ? [] : ['-c:a', 'aac', '-b:a', '96k'];
  await ffmpeg([
    ...inputs,
    ...maps,
    '-t',
    String(options.seconds),
    ...video,
    ...audio,
    ...(options.indexAtEnd ? [] : ['-movflags', '+faststart']),
    '-f',
    'mp4',
    '-y',
    out,
  ]);
  return out;
}

export function readClip(file: string): Promise<Buffer> {
  return readFile(file);
}

/** Stream facts of a file read by ffprobe: codec names, sizes, and the order of MP4 boxes. */
export async function describeVideo(file: string): Promise<{
  videoCodec: string | undefined;
  audioCodec: string | undefined;
  width: number | undefined;
  height: number | undefined;
  durationSeconds: number;
  pixFmt: string | undefined;
}> {
  const json = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      findFfprobe(),
      ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`ffprobe failed on ${file}`));
    });
  });
  const parsed = JSON.parse(json) as {
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      pix_fmt?: string;
    }[];
    format: { duration: string };
  };
  const v = parsed.streams.find((s) => s.codec_type === 'video');
  const a = parsed.streams.find((s) => s.codec_type === 'audio');
  return {
    videoCodec: v?.codec_name,
    audioCodec: a?.codec_name,
    width: v?.width,
    height: v?.height,
    pixFmt: v?.pix_fmt,
    durationSeconds: Number(parsed.format.duration),
  };
}

/** The top-level MP4 box types in file order (faststart puts moov before mdat). */
export function topLevelBoxes(bytes: Buffer): string[] {
  const boxes: string[] = [];
  let at = 0;
  while (at + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    boxes.push(type);
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

/** EBML id of the Matroska Segment Info's Duration element (a float, in TimecodeScale units). */
const DURATION_ID = Buffer.from([0x44, 0x89]);

/**
 * Rewrites the Duration float of a Matroska/WebM file's header to claim `seconds` (with
 * ffmpeg's default TimecodeScale of 1 ms), as someone bypassing a length check would: the
 * streams stay as long as they are.
 */
export function claimDuration(bytes: Buffer, seconds: number): Buffer {
  const patched = Buffer.from(bytes);
  const at = patched.indexOf(DURATION_ID);
  if (at < 0) throw new Error('no Duration element in the Matroska header');
  const size = patched.readUInt8(at + 2);
  if (size === 0x88) patched.writeDoubleBE(seconds * 1000, at + 3);
  else if (size === 0x84) patched.writeFloatBE(seconds * 1000, at + 3);
  else throw new Error(`unexpected Duration size byte 0x${size.toString(16)}`);
  return patched;
}
