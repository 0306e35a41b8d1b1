import { between, midiToHz, type Random, SAMPLE_RATE } from '@riffscribe/engine/stages';

/**
 * One guitar string as a physical model: an extended Karplus-Strong waveguide (a delay line the
 * length of one period, closed by a loss filter) whose delay is read at a fractional position
 * (cubic Lagrange interpolation) and retuned every sample, so the pitch can follow any curve:
 * bends, vibrato, slides and the fret changes of hammer-ons and pull-offs happen on a string that
 * keeps vibrating, exactly as on a guitar, instead of being faked with new notes.
 *
 * - Loss filter: a loop gain sets the decay time (T60) of the fundamental, and a one-pole lowpass,
 *   solved per block so that content at HIGH_REFERENCE_HZ decays `highDecay` times faster, makes
 *   the upper partials die first. Its phase delay is subtracted from the delay line so the string
 *   stays in tune at every pitch.
 * - Excitations are added to the loop input: a pick is one period of a triangle (the string's
 *   shape at release, apex at the pluck position, which puts the pluck-position comb into the
 *   spectrum) with some noise, lowpassed by the brightness; a hammer-on adds a short pulse, a
 *   pull-off a small pluck near the fret, a dead note a noise burst into a string damped in
 *   milliseconds. Pick and fret noise go straight to the output.
 * - A pick on a ringing string first stops it (the pick touches the string), a released note is
 *   damped by a short T60, so notes end where the score says.
 */

/** Samples per control step: pitch and damping are given at this rate (about 1.45 ms). */
export const CONTROL_SAMPLES = 32;
/** Frequency at which the high-frequency decay of a timbre is specified. */
const HIGH_REFERENCE_HZ = 2000;
const BUFFER_SIZE = 2048;
const BUFFER_MASK = BUFFER_SIZE - 1;

/** How a string sounds; times in seconds, fractions 0..1. */
export interface Timbre {
  /** T60 of a fretted note's fundamental at 110 Hz; higher notes ring shorter (by sqrt of pitch). */
  sustain: number;
  /** T60 of content at 2 kHz as a fraction of the fundamental's T60. */
  highDecay: number;
  /** Pluck brightness: 1 = raw triangle, 0 = strongly lowpassed. */
  brightness: number;
  /** Range of pluck positions as a fraction of the string length from the bridge. */
  pluckPosition: readonly [number, number];
  /** Level of pick and fret noise sent straight to the output. */
  pickNoise: number;
}

/**
 * `scrape`: a finger sliding along a wound or plain string (a slide's fret noise, the squeak of a
 * shift), noise straight to the output over `seconds`; `sympathy`: an open string set ringing by
 * a note that shares its partials, a soft excitation with no pick noise.
 */
export type ExcitationKind = 'pick' | 'hammer' | 'pull' | 'mute' | 'scrape' | 'sympathy';

/** Something that puts energy into the string at a time (seconds from the clip start). */
export interface Excitation {
  time: number;
  kind: ExcitationKind;
  /** 0..1. */
  velocity: number;
  /** How long it lasts (a scrape), seconds. */
  seconds?: number;
}

/** What one string does over the clip, at the control rate. */
export interface StringScore {
  /** Sounding MIDI pitch (fractional) per control step. */
  pitch: Float32Array;
  /** Decay time T60 in seconds per control step (short while damped). */
  t60: Float32Array;
  /**
   * The string's output level (linear, 1 = as it rings) per control step: the swing a vibrato or
   * a bend brings through the pickup, body and amp (absent: 1 throughout).
   */
  level?: Float32Array;
  excitations: readonly Excitation[];
}

/** T60 of a fretted note at `hz` for a timbre: lower notes ring longer. */
export function naturalT60(timbre: Timbre, hz: number): number {
  return timbre.sustain * Math.sqrt(110 / hz);
}

/** One-pole coefficient whose gain at `w` (radians/sample), relative to DC, is `m` (0 < m <= 1). */
function onePoleFor(m: number, w: number): number {
  if (m >= 0.9999) return 0;
  const c = Math.cos(w);
  const m2 = m * m;
  const b = 2 - 2 * m2 * c;
  const q = 1 - m2;
  const disc = b * b - 4 * q * q;
  if (disc <= 0) return 0.95;
  return Math.min(0.95, Math.max(0, (b - Math.sqrt(disc)) / (2 * q)));
}

