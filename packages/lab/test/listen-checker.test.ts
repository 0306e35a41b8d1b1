import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_TUNING, plainNote, type NoteEvent, type Tuning } from '@riffscribe/core';
import { SAMPLE_RATE, wavBytes } from '@riffscribe/engine/stages';
import { describe, expect, it } from 'vitest';
import {
  ListenAnalyzer,
  ListenChecker,
  expectedGroups,
  type HeardOnset,
  type PassScore,
} from '@riffscribe/core/listen';
import { readTabJson } from '../src/datasets.js';
import {
  LEFT_OUT_BAR,
  listenLessonNotes,
  renderListenPerformance,
  renderPluck,
} from '../src/listen-material.js';

/**
 * Listen & check's ear and judge (issue 40) measured in Node, on the same code the browser's
 * worker runs: the string model's performances of the practice lesson (what the e2e plays into
 * Chromium's fake microphone) and the two real recordings with a true tab in the repository
 * (GuitarSet's acoustic comping, EGSet12's electric excerpt), each as played and two semitones
 * up. The figures are printed; the floors are the issue's (>= 90 % hits as played, <= 20 %
 * transposed) on the rendered lesson, and on the real recordings what they measure now less a
 * margin (they are what "good enough for single notes and chords" is measured on).
 */

const BLOCK = 256;
/** The rate Listen & check runs its audio context at in the browser (useListen.ts). */
const BROWSER_RATE = 24000;

/** `audio` at SAMPLE_RATE as the browser would hear it (resampled to BROWSER_RATE). */
function asBrowserHears(audio: Float32Array): Float32Array {
  const file = path.join(tmpdir(), `listen-${String(process.pid)}.wav`);
  writeFileSync(file, wavBytes(audio, SAMPLE_RATE));
  try {
    return decode(file);
  } finally {
    rmSync(file, { force: true });
  }
}

/** The attacks the analyzer reports for `audio`, streamed in blocks as the worklet sends them. */
function listen(audio: Float32Array, rate: number): HeardOnset[] {
  const onsets: HeardOnset[] = [];
  const analyzer = new ListenAnalyzer(rate, {
    onset: (o) => onsets.push(o),
    level: () => undefined,
  });
  for (let i = 0; i < audio.length; i += BLOCK) {
    analyzer.push(audio.subarray(i, Math.min(audio.length, i + BLOCK)), i / rate);
  }
  return onsets;
}

/** The analyzer's own delay: where it places a pluck struck at 0.5 s (what calibration removes). */
function latency(): number {
  const audio = new Float32Array(SAMPLE_RATE * 2);
  audio.set(renderPluck(), Math.round(0.5 * SAMPLE_RATE));
  const first = listen(asBrowserHears(audio), BROWSER_RATE)[0];
  return (first?.time ?? 0.5) - 0.5;
}

function check(
  notes: NoteEvent[],
  tuning: Tuning,
  audio: Float32Array,
  rate: number,
): PassScore & { checker: ListenChecker } {
  const checker = new ListenChecker(expectedGroups(notes, tuning, 0));
  const lag = latency();
  const heard = listen(audio, rate);
  for (const o of heard) checker.heard(o.time - lag, o.salience, o.before);
  const end = audio.length / rate;
  checker.sweep(0, end + 1);
  return { ...checker.score(0, end + 1), checker };
}

/** A file's audio, mono, at `rate` (ffmpeg resamples, as a browser's audio input would). */
function decode(file: string, rate = BROWSER_RATE): Float32Array {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-f', 'f32le', '-ac', '1', '-ar', String(rate), '-'],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
}

const DATASETS = path.resolve(import.meta.dirname, '../../engine/fixtures/datasets');

async function realTab(stem: string): Promise<NoteEvent[]> {
  const placed = await readTabJson(path.join(DATASETS, `${stem}.tab.json`));
  return placed.map((n) =>
    plainNote({ time: n.time, end_time: n.endTime, string: n.string, fret: n.fret }),
  );
}

const pct = (s: PassScore) =>
  `${(100 * s.score).toFixed(0)} % (${String(s.hits)} of ${String(s.total)}; early ${String(s.early)}, late ${String(s.late)})`;

describe('Listen & check, measured', () => {
  const notes = listenLessonNotes();

  it('hears the rendered lesson as played, not two semitones up, and the bar left out', () => {
    const hear = (v: Parameters<typeof renderListenPerformance>[0]) =>
      check(notes, DEFAULT_TUNING, asBrowserHears(renderListenPerformance(v)), BROWSER_RATE);
    const played = hear('as-written');
    const up = hear('transposed');
    const gap = hear('bar-left-out');
    console.log(
      `listen, rendered lesson: as played ${pct(played)}, +2 semitones ${pct(up)}, bar left out ${pct(gap)}`,
    );
    expect(played.score).toBeGreaterThanOrEqual(0.9);
    expect(up.score).toBeLessThanOrEqual(0.2);
    gap.checker.groups.forEach((g, i) => {
      const inBar = g.time >= LEFT_OUT_BAR.start && g.time < LEFT_OUT_BAR.end;
      expect(gap.checker.verdicts[i]).toBe(inBar ? 'missed' : 'hit');
    });
  });

  // Floors a little under what each measures now (docs/performance.md): dense acoustic comping
  // is the hard case (strums eight to the bar, ringing chords); the electric single notes the easy.
  const floors = {
    'guitarset/00_BN1-129-Eb_comp': { played: 0.3, off: 0.05 },
    'egset12/01': { played: 0.6, off: 0.2 },
  } as const;
  for (const [stem, floor] of Object.entries(floors)) {
    it(`on a real recording (${stem}): as played against two semitones up`, async () => {
      const tab = await realTab(stem);
      const mic = stem.startsWith('guitarset') ? `${stem}_mic` : stem;
      const audio = decode(path.join(DATASETS, `${mic}.wav`));
      const played = check(tab, DEFAULT_TUNING, audio, BROWSER_RATE);
      const upTab = tab.map((n) => ({ ...n, fret: n.fret - 2 }));
      const up = check(upTab, DEFAULT_TUNING, audio, BROWSER_RATE);
      console.log(`listen, ${stem}: as played ${pct(played)}, tab 2 semitones off ${pct(up)}`);
      expect(played.score).toBeGreaterThanOrEqual(floor.played);
      expect(up.score).toBeLessThanOrEqual(floor.off);
    });
  }
});
