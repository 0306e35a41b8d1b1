import type { ClipAudio } from '../types.js';
import { HOP, hzToMidi, midiToHz, SAMPLE_RATE } from '../units.js';
import { frameSpectrumPair, spectrumBuffer } from './spectrum.js';

/**
 * A note's pitch read from the clip, finer than the model's contour (pure). The contour has three
 * bins per semitone and follows a vibrato of 15 cents only roughly; here each of the note's
 * partials near where the contour says it is gives its instantaneous frequency from the phase
 * advance between two windows PHASE_LAG samples apart (the phase vocoder's estimate, exact for a
 * steady partial), and the partials' estimates, divided by their harmonic numbers, are averaged
 * weighted by power. Frames where the partials disagree or are too weak are left unknown (NaN).
 */

/** Analysis window (samples): 46 ms, short against a 150 ms vibrato cycle. */
const WINDOW = 1024;
/** Samples between the two windows whose phase difference gives the frequency. */
const PHASE_LAG = 64;
/** Highest partial frequency used (Hz) and most partials per note. */
const MAX_PARTIAL_HZ = 4500;
const MAX_PARTIALS = 6;
/** Semitones around the expected partial frequency searched for its peak. */
const SEARCH_SEMITONES = 0.7;
/** Partials' estimates must agree within this many semitones of their weighted mean. */
const AGREEMENT = 0.3;

interface Estimate {
  midi: number;
  weight: number;
}

/** Mean of the estimates' pitches weighted by their power. */
function weightedMean(estimates: readonly Estimate[]): number {
  let sum = 0;
  let weight = 0;
  for (const e of estimates) {
    sum += e.midi * e.weight;
    weight += e.weight;
  }
  return sum / weight;
}

/**
 * @param frames model frames to read (frame i centred on sample i * HOP).
 * @param guess expected pitch (MIDI) per frame, e.g. the model's contour; NaN = skip the frame.
 * @returns MIDI pitch per frame, NaN where the clip does not say clearly.
 */
export function trackPitch(
  audio: ClipAudio,
  firstFrame: number,
  guess: ArrayLike<number>,
): Float64Array {
  const out = new Float64Array(guess.length).fill(Number.NaN);
  const binHz = SAMPLE_RATE / WINDOW;
  const a = spectrumBuffer(WINDOW);
  const b = spectrumBuffer(WINDOW);
  const scratch = spectrumBuffer(WINDOW);
  for (let i = 0; i < guess.length; i++) {
    const expected = guess[i] ?? Number.NaN;
    if (Number.isNaN(expected)) continue;
    const center = (firstFrame + i) * HOP;
    if (center - WINDOW < 0 || center + WINDOW >= audio.length) continue;
    // Both windows' spectra from one FFT.
    frameSpectrumPair(audio, center - PHASE_LAG / 2, center + PHASE_LAG / 2, WINDOW, a, b, scratch);
    const f0 = midiToHz(expected);
    const estimates: Estimate[] = [];
    for (let h = 1; h <= MAX_PARTIALS && h * f0 < MAX_PARTIAL_HZ; h++) {
      const fh = h * f0;
      const lo = Math.max(1, Math.floor((fh * 2 ** (-SEARCH_SEMITONES / 12)) / binHz));
      const hi = Math.min(WINDOW / 2 - 1, Math.ceil((fh * 2 ** (SEARCH_SEMITONES / 12)) / binHz));
      let k = -1;
      let power = 0;
      for (let j = lo; j <= hi; j++) {
        const p = (a.re[j] ?? 0) ** 2 + (a.im[j] ?? 0) ** 2;
        if (p > power) {
          power = p;
          k = j;
        }
      }
      if (k <= lo || k >= hi) continue;
      const phaseA = Math.atan2(a.im[k] ?? 0, a.re[k] ?? 0);
      const phaseB = Math.atan2(b.im[k] ?? 0, b.re[k] ?? 0);
      const expectedAdvance = (2 * Math.PI * k * PHASE_LAG) / WINDOW;
      let dev = phaseB - phaseA - expectedAdvance;
      dev -= 2 * Math.PI * Math.round(dev / (2 * Math.PI));
      const hz = (k + (dev * WINDOW) / (2 * Math.PI * PHASE_LAG)) * binHz;
      if (hz <= 0) continue;
      estimates.push({ midi: hzToMidi(hz / h), weight: power });
    }
    if (estimates.length === 0) continue;
    const first = weightedMean(estimates);
    // Drop partials that disagree (a neighbouring note's partial), then average again.
    const agreeing = estimates.filter((e) => Math.abs(e.midi - first) <= AGREEMENT);
    if (agreeing.length === 0) continue;
    const mean = weightedMean(agreeing);
    if (Math.abs(mean - expected) <= SEARCH_SEMITONES) out[i] = mean;
  }
  return out;
}