/** Phase delay in samples of the one-pole lowpass (1-a)/(1 - a z^-1) at `w`. */
function onePoleDelay(a: number, w: number): number {
  return Math.atan2(a * Math.sin(w), 1 - a * Math.cos(w)) / w;
}

function addPick(
  input: Float32Array,
  at: number,
  period: number,
  velocity: number,
  position: number,
  brightness: number,
  random: Random,
): void {
  const n = Math.max(4, Math.round(period));
  const shape = new Float32Array(n);
  let mean = 0;
  for (let k = 0; k < n; k++) {
    const x = k / n;
    shape[k] = x < position ? x / position : (1 - x) / (1 - position);
    mean += shape[k] ?? 0;
  }
  mean /= n;
  // Brightness as a one-pole lowpass over the excitation; darker picks lose the upper partials.
  const a = 0.05 + 0.8 * (1 - brightness);
  let lp = 0;
  for (let k = 0; k < n && at + k < input.length; k++) {
    const raw = (shape[k] ?? 0) - mean + 0.2 * (random() - 0.5);
    lp = (1 - a) * raw + a * lp;
    input[at + k] = (input[at + k] ?? 0) + 0.6 * velocity * lp;
  }
}

function addNoise(
  out: Float32Array,
  at: number,
  seconds: number,
  level: number,
  smooth: number,
  random: Random,
): void {
  const n = Math.round(seconds * SAMPLE_RATE);
  let lp = 0;
  for (let k = 0; k < n && at + k < out.length; k++) {
    lp = (1 - smooth) * (random() - 0.5) + smooth * lp;
    out[at + k] = (out[at + k] ?? 0) + level * lp * Math.exp((-5 * k) / n);
  }
}

/**
 * Renders one string.
 *
 * @param length output length in samples at SAMPLE_RATE.
 * @returns the string's output (before body and mix), about +-0.5 at full velocity.
 */
