import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beatGridSchema, defaultUploadConfig, steadyGrid } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFfmpeg } from '../src/adapters/binaries.js';
import { probeMedia, streamAudio } from '../src/adapters/media.js';
import { EngineError } from '../src/errors.js';
import { SAMPLE_RATE } from '../src/units.js';
import { transcribe } from '../src/pipeline.js';

/**
 * Bad input through the engine API and the CLI: a clear error or an empty lesson with a message,
 * never a crash or a hang. Media is made here with the real ffmpeg.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(here, '../dist/cli.js');
let dir: string;

function ffmpeg(args: string[]): void {
  const r = spawnSync(findFfmpeg(), ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

const files: Record<string, string> = {};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-bad-'));
  const p = (name: string) => (files[name] = path.join(dir, name));
  writeFileSync(p('text.mp4'), 'this is not a video, it is a text file\n'.repeat(20));
  writeFileSync(p('empty.mp4'), '');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=196:duration=3',
    '-c:a',
    'aac',
    p('audio-only.m4a'),
  ]);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=320x240:r=25:d=3',
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=44100:cl=mono',
    '-t',
    '3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    p('silence.mp4'),
  ]);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=320x240:r=25:d=3',
    '-f',
    'lavfi',
    '-i',
    'anoisesrc=r=44100:color=pink:amplitude=0.3:d=3',
    '-t',
    '3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    p('noise.mp4'),
  ]);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=320x240:r=25:d=4',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:duration=4',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    p('whole.mp4'),
  ]);
  // 90 s of sound in a Matroska file whose header claims 25 s: the Duration element (EBML id
  // 0x4489, a float in milliseconds) rewritten, as someone dodging a length check would.
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'sine=frequency=196:duration=90'],
    ...['-c:a', 'aac', '-f', 'matroska', p('long.mka')],
  ]);
  const mka = readFileSync(files['long.mka']!);
  const at = mka.indexOf(Buffer.from([0x44, 0x89]));
  if (at < 0 || mka[at + 2] !== 0x88) throw new Error('no 8-byte Duration in the Matroska header');
  mka.writeDoubleBE(25_000, at + 3);
  writeFileSync(p('claims-25s.mka'), mka);
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'color=c=black:s=320x240:r=25:d=2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', p('no-sound.mp4')],
  ]);
  writeFileSync(p('truncated.mp4'), readFileSync(files['whole.mp4']!));
  truncateSync(files['truncated.mp4']!, Math.floor(statSync(files['whole.mp4']!).size / 3));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('bad input through the engine API', () => {
  const config = defaultUploadConfig('acoustic');
  const refuses = async (name: string, code: string) => {
    const error = await transcribe(files[name]!, config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe(code);
    expect((error as EngineError).message).toMatch(/\.$/);
  };

  it('refuses a text file named .mp4', () => refuses('text.mp4', 'unreadable_media'));
  it('refuses a 0-byte file', () => refuses('empty.mp4', 'empty_file'));
  it("refuses a video without a sound track in the probe's words (it runs beside the decoder)", async () => {
    await refuses('no-sound.mp4', 'no_audio_stream');
    await expect(transcribe(files['no-sound.mp4']!, config)).rejects.toThrow(
      'This video has no sound track. Record or export it with sound and upload it again.',
    );
  });
  it('refuses a truncated video', () => refuses('truncated.mp4', 'unreadable_media'));
  it('refuses media over the caller limit', async () => {
    const error = await transcribe(files['whole.mp4']!, config, undefined, {
      maxDurationSeconds: 2,
    }).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('too_long');
  });

  it('refuses media whose header claims less than the limit while its sound goes on', async () => {
    const file = files['claims-25s.mka']!;
    expect((await probeMedia(file)).durationSeconds).toBeCloseTo(25, 0);
    const error = await transcribe(file, config, undefined, {
      maxDurationSeconds: 31,
      probed: { durationSeconds: 25 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('too_long');
    // The message and the measured length tell the real length, not the header's claim.
    expect((error as EngineError).durationSeconds).toBeCloseTo(90, 0);
    expect((error as EngineError).message).toMatch(/1 min 30 s long; the limit is 31 seconds/);
  });

  it('stops decoding just past the limit instead of decoding the whole file', async () => {
    let delivered = 0;
    const error = await streamAudio(
      files['claims-25s.mka']!,
      (piece) => {
        delivered += piece.length;
      },
      { refuseOverSeconds: 31 },
    ).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('too_long');
    expect(delivered / SAMPLE_RATE).toBeLessThanOrEqual(31.5);
    expect(delivered / SAMPLE_RATE).toBeGreaterThan(25);
  });

  it('transcribes an audio-only file', async () => {
    const result = await transcribe(files['audio-only.m4a']!, config);
    expect(result.results.duration).toBeGreaterThan(2.5);
    expect(result.notes.length).toBeGreaterThan(0);
    // 196 Hz is G3: the open G string or a fretted note of the same pitch.
    for (const n of result.notes) expect(55).toBe(config.tuning[6 - n.string]! + n.fret);
    expect(beatGridSchema.safeParse(result.beats).success).toBe(true);
  });

  it('gives an empty lesson with a message for silence', async () => {
    const result = await transcribe(files['silence.mp4']!, config);
    expect(result.notes).toEqual([]);
    expect(result.chords).toEqual([]);
    expect(result.results.message).toMatch(/silent/);
    // No pulse to hear: the steady 120 BPM 4/4 grid over the clip.
    expect(result.beats).toEqual(steadyGrid(120, 4, result.results.duration));
  });

  it('does not crash on a clip with no guitar (noise)', async () => {
    const result = await transcribe(files['noise.mp4']!, config);
    expect(result.notes.length).toBeLessThan(10);
    if (result.notes.length === 0) expect(result.results.message).toMatch(/No guitar notes/);
  });
});

describe('bad input through the CLI', () => {
  it('prints a clear error and exits 1 for a text file named .mp4', async () => {
    const r = await runCli(['transcribe', files['text.mp4']!]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^riffscribe: .+\.\n$/m);
    expect(r.stderr).not.toMatch(/at .+\.js:\d+/);
  });

  it('exits 2 with the usage for a bad option', async () => {
    const r = await runCli(['transcribe', files['whole.mp4']!, '--capo', '13']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/capo/);
    expect(r.stderr).toMatch(/Usage: riffscribe transcribe/);
  });

  it('writes the three files and an ASCII tab for a real clip', async () => {
    const out = path.join(dir, 'out');
    const r = await runCli(['transcribe', files['whole.mp4']!, '--tuning', 'drop-d', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/100%/);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      tuning_name: string;
    };
    expect(results.tuning_name).toBe('Drop D');
    expect(JSON.parse(readFileSync(path.join(out, 'notes.json'), 'utf8'))).toBeInstanceOf(Array);
    expect(JSON.parse(readFileSync(path.join(out, 'chords.json'), 'utf8'))).toBeInstanceOf(Array);
    expect(r.stdout).toMatch(/^E \|/m);
  });
});
