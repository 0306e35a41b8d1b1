import { seededRandom } from '@riffscribe/engine/stages';
import { describe, expect, it } from 'vitest';
import { levelAt, Performance, vibratoAt } from '../src/corpus/performance.js';
import { renderString } from '../src/corpus/string-model.js';
import { TIMBRES } from '../src/corpus/render.js';
import { performanceMidi } from '../src/soundfont/performance-midi.js';

const SAMPLE_RATE = 22_050;

/** A long note with a big vibrato on string 2, fret 8, from 0.2 s to 2.2 s. */
function vibratoNote() {
  const perf = new Performance([40, 45, 50, 55, 59, 64], 0, seededRandom(3));
  const note = perf.pick(2, 8, 0.2, 2, {
    vibrato: { kind: 'big', cents: 40, rate: 6, delay: 0.2, shape: 'centred' },
  });
  return { perf, note };
}

/**
 * Issue 39 build item 1: the renders behave like a real string under a vibrato: its level swings
 * with the pitch (2-8 dB peak to peak on real licks; a SoundFont's vibrato notes 2 dB), and its
 * rate wanders.
 */
describe('realistic vibrato in the corpus', () => {
  it('gives a vibrato note a level swing of 2-9 dB in time with its pitch, and a wandering rate', () => {
    const { note } = vibratoNote();
    expect(Math.abs(note.vibrato?.levelDb ?? 0)).toBeGreaterThanOrEqual(2);
    expect(Math.abs(note.vibrato?.levelDb ?? 0)).toBeLessThanOrEqual(9);
    // The level follows the pitch: their correlation over the vibrato is +-1.
    const taus = Array.from({ length: 300 }, (_, k) => 0.5 + k * 0.005);
    const p = taus.map((t) => vibratoAt(note.vibrato, t));
    const l = taus.map((t) => levelAt(note, t));
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const [mp, ml] = [mean(p), mean(l)];
    const cov = mean(p.map((v, k) => (v - mp) * ((l[k] ?? 0) - ml)));
    const sd = (v: number[], m: number) => Math.sqrt(mean(v.map((x) => (x - m) ** 2)));
    expect(Math.abs(cov / (sd(p, mp) * sd(l, ml)))).toBeGreaterThan(0.99);
    // Zero crossings of the pitch: not evenly spaced (the rate wanders).
    const crossings = taus.filter(
      (t, k) => k > 0 && Math.sign(p[k] ?? 0) !== Math.sign(p[k - 1] ?? 0),
    );
    const gaps = crossings.slice(1).map((t, k) => t - (crossings[k] ?? 0));
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThan(0.005);
  });

  it('renders that swing in the string model: the level, decay removed, moves by several dB more than a plain vibrato', () => {
    // The level's swing (5th to 95th percentile, dB) from 0.7 s to 2.1 s in 20 ms frames, with
    // the straight-line decay removed, of string 2 rendered from `perf`.
    const swingOf = (perf: Performance) => {
      const length = Math.round(2.6 * SAMPLE_RATE);
      const score = perf.scores(length, TIMBRES.electric)[1];
      if (!score) throw new Error('no score for string 2');
      const out = renderString(score, length, TIMBRES.electric, seededRandom(1));
      const frame = Math.round(0.02 * SAMPLE_RATE);
      const db: number[] = [];
      for (let s = Math.round(0.7 * SAMPLE_RATE); s + frame < 2.1 * SAMPLE_RATE; s += frame) {
        let sum = 0;
        for (let k = s; k < s + frame; k++) sum += (out[k] ?? 0) ** 2;
        db.push(10 * Math.log10(sum / frame + 1e-20));
      }
      const n = db.length;
      const mx = (n - 1) / 2;
      const my = db.reduce((a, b) => a + b, 0) / n;
      const slope =
        db.reduce((a, v, k) => a + (k - mx) * (v - my), 0) /
        db.reduce((a, _, k) => a + (k - mx) ** 2, 0);
      const residual = db.map((v, k) => v - (my + slope * (k - mx))).sort((a, b) => a - b);
      return (residual[Math.floor(n * 0.95)] ?? 0) - (residual[Math.floor(n * 0.05)] ?? 0);
    };
    const { perf, note } = vibratoNote();
    const swing = swingOf(perf);
    // The same note with its level held (a SoundFont-like vibrato: the pitch moves, the level not).
    if (note.vibrato) note.vibrato = { ...note.vibrato, levelDb: 0 };
    const plain = swingOf(perf);
    expect(swing - plain).toBeGreaterThan(1.5);
  });

  it('sends the swing to FluidSynth as expression (CC 11) along the pitch wheel', () => {
    const { perf } = vibratoNote();
    const midi = performanceMidi(perf, 27, 3);
    const expression = midi.tracks[0]?.filter(
      (e) => e.type === 'controlChange' && e.controller === 11 && e.channel === 1,
    );
    const values = new Set(expression?.map((e) => (e.type === 'controlChange' ? e.value : 0)));
    expect(values.size).toBeGreaterThan(10);
  });
});

describe('slurs in the SoundFont corpus', () => {
  it('keep the ringing note and move the pitch wheel at once, the finger adding a little level', () => {
    const perf = new Performance([40, 45, 50, 55, 59, 64], 0, seededRandom(5));
    const picked = perf.pick(3, 5, 0.2, 0.3);
    const hammered = perf.legato(picked, 7, 0.3);
    perf.legato(hammered, 5, 0.4);
    const events = performanceMidi(perf, 27, 2).tracks[0] ?? [];
    const onString = events.filter((e) => 'channel' in e && e.channel === 2);
    // One note-on for the three notes: the slurs add no pick's attack.
    expect(onString.filter((e) => e.type === 'noteOn')).toHaveLength(1);
    // The wheel jumps to +2 semitones at the hammer-on and back at the pull-off.
    const wheelAt = (ms: number) =>
      onString.filter((e) => e.type === 'pitchBend' && e.tick <= ms).at(-1);
    const range = 12;
    const semitones = (e: (typeof onString)[number] | undefined) =>
      e?.type === 'pitchBend' ? (e.value / 8192) * range : Number.NaN;
    expect(semitones(wheelAt(600))).toBeCloseTo(2, 1);
    expect(semitones(wheelAt(900))).toBeCloseTo(0, 1);
    // The pull-off plucks: its expression is above the hammer-on's.
    const expressionAt = (ms: number) =>
      onString
        .filter((e) => e.type === 'controlChange' && e.controller === 11 && e.tick <= ms)
        .at(-1);
    const value = (e: (typeof onString)[number] | undefined) =>
      e?.type === 'controlChange' ? e.value : Number.NaN;
    expect(value(expressionAt(900))).toBeGreaterThan(value(expressionAt(600)));
  });
});