export function renderString(
  score: StringScore,
  length: number,
  timbre: Timbre,
  random: Random,
): Float32Array {
  const out = new Float32Array(length);
  const input = new Float32Array(length);
  const blocks = Math.ceil(length / CONTROL_SAMPLES);
  const hasInput = new Uint8Array(blocks + 1);
  const stops: number[] = [];
  const controlAt = (sample: number) =>
    Math.min(score.pitch.length - 1, Math.floor(sample / CONTROL_SAMPLES));

  for (const e of score.excitations) {
    const at = Math.round(e.time * SAMPLE_RATE);
    if (at < 0 || at >= length) continue;
    const period = SAMPLE_RATE / midiToHz(score.pitch[controlAt(at)] ?? 60);
    const position = between(random, timbre.pluckPosition[0], timbre.pluckPosition[1]);
    let span = period;
    switch (e.kind) {
      case 'pick':
        stops.push(at);
        addPick(input, at, period, e.velocity, position, timbre.brightness, random);
        addNoise(out, at, 0.004, timbre.pickNoise * e.velocity, 0.2, random);
        break;
      case 'pull':
        // The finger leaving the fret plucks the string a little, close to that fret, with the
        // soft flesh of the fingertip rather than a pick (so darker than a pick).
        addPick(input, at, period, 0.3 * e.velocity, 0.06, timbre.brightness * 0.3, random);
        break;
      case 'hammer': {
        // The finger hitting the fret: a short pulse into the string and a soft thud.
        const w = Math.round(0.0012 * SAMPLE_RATE);
        for (let k = 0; k < w && at + k < length; k++)
          input[at + k] = (input[at + k] ?? 0) + 0.1 * e.velocity * Math.sin((Math.PI * k) / w);
        addNoise(out, at, 0.012, 0.3 * timbre.pickNoise * e.velocity, 0.7, random);
        span = w;
        break;
      }
      case 'scrape':
        // Brighter on a plain string, a rasp on a wound one (smooth: the lowpass of the noise).
        addNoise(out, at, e.seconds ?? 0.05, 0.5 * timbre.pickNoise * e.velocity, 0.35, random);
        span = 0;
        break;
      case 'sympathy':
        addPick(input, at, period, e.velocity, 0.5, timbre.brightness * 0.5, random);
        break;
      case 'mute': {
        stops.push(at);
        const n = Math.round(0.012 * SAMPLE_RATE);
        let lp = 0;
        for (let k = 0; k < n && at + k < length; k++) {
          lp = 0.6 * (random() - 0.5) + 0.4 * lp;
          input[at + k] = (input[at + k] ?? 0) + 0.9 * e.velocity * lp * (1 - k / n);
        }
        addNoise(out, at, 0.02, 1.5 * timbre.pickNoise * e.velocity, 0.3, random);
        span = n;
        break;
      }
    }
    for (
      let b = Math.floor(at / CONTROL_SAMPLES);
      b <= Math.min(blocks, Math.floor((at + span) / CONTROL_SAMPLES) + 1);
      b++
    )
      hasInput[b] = 1;
  }
  stops.sort((x, y) => x - y);

  const buffer = new Float32Array(BUFFER_SIZE);
  let write = 0;
  let lp = 0;
  let silent = true;
  let nextStop = 0;
  const wHigh = (2 * Math.PI * HIGH_REFERENCE_HZ) / SAMPLE_RATE;

  for (let b = 0; b < blocks; b++) {
    const s0 = b * CONTROL_SAMPLES;
    const s1 = Math.min(length, s0 + CONTROL_SAMPLES);
    if (silent && hasInput[b] === 0) {
      while (nextStop < stops.length && (stops[nextStop] ?? 0) < s1) nextStop++;
      continue;
    }
    // A pick or dead note first stops what the string was doing.
    while (nextStop < stops.length && (stops[nextStop] ?? 0) < s1) {
      for (let k = 0; k < BUFFER_SIZE; k++) buffer[k] = (buffer[k] ?? 0) * 0.1;
      lp *= 0.1;
      nextStop++;
    }
    const p0 = score.pitch[Math.min(b, score.pitch.length - 1)] ?? 60;
    const p1 = score.pitch[Math.min(b + 1, score.pitch.length - 1)] ?? p0;
    const t60 = Math.max(0.005, score.t60[Math.min(b, score.t60.length - 1)] ?? 1);
    const fMid = midiToHz((p0 + p1) / 2);
    const gain = 10 ** (-3 / (t60 * fMid));
    const m = 10 ** ((-3 / fMid) * (1 / (t60 * timbre.highDecay) - 1 / t60));
    const a = onePoleFor(m, Math.min(wHigh, Math.PI * 0.9));
    const w0 = (2 * Math.PI * fMid) / SAMPLE_RATE;
    const filterDelay = onePoleDelay(a, w0);
    // The lowpass also takes a little from the fundamental; give it back so its T60 holds.
    const atF0 = (1 - a) / Math.sqrt(1 - 2 * a * Math.cos(w0) + a * a);
    const loop = Math.min(0.99999, gain / atF0);
    const d0 = SAMPLE_RATE / midiToHz(p0) - filterDelay;
    const d1 = SAMPLE_RATE / midiToHz(p1) - filterDelay;
    const g0 = score.level?.[Math.min(b, score.level.length - 1)] ?? 1;
    const g1 = score.level?.[Math.min(b + 1, score.level.length - 1)] ?? g0;
    let peak = 0;
    for (let s = s0; s < s1; s++) {
      const d = d0 + ((d1 - d0) * (s - s0)) / CONTROL_SAMPLES;
      const pos = write - d;
      const i = Math.floor(pos);
      const x = pos - i;
      const ym1 = buffer[(i - 1) & BUFFER_MASK] ?? 0;
      const y0 = buffer[i & BUFFER_MASK] ?? 0;
      const y1 = buffer[(i + 1) & BUFFER_MASK] ?? 0;
      const y2 = buffer[(i + 2) & BUFFER_MASK] ?? 0;
      const delayed =
        (-ym1 * x * (x - 1) * (x - 2)) / 6 +
        (y0 * (x + 1) * (x - 1) * (x - 2)) / 2 -
        (y1 * (x + 1) * x * (x - 2)) / 2 +
        (y2 * (x + 1) * x * (x - 1)) / 6;
      lp = (1 - a) * delayed + a * lp;
      const v = loop * lp + (input[s] ?? 0);
      buffer[write & BUFFER_MASK] = v;
      write++;
      out[s] = (out[s] ?? 0) + v * (g0 + ((g1 - g0) * (s - s0)) / CONTROL_SAMPLES);
      peak = Math.max(peak, Math.abs(v));
    }
    if (peak < 1e-6 && hasInput[b + 1] === 0) {
      silent = true;
      buffer.fill(0);
      lp = 0;
    } else silent = false;
  }
  return out;
}
