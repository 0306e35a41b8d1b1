import { describe, expect, it } from 'vitest';
import { analyseAttacksAside, nameHarmonyAside, sideThreadRunning } from '../src/adapters/aside.js';
import { detectChords, detectKey } from '../src/harmony/index.js';
import type { DetectedNote } from '../src/types.js';
import { SpilledAudio } from '../src/adapters/spill.js';
import { analyseAttacks } from '../src/techniques/attacks.js';
import { midi, SAMPLE_RATE, seconds } from '../src/units.js';

/**
 * The engine's side thread (the compiled dist/adapters/aside-worker.js, built by `npm test`): the
 * same answers as on the engine's thread, for a clip in memory and for one on disk read through
 * the owner's open file, several at once, and the chords and key of a lesson's notes.
 */

/** 3 s of plucks: decaying partials with a click at each attack, over a little noise. */
function plucks(seconds: number, seed: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  let state = seed;
  const noise = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 30 - 1;
  };
  for (let i = 0; i < out.length; i++) {
    const t = i / SAMPLE_RATE;
    const since = t % 0.5;
    const f = 110 * 2 ** (Math.floor(t / 0.5) / 12);
    out[i] =
      0.4 * Math.exp(-4 * since) * Math.sin(2 * Math.PI * f * t) +
      (since < 0.004 ? 0.3 * noise() : 0) +
      0.002 * noise();
  }
  return out;
}

describe('analyseAttacksAside', () => {
  it('gives what analyseAttacks gives, for samples in memory and for a clip on disk', async () => {
    const samples = plucks(3, 7);
    const spilled = new SpilledAudio();
    for (let from = 0; from < samples.length; from += 10_000)
      spilled.append(samples.subarray(from, from + 10_000));
    try {
      const here = analyseAttacks(samples);
      const [inMemory, onDisk, again] = await Promise.all([
        analyseAttacksAside(samples),
        analyseAttacksAside(spilled),
        analyseAttacksAside(plucks(2, 11)),
      ]);
      expect(inMemory.flux).toEqual(here.flux);
      expect(inMemory.energy).toEqual(here.energy);
      expect(onDisk.flux).toEqual(here.flux);
      expect(onDisk.energy).toEqual(here.energy);
      expect(again.flux).toEqual(analyseAttacks(plucks(2, 11)).flux);
      // ... and they came from the thread, not from the fallback on this one.
      expect(sideThreadRunning()).toBe(true);
      // The clip's attacks are there: one strong peak every half second.
      const peaks = Array.from(here.flux).filter((v, i, a) => v > 0.5 && v >= (a[i - 1] ?? 0));
      expect(peaks.length).toBeGreaterThanOrEqual(5);
      // The caller's samples are its own still (copied to the thread, not moved).
      expect(samples.length).toBe(3 * SAMPLE_RATE);
    } finally {
      spilled.close();
    }
  });

  it('names the chords and key of the notes as detectChords and detectKey do', async () => {
    // C, F, G and C again, a bar each, three strings a chord, strummed.
    const chords = [
      [48, 52, 55],
      [53, 57, 60],
      [55, 59, 62],
      [48, 52, 55],
    ];
    const notes: DetectedNote[] = chords.flatMap((pitches, bar) =>
      pitches.map((pitch, k) => ({
        time: seconds(bar * 2 + k * 0.02),
        endTime: seconds(bar * 2 + 1.9),
        pitch: midi(pitch),
        amplitude: 0.8,
        onset: 0.9,
        bend: [],
      })),
    );
    const named = await nameHarmonyAside(notes);
    expect(named.chords).toEqual(detectChords(notes));
    expect(named.musicalKey).toBe(detectKey(notes));
    expect(named.chords.map((c) => c.chord)).toEqual(['C', 'F', 'G', 'C']);
    expect(await nameHarmonyAside([])).toEqual({ chords: detectChords([]), musicalKey: '' });
  });
});
