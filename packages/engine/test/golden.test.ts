import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultUploadConfig } from '@riffscribe/core';
import { afterAll, describe, expect, it } from 'vitest';
import { wavBytes } from '../src/render/wav.js';
import { transcribe } from '../src/pipeline.js';

/**
 * Golden file for the whole pipeline on a short clip rendered here, deterministically: plucked
 * tones (harmonics with an exponential decay) playing a phrase and a chord, written as 16-bit PCM
 * at the engine's own rate (22,050 Hz), so no encoder or resampler of a particular ffmpeg build
 * shapes the input: the Debian ffmpeg and the static one npm ships decode it to the same samples.
 * A change in any stage that alters the lesson shows up as a diff against
 * golden/plucked-phrase.json. Re-accept a deliberate change with
 * `npm run golden:accept -w @riffscribe/engine`.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const goldenFile = path.join(here, 'golden/plucked-phrase.json');
const accept = process.env.RIFFSCRIBE_ACCEPT_GOLDEN === '1';
const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-golden-'));

/** [start seconds, MIDI pitch] of each pluck: an E minor phrase, then an E minor chord. */
const PLUCKS: [number, number][] = [
  [0.1, 64],
  [0.5, 67],
  [0.9, 69],
  [1.3, 71],
  [1.7, 74],
  [2.1, 76],
  [2.5, 74],
  [2.9, 71],
  [3.4, 40],
  [3.42, 47],
  [3.44, 52],
  [3.46, 55],
  [3.48, 59],
  [3.5, 64],
];

const RATE = 22_050;
const SECONDS = 5;

/** The phrase: each pluck four harmonics (amplitude 0.5/h) decaying as exp(-3t), times 0.12. */
function makeClip(): string {
  const samples = new Float32Array(RATE * SECONDS);
  for (const [start, pitch] of PLUCKS) {
    const f = 440 * 2 ** ((pitch - 69) / 12);
    for (let i = Math.ceil(start * RATE); i < samples.length; i++) {
      const t = i / RATE - start;
      let v = 0;
      for (let h = 1; h <= 4; h++) v += (0.5 / h) * Math.sin(2 * Math.PI * h * f * t);
      samples[i] = (samples[i] ?? 0) + 0.12 * Math.exp(-3 * t) * v;
    }
  }
  const file = path.join(dir, 'phrase.wav');
  writeFileSync(file, wavBytes(samples, RATE));
  return file;
}

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Golden {
  key: string;
  notes: { time: number; end_time: number; string: number; fret: number; techniques: string }[];
  chords: { time: number; end_time: number; chord: string }[];
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

describe('pipeline golden file', () => {
  it('transcribes the plucked phrase as accepted', async () => {
    const result = await transcribe(makeClip(), defaultUploadConfig('acoustic'));
    const actual: Golden = {
      key: result.results.musical_key,
      notes: result.notes.map((n) => ({
        time: r3(n.time),
        end_time: r3(n.end_time),
        string: n.string,
        fret: n.fret,
        techniques: [
          n.mute ? 'x' : '',
          n.vibrato,
          n.bend_to_fret === null ? '' : `b${n.bend_to_fret}`,
          n.leading_slide || n.trailing_slide ? 'slide' : '',
          n.leading_hammer_on || n.trailing_hammer_on ? 'h' : '',
          n.leading_pull_off || n.trailing_pull_off ? 'p' : '',
        ]
          .filter((t) => t !== '')
          .join(','),
      })),
      chords: result.chords.map((c) => ({
        time: r3(c.time),
        end_time: r3(c.end_time),
        chord: c.chord,
      })),
    };
    if (accept || !existsSync(goldenFile)) {
      writeFileSync(goldenFile, `${JSON.stringify(actual, null, 2)}\n`);
      if (!accept)
        throw new Error(`No golden file yet: wrote ${goldenFile}; check it and commit it.`);
      return;
    }
    const golden = JSON.parse(readFileSync(goldenFile, 'utf8')) as Golden;
    expect(actual.key).toBe(golden.key);
    expect(
      actual.notes.map(({ string, fret, techniques }) => ({ string, fret, techniques })),
    ).toEqual(golden.notes.map(({ string, fret, techniques }) => ({ string, fret, techniques })));
    // Times may move by a model frame (11.6 ms) across CPUs; more than two frames is a change.
    actual.notes.forEach((n, i) => {
      expect(Math.abs(n.time - (golden.notes[i]?.time ?? Infinity))).toBeLessThan(0.025);
    });
    expect(actual.chords.map((c) => c.chord)).toEqual(golden.chords.map((c) => c.chord));
  });
});
