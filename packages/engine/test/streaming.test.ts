import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultUploadConfig } from '@riffscribe/core';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeAudio } from '../src/adapters/media.js';
import { wavBytes } from '../src/render/wav.js';
import { transcribe, transcribeAudio } from '../src/pipeline.js';
import { ENGINE_STAGES, type Progress } from '../src/pipeline-types.js';
import { SAMPLE_RATE } from '../src/units.js';

/**
 * `transcribe` decodes and runs the model at the same time, piece by piece. Its lesson must be
 * exactly the one `transcribeAudio` gives for the whole decoded clip, wherever the pieces end:
 * here pieces of 5 s, with notes struck on and just before a piece boundary, on a clip longer
 * than one batch of model windows. Written as PCM at 22,050 Hz, so decoding is exact.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-streaming-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const SECONDS = 17;
const PIECE = 5 * SAMPLE_RATE;
/** [start seconds, MIDI pitch]: a line with notes at 4.98 s and exactly on 5 s and 10 s. */
const PLUCKS: [number, number][] = [
  [0.3, 52],
  [1.2, 55],
  [2.4, 57],
  [3.6, 59],
  [4.98, 62],
  [5.0, 64],
  [6.1, 67],
  [7.5, 64],
  [8.8, 62],
  [10.0, 59],
  [10.02, 55],
  [11.4, 57],
  [12.9, 60],
  [14.2, 64],
  [15.6, 69],
];

function makeClip(): string {
  const samples = new Float32Array(SECONDS * SAMPLE_RATE);
  for (const [start, pitch] of PLUCKS) {
    const f = 440 * 2 ** ((pitch - 69) / 12);
    for (let i = Math.round(start * SAMPLE_RATE); i < samples.length; i++) {
      const t = i / SAMPLE_RATE - start;
      let v = 0;
      for (let h = 1; h <= 4; h++) v += (0.5 / h) * Math.sin(2 * Math.PI * h * f * t);
      samples[i] = (samples[i] ?? 0) + 0.12 * Math.exp(-2.5 * t) * v;
    }
  }
  const file = path.join(dir, 'line.wav');
  writeFileSync(file, wavBytes(samples, SAMPLE_RATE));
  return file;
}

describe('streaming transcription', () => {
  it('gives the same notes, techniques, chords and key as the whole clip, across piece boundaries', async () => {
    const file = makeClip();
    const config = defaultUploadConfig('electric');
    const whole = await transcribeAudio(await decodeAudio(file), config);
    expect(whole.notes.length).toBeGreaterThan(8);

    const progress: Progress[] = [];
    const pieces = await transcribe(file, config, (p) => progress.push(p), {
      chunkSamples: PIECE,
    });
    expect(pieces.notes).toEqual(whole.notes);
    expect(pieces.chords).toEqual(whole.chords);
    expect(pieces.results).toEqual(whole.results);

    // As ffmpeg writes it (no forced pieces), the same again.
    const piped = await transcribe(file, config);
    expect(piped.notes).toEqual(whole.notes);

    // Progress only grows, and the stages come in order.
    const percents = progress.map((p) => p.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    const order = progress.map((p) => ENGINE_STAGES.indexOf(p.stage));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(progress.map((p) => p.stage))).toEqual(new Set(ENGINE_STAGES));
  });

  it('skips its own probe when given what a probe found, and still enforces the length limit', async () => {
    const file = makeClip();
    const config = defaultUploadConfig('electric');
    const probed = await transcribe(file, config, undefined, {
      probed: { durationSeconds: SECONDS },
    });
    const own = await transcribe(file, config);
    expect(probed.notes).toEqual(own.notes);
    await expect(
      transcribe(file, config, undefined, {
        probed: { durationSeconds: SECONDS },
        maxDurationSeconds: 10,
      }),
    ).rejects.toMatchObject({ code: 'too_long' });
  });
});
