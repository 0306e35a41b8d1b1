import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_TUNING, defaultUploadConfig } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFfmpeg, findFfprobe } from '../src/adapters/binaries.js';
import { decodeAudio, probeMedia, streamAudio, type DeclaredInput } from '../src/adapters/media.js';
import { ModelStream, loadModel, openModelSession, runModel } from '../src/adapters/model.js';
import { SpilledRows, SpilledWords } from '../src/adapters/spill.js';
import { EngineError, type EngineErrorCode } from '../src/errors.js';
import { extractNotes } from '../src/notes/extract.js';
import { defaultNoteOptions } from '../src/notes/options.js';
import { transcribe } from '../src/pipeline.js';
import { FRAME_RATE, HOP, SAMPLE_RATE } from '../src/units.js';

/**
 * The media and model adapters against the real ffmpeg/ffprobe and the real Basic Pitch model on
 * ONNX Runtime. Every input file is made here with ffmpeg.
 */

const run = promisify(execFile);
let dir = '';
const file = (name: string) => path.join(dir, name);

async function ffmpeg(...args: string[]): Promise<void> {
  await run(findFfmpeg(), ['-v', 'error', '-y', ...args]);
}

async function expectCode(promise: Promise<unknown>, code: EngineErrorCode): Promise<EngineError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  const engineError = err as EngineError;
  expect(engineError.code).toBe(code);
  // A sentence a person can act on, not ffmpeg's stderr.
  expect(engineError.message).toMatch(/^[A-Z].*\.$/);
  expect(engineError.message).not.toMatch(/ffmpeg|ffprobe|stderr|\[/i);
  return engineError;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'riffscribe-adapters-'));
  // 2 s of 440 Hz at 44.1 kHz stereo: decoding must resample and downmix.
  await ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2:sample_rate=44100',
    '-ac',
    '2',
    file('tone.wav'),
  );
  // A video with sound (moov atom at the end, as ffmpeg writes by default).
  await ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:duration=3',
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=160x120:d=3',
    '-shortest',
    '-c:v',
    'libx264',
    '-c:a',
    'aac',
    file('video.mp4'),
  );
  await ffmpeg(
    '-i',
    file('video.mp4'),
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    file('faststart.mp4'),
  );
  await ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=160x120:d=2',
    '-c:v',
    'libx264',
    file('silent.mp4'),
  );
  // G3 (196 Hz), a plucked-like decaying tone starting at 0.5 s.
  await ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'aevalsrc=0.5*sin(2*PI*196*t)*exp(-2*t)+0.2*sin(4*PI*196*t)*exp(-3*t):s=22050:d=1.5',
    '-af',
    // pad_len in samples (0.5 s at 22,050 Hz): pad_dur needs ffmpeg 4.2, newer than npm's static build.
    'adelay=500,apad=pad_len=11025',
    file('g3.wav'),
  );
  // A WebM written to a pipe has no duration in its header, like a browser's MediaRecorder output.
  const webm = await run(
    findFfmpeg(),
    [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=4',
      '-c:a',
      'libopus',
      '-f',
      'webm',
      'pipe:1',
    ],
    { encoding: 'buffer' },
  );
  await writeFile(file('recording.webm'), webm.stdout);
  await writeFile(file('text.mp4'), 'This is not a video, just some text someone renamed.\n');
  await writeFile(file('empty.mp4'), '');
  const video = await readFile(file('video.mp4'));
  await writeFile(file('truncated.mp4'), video.subarray(0, Math.floor(video.length * 0.6)));
  const faststart = await readFile(file('faststart.mp4'));
  await writeFile(
    file('truncated-faststart.mp4'),
    faststart.subarray(0, Math.floor(faststart.length * 0.5)),
  );
  // Playlists that point at another local file: must never be followed.
  await writeFile(
    file('playlist.mp4'),
    `#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\n${file('video.mp4')}\n#EXT-X-ENDLIST\n`,
  );
  await writeFile(file('concat.mp4'), `ffconcat version 1.0\nfile '${file('tone.wav')}'\n`);
}, 60_000);

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('binaries', () => {
  it('finds executable ffmpeg and ffprobe by absolute path', () => {
    for (const bin of [findFfmpeg(), findFfprobe()]) {
      expect(path.isAbsolute(bin)).toBe(true);
      expect(existsSync(bin)).toBe(true);
    }
  });

  it('falls back to the npm-installed binaries when PATH has none', async () => {
    const saved = process.env.PATH;
    process.env.PATH = dir;
    try {
      const ffmpegPath = findFfmpeg();
      const ffprobePath = findFfprobe();
      expect(ffmpegPath).toContain(`@ffmpeg-installer${path.sep}`);
      expect(ffprobePath).toContain(`@ffprobe-installer${path.sep}`);
      const { stdout } = await run(ffprobePath, ['-version']);
      expect(stdout).toMatch(/^ffprobe version/);
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('probeMedia', () => {
  it('reads duration, streams and size of an audio file', async () => {
    const info = await probeMedia(file('tone.wav'));
    expect(info.durationSeconds).toBeCloseTo(2, 2);
    expect(info).toMatchObject({ hasAudio: true, hasVideo: false, formatName: 'wav' });
    expect(info.width).toBeUndefined();
    expect(info.sizeBytes).toBe((await stat(file('tone.wav'))).size);
  });

  it('reads a video with sound, with its frame size', async () => {
    const info = await probeMedia(file('video.mp4'), { maxDurationSeconds: 10 });
    expect(info.durationSeconds).toBeGreaterThan(2.9);
    expect(info.durationSeconds).toBeLessThan(3.2);
    expect(info).toMatchObject({ hasAudio: true, hasVideo: true, width: 160, height: 120 });
    expect(info.formatName).toContain('mp4');
  });

  it('measures the length of a WebM whose header does not state it', async () => {
    const info = await probeMedia(file('recording.webm'), { maxDurationSeconds: 10 });
    expect(info.durationSeconds).toBeGreaterThan(3.9);
    expect(info.durationSeconds).toBeLessThan(4.1);
    await expectCode(probeMedia(file('recording.webm'), { maxDurationSeconds: 3 }), 'too_long');
  });

  it('refuses a video without a sound track', async () => {
    await expectCode(probeMedia(file('silent.mp4')), 'no_audio_stream');
  });

  it('refuses a text file named .mp4, an empty file, a truncated video and a missing file', async () => {
    await expectCode(probeMedia(file('text.mp4')), 'unreadable_media');
    await expectCode(probeMedia(file('empty.mp4')), 'empty_file');
    await expectCode(probeMedia(file('truncated.mp4')), 'unreadable_media');
    await expectCode(probeMedia(file('does-not-exist.mp4')), 'unreadable_media');
  });

  it('does not follow an HLS playlist or an ffconcat list renamed .mp4', async () => {
    await expectCode(probeMedia(file('playlist.mp4')), 'unreadable_media');
    await expectCode(probeMedia(file('concat.mp4')), 'unreadable_media');
  });

  it('refuses media longer than the limit, saying both lengths', async () => {
    const err = await expectCode(
      probeMedia(file('video.mp4'), { maxDurationSeconds: 2 }),
      'too_long',
    );
    expect(err.message).toContain('3 seconds');
    expect(err.message).toContain('2 seconds');
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expectCode(probeMedia(file('video.mp4'), { signal: controller.signal }), 'cancelled');
  });
});

describe('decodeAudio', () => {
  it('decodes to mono 22050 Hz float samples', async () => {
    const audio = await decodeAudio(file('tone.wav'));
    expect(audio).toBeInstanceOf(Float32Array);
    expect(audio.length).toBeGreaterThan(2 * SAMPLE_RATE - 100);
    expect(audio.length).toBeLessThan(2 * SAMPLE_RATE + 100);
    // 440 Hz: 880 zero crossings a second.
    let crossings = 0;
    for (let i = 1; i < audio.length; i++)
      if ((audio[i - 1] ?? 0) < 0 !== (audio[i] ?? 0) < 0) crossings++;
    expect(crossings / 2).toBeGreaterThan(870);
    expect(crossings / 2).toBeLessThan(890);
    const peak = audio.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak).toBeGreaterThan(0.05);
    expect(peak).toBeLessThanOrEqual(1);
  });

  it('decodes the sound of a video and stops at maxSeconds', async () => {
    const all = await decodeAudio(file('video.mp4'));
    expect(all.length / SAMPLE_RATE).toBeGreaterThan(2.9);
    const part = await decodeAudio(file('video.mp4'), { maxSeconds: 1 });
    expect(part.length).toBe(SAMPLE_RATE);
  });

  it('refuses bad input with the right code', async () => {
    await expectCode(decodeAudio(file('silent.mp4')), 'no_audio_stream');
    await expectCode(decodeAudio(file('text.mp4')), 'unreadable_media');
    await expectCode(decodeAudio(file('empty.mp4')), 'empty_file');
    await expectCode(decodeAudio(file('truncated.mp4')), 'unreadable_media');
    await expectCode(decodeAudio(file('playlist.mp4')), 'unreadable_media');
  });

  it('tells what the decoder says of its input before the first samples (no probe needed)', async () => {
    const seen: { file: string; input: DeclaredInput; samplesBefore: number }[] = [];
    for (const name of ['video.mp4', 'tone.wav', 'recording.webm']) {
      let samples = 0;
      await streamAudio(
        file(name),
        (piece) => {
          samples += piece.length;
        },
        {
          onInput: (input) => {
            seen.push({ file: name, input, samplesBefore: samples });
          },
        },
      );
    }
    expect(seen).toEqual([
      {
        file: 'video.mp4',
        input: { durationSeconds: expect.closeTo(3, 1) as number, hasVideo: true },
        samplesBefore: 0,
      },
      { file: 'tone.wav', input: { durationSeconds: 2, hasVideo: false }, samplesBefore: 0 },
      // No duration in a piped WebM's header: unknown, not zero.
      {
        file: 'recording.webm',
        input: { durationSeconds: undefined, hasVideo: false },
        samplesBefore: 0,
      },
    ]);
    // A refusal there stops the decoder with that error, before any samples.
    let handed = 0;
    await expectCode(
      streamAudio(
        file('video.mp4'),
        () => {
          handed++;
        },
        {
          onInput: () => {
            throw new EngineError('too_long', 'Too long.');
          },
        },
      ),
      'too_long',
    );
    expect(handed).toBe(0);
    // Without a sound track, the decoder's refusal is worded for a video.
    await expect(decodeAudio(file('silent.mp4'))).rejects.toThrow(
      'This video has no sound track. Record or export it with sound and upload it again.',
    );
  });

  it('refuses a truncated video whose header survived (most of the sound missing)', async () => {
    await expect(probeMedia(file('truncated-faststart.mp4'))).resolves.toMatchObject({
      hasAudio: true,
    });
    await expectCode(decodeAudio(file('truncated-faststart.mp4')), 'unreadable_media');
  });

  it('streams pieces that add up to the whole decode, and stops ffmpeg when the reader fails', async () => {
    const whole = await decodeAudio(file('video.mp4'));
    const pieces: Float32Array[] = [];
    const count = await streamAudio(file('video.mp4'), async (piece) => {
      pieces.push(piece.slice());
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
    expect(count).toBe(whole.length);
    const joined = new Float32Array(count);
    let at = 0;
    for (const p of pieces) {
      joined.set(p, at);
      at += p.length;
    }
    expect(joined).toEqual(whole);

    // The promise settles only once ffmpeg has exited: nothing is left running.
    const boom = new EngineError('model_failed', 'Note detection failed.');
    let calls = 0;
    await expect(
      streamAudio(file('video.mp4'), () => {
        calls += 1;
        return Promise.reject(boom);
      }),
    ).rejects.toBe(boom);
    expect(calls).toBe(1);
  });

  it('fails a streamed transcription of a truncated video cleanly', async () => {
    await expectCode(
      transcribe(file('truncated-faststart.mp4'), defaultUploadConfig('acoustic')),
      'unreadable_media',
    );
    const controller = new AbortController();
    const pending = transcribe(
      file('video.mp4'),
      defaultUploadConfig('acoustic'),
      (p) => {
        if (p.stage === 'extracting_audio') controller.abort();
      },
      { signal: controller.signal },
    );
    await expectCode(pending, 'cancelled');
  });

  it('kills ffmpeg on timeout and on cancel', async () => {
    /** A promise whose rejection is handled elsewhere too (as transcribe hands its probe's on). */
    const later = <T>(promise: Promise<T>): Promise<T> => {
      promise.catch(() => undefined);
      return promise;
    };
    await expectCode(decodeAudio(file('video.mp4'), { timeoutMs: 1 }), 'timeout');
    // A limit that is known only later (a probe beside the decoder): counted from the start.
    await expectCode(
      decodeAudio(file('video.mp4'), {
        timeoutMs: new Promise((resolve) =>
          setTimeout(() => {
            resolve(1);
          }, 5),
        ),
      }),
      'timeout',
    );
    // ... and when it cannot be known, the decoder stops with the reason.
    await expectCode(
      decodeAudio(file('video.mp4'), {
        timeoutMs: later(Promise.reject(new EngineError('unreadable_media', 'Unreadable.'))),
      }),
      'unreadable_media',
    );
    const controller = new AbortController();
    const pending = decodeAudio(file('video.mp4'), { signal: controller.signal });
    controller.abort();
    await expectCode(pending, 'cancelled');
  });
});

describe('Basic Pitch model on ONNX Runtime', () => {
  it('finds the pitch and onset of a tone, frame-aligned', async () => {
    await loadModel();
    const audio = await decodeAudio(file('g3.wav'));
    const fractions: number[] = [];
    // Two callers at once share the one model.
    const [output, again] = await Promise.all([
      runModel(audio, (f) => fractions.push(f)),
      runModel(audio),
    ]);
    expect(output.frames).toHaveLength(Math.floor(audio.length / HOP) + 1);
    expect(output.onsets).toHaveLength(output.frames.length);
    expect(output.contours.at(0)).toHaveLength(264);
    expect(fractions.at(-1)).toBe(1);
    expect(again.frames.at(100)).toEqual(output.frames.at(100));

    const notes = extractNotes(
      output,
      defaultNoteOptions({ tuning: DEFAULT_TUNING, capo: 0, frets: 22 }),
    );
    const g3 = notes.filter((n) => n.pitch === 55);
    expect(g3).toHaveLength(1);
    expect(g3[0]?.time).toBeGreaterThan(0.5 - 0.05);
    expect(g3[0]?.time).toBeLessThan(0.5 + 0.05);
    expect(notes.filter((n) => Math.abs(n.time - 0.5) < 0.05 && n.pitch !== 55)).toEqual([]);
    expect(FRAME_RATE).toBeCloseTo(86.13, 2);
  });

  it('returns one frame for an empty clip and handles a clip shorter than one window', async () => {
    const empty = await runModel(new Float32Array(0));
    expect(empty.frames).toHaveLength(1);
    const short = await runModel(new Float32Array(1000));
    expect(short.frames).toHaveLength(4);
  });

  it('gives the same outputs whether the audio comes whole or in pieces of any size', async () => {
    const audio = await decodeAudio(file('g3.wav'));
    // 20 s, so that there is more than one batch of windows; the tone repeats every 3 s.
    const long = new Float32Array(SAMPLE_RATE * 20);
    for (let i = 0; i < long.length; i += audio.length)
      long.set(audio.subarray(0, long.length - i), i);
    const whole = await runModel(long);
    // Outputs kept on disk, as a video's are in the pipeline, read back the same.
    const stores = {
      contours: new SpilledRows(264),
      frames: new SpilledWords(88 * 64, 2),
      onsets: new SpilledWords(),
    };
    const stream = new ModelStream(undefined, stores);
    const sizes = [1, 4095, 43_844, 100_000, 7, 250_000];
    for (let at = 0, k = 0; at < long.length; k++) {
      const size = sizes[k % sizes.length] ?? 1;
      await stream.push(long.subarray(at, at + size));
      at += size;
    }
    const pieces = await stream.end();
    expect(pieces.frames).toHaveLength(whole.frames.length);
    expect(pieces.contours).toHaveLength(whole.frames.length);
    // Every value, in an order that misses the small page cache (two pages) again and again.
    for (let b = 0; b < 88; b += 29)
      for (let i = whole.frames.length - 1; i >= 0; i -= 7)
        expect(pieces.frames.value(i, b)).toBe(whole.frames.value(i, b));
    for (const i of [0, 141, 142, 1135, 1136, whole.frames.length - 1]) {
      expect(pieces.frames.at(i)).toEqual(whole.frames.at(i));
      expect(pieces.onsets.at(i)).toEqual(whole.onsets.at(i));
      expect(pieces.contours.at(i)).toEqual(whole.contours.at(i));
    }
    expect(pieces.contours.at(whole.frames.length)).toBeUndefined();
    for (const store of Object.values(stores)) store.close();
  });

  it('refuses a missing or corrupt model file with model_failed, naming the file', async () => {
    const missing = path.join(dir, 'no-such-model.onnx');
    await expect(openModelSession(missing)).rejects.toMatchObject({
      code: 'model_failed',
      message: expect.stringContaining(missing) as unknown,
    });
    const corrupt = path.join(dir, 'corrupt.onnx');
    const real = await readFile(new URL('../models/basic-pitch/nmp.onnx', import.meta.url));
    await writeFile(corrupt, real.subarray(0, real.length / 2));
    await expect(openModelSession(corrupt)).rejects.toMatchObject({
      code: 'model_failed',
      message: expect.stringContaining(corrupt) as unknown,
    });
    const text = path.join(dir, 'text.onnx');
    await writeFile(text, 'not a model');
    await expectCode(openModelSession(text), 'model_failed');
  });
});
