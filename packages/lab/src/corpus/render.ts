import type { GuitarType } from '@riffscribe/core';
import { type Random, SAMPLE_RATE } from '@riffscribe/engine/stages';
import type { Performance } from './performance.js';
import { renderString, type Timbre } from './string-model.js';

/**
 * From a performance to a mono 22050 Hz clip: six string voices (string-model.ts), each with its
 * own level, summed and passed through the instrument: an acoustic body (a few resonant modes over
 * a direct path) or an electric pickup (a resonant lowpass, optionally a little drive), then a DC
 * blocker, a noise floor and normalisation.
 */

export interface Instrument {
  timbre: Timbre;
  kind: GuitarType;
  /** Electric only: soft clipping before the pickup filter (1 = clean). */
  drive?: number;
  /** Noise floor relative to the peak (linear). */
  noise: number;
}

export const TIMBRES: Record<GuitarType, Timbre> = {
  acoustic: {
    sustain: 6,
    highDecay: 0.18,
    brightness: 0.8,
    pluckPosition: [0.1, 0.2],
    pickNoise: 0.08,
  },
  classical: {
    sustain: 5,
    highDecay: 0.1,
    brightness: 0.45,
    pluckPosition: [0.12, 0.25],
    pickNoise: 0.04,
  },
  electric: {
    sustain: 9,
    highDecay: 0.3,
    brightness: 0.9,
    pluckPosition: [0.08, 0.15],
    pickNoise: 0.05,
  },
};

/** A biquad section (direct form I), coefficients normalised by a0. */
class Biquad {
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;
  constructor(
    private readonly b0: number,
    private readonly b1: number,
    private readonly b2: number,
    private readonly a1: number,
    private readonly a2: number,
  ) {}

  static bandpass(f: number, q: number): Biquad {
    const w = (2 * Math.PI * f) / SAMPLE_RATE;
    const alpha = Math.sin(w) / (2 * q);
    const a0 = 1 + alpha;
    return new Biquad(alpha / a0, 0, -alpha / a0, (-2 * Math.cos(w)) / a0, (1 - alpha) / a0);
  }

  static lowpass(f: number, q: number): Biquad {
    const w = (2 * Math.PI * f) / SAMPLE_RATE;
    const alpha = Math.sin(w) / (2 * q);
    const c = Math.cos(w);
    const a0 = 1 + alpha;
    return new Biquad(
      (1 - c) / 2 / a0,
      (1 - c) / a0,
      (1 - c) / 2 / a0,
      (-2 * c) / a0,
      (1 - alpha) / a0,
    );
  }

  step(x: number): number {
    const y =
      this.b0 * x + this.b1 * this.x1 + this.b2 * this.x2 - this.a1 * this.y1 - this.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = x;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

/** Acoustic body modes (Hz, Q, gain): the air resonance, the top plate and two higher modes. */
const BODY_MODES: readonly (readonly [number, number, number])[] = [
  [100, 6, 0.6],
  [195, 5, 0.5],
  [390, 4, 0.3],
  [900, 3, 0.15],
];

/**
 * Renders a performance. `seconds` is the clip length; the result is normalised to a peak of 0.8.
 */
export function renderPerformance(
  performance: Performance,
  instrument: Instrument,
  seconds: number,
  random: Random,
): Float32Array {
  const length = Math.round(seconds * SAMPLE_RATE);
  const scores = performance.scores(length, instrument.timbre);
  const mix = new Float32Array(length);
  scores.forEach((score, i) => {
    const voice = renderString(score, length, instrument.timbre, random);
    // Thicker strings drive the bridge and pickups a little harder.
    const level = 0.8 + 0.05 * i;
    for (let k = 0; k < length; k++) mix[k] = (mix[k] ?? 0) + level * (voice[k] ?? 0);
  });

  const out = new Float32Array(length);
  if (instrument.kind === 'electric') {
    const pickup = Biquad.lowpass(4200, 1.6);
    const drive = instrument.drive ?? 1;
    for (let k = 0; k < length; k++) {
      const v = mix[k] ?? 0;
      const driven = drive > 1 ? Math.tanh(drive * v) / Math.tanh(drive) : v;
      out[k] = pickup.step(driven);
    }
  } else {
    const modes = BODY_MODES.map(([f, q, g]) => ({ filter: Biquad.bandpass(f, q), gain: g }));
    const air = Biquad.lowpass(instrument.kind === 'classical' ? 3500 : 6000, 0.7);
    for (let k = 0; k < length; k++) {
      const v = mix[k] ?? 0;
      let body = 0.7 * air.step(v);
      for (const m of modes) body += m.gain * m.filter.step(v);
      out[k] = body;
    }
  }

  // DC blocker (about 20 Hz), then the noise floor and normalisation.
  let prevIn = 0;
  let prevOut = 0;
  let peak = 0;
  for (let k = 0; k < length; k++) {
    const v = out[k] ?? 0;
    const y = v - prevIn + 0.9943 * prevOut;
    prevIn = v;
    prevOut = y;
    out[k] = y;
    peak = Math.max(peak, Math.abs(y));
  }
  const scale = peak > 0 ? 0.8 / peak : 1;
  for (let k = 0; k < length; k++)
    out[k] = (out[k] ?? 0) * scale + instrument.noise * 0.8 * 2 * (random() - 0.5);
  return out;
}
