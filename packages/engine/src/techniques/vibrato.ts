import { VIBRATO_CENTS, VIBRATO_RATE_HZ } from '@riffscribe/core';
import { FRAME_RATE } from '../units.js';
import { meanFilter, median, medianFilter } from './curves.js';

/**
 * Vibrato on one note's pitch curve (pure): a periodic pitch modulation at a hand's rate (players
 * use 5-7 Hz; the spec's curves use 6.5 Hz), of small (15 cents) or big (35 cents) depth.
 *
 * The curve (semitones per model frame) is cleaned of one-frame jumps (3-frame median), then its
 * slow part (a running mean over one vibrato cycle: held pitch, bends) is removed. On what is
 * left, within the frames the caller marks as held (not gliding), the rate is counted from zero
 * crossings and the depth (the modulation's amplitude, half its peak-to-peak swing) is sqrt(2)
 * times the RMS, as for a sine. A note also needs two whole cycles and a regular period: the
 * residue's autocorrelation one period later must be clearly positive; and the modulation must be
 * kept up over a few windows in a row (minRunWindows).
 */

export interface VibratoOptions {
  minRateHz: number;
  maxRateHz: number;
  /** Shallowest modulation (cents) taken as vibrato; steadier notes waver less than this. */
  minCents: number;
  /** From this depth (cents) a vibrato is 'big': between the spec's small and big depths. */
  bigCents: number;
  /** Correlation of the residue with itself one period later, at least. */
  minRegularity: number;
  /**
   * Modulated windows in a row (STEP frames apart) a vibrato needs somewhere on the note, unless
   * every window of the note is modulated (a short note): a hand's vibrato is kept up for a few
   * cycles, while a long ringing note beating against its neighbours, or a note the notes stage
   * merged with the next one, wavers at a hand's rate in a window here and there. Five windows
   * in a row span 42 frames: about half a second, three cycles at 6.5 Hz.
   */
  minRunWindows: number;
}

export const VIBRATO_OPTIONS: VibratoOptions = {
  minRateHz: 4,
  maxRateHz: 9,
  minCents: 7,
  bigCents: Math.sqrt(VIBRATO_CENTS.small * VIBRATO_CENTS.big),
  minRegularity: 0.3,
  minRunWindows: 5,
};

export interface VibratoMeasure {
  rateHz: number;
  depthCents: number;
  regularity: number;
  /** Held frames that lie in modulated windows. */
  frames: number;
  /** Most modulated windows in a row, and the windows measured. */
  run: number;
  windows: number;
}

/** Analysis windows span two vibrato cycles at the spec's rate (VIBRATO_RATE_HZ, 6.5 Hz). */
const WINDOW = Math.round((2 * FRAME_RATE) / VIBRATO_RATE_HZ);
const STEP = 4;

interface WindowMeasure {
  rate: number;
  rms: number;
  regularity: number;
}

/** Correlation of `residue` with itself `lag` frames later (0 when there is nothing to compare). */
function correlationAt(residue: Float64Array, lag: number): number {
  let num = 0;
  let den = 0;
  for (let i = 0; lag > 0 && i + lag < residue.length; i++) {
    const a = residue[i] ?? 0;
    const b = residue[i + lag] ?? 0;
    num += a * b;
    den += (a * a + b * b) / 2;
  }
  return den > 0 ? num / den : 0;
}

/**
 * Rate, depth and regularity of one window. The zero crossings of a two-cycle window give the
 * rate only to within one crossing (about 1.7 Hz), so the period is taken where the residue
 * repeats best among the rates of one crossing fewer, as many, and one more.
 */
function measureWindow(residue: Float64Array): WindowMeasure {
  let crossings = 0;
  let sumSq = 0;
  for (let i = 0; i < residue.length; i++) {
    const v = residue[i] ?? 0;
    sumSq += v * v;
    if (i > 0 && v !== 0 && Math.sign(v) !== Math.sign(residue[i - 1] ?? 0)) crossings++;
  }
  const seconds = residue.length / FRAME_RATE;
  let rate = crossings / 2 / seconds;
  let regularity = 0;
  for (const c of [crossings, crossings - 1, crossings + 1]) {
    const r = c / 2 / seconds;
    if (r <= 0) continue;
    const value = correlationAt(residue, Math.round(FRAME_RATE / r));
    if (value > regularity) {
      regularity = value;
      rate = r;
    }
  }
  return { rate, rms: Math.sqrt(sumSq / residue.length), regularity };
}

/**
 * The slow part of a (cleaned) pitch curve: a running mean over one vibrato cycle at the spec's
 * rate, which flattens vibrato and keeps held pitch, bends and releases.
 */
export function slowPitch(clean: ArrayLike<number>): Float64Array {
  return meanFilter(clean, Math.round(FRAME_RATE / VIBRATO_RATE_HZ / 2));
}

/**
 * Measures the modulation of `curve` over the frames where `held` is true, in windows of two
 * cycles (a vibrato often starts a little after the note, so the whole note would dilute it).
 * Windows whose rate is a hand's and whose residue repeats after one period are modulated; the
 * measure is the median over them. Null when no window is.
 */
export function measureVibrato(
  curve: ArrayLike<number>,
  held: ArrayLike<boolean>,
  opts: VibratoOptions = VIBRATO_OPTIONS,
): VibratoMeasure | null {
  const clean = medianFilter(curve, 1);
  const trend = slowPitch(clean);
  const windows: WindowMeasure[] = [];
  const isModulated = (m: WindowMeasure) =>
    m.rate >= opts.minRateHz && m.rate <= opts.maxRateHz && m.regularity >= opts.minRegularity;
  let longest = 0;
  let runStart = -1;
  for (let i = 0; i <= clean.length; i++) {
    const ok =
      i < clean.length &&
      held[i] === true &&
      !Number.isNaN(clean[i] ?? Number.NaN) &&
      !Number.isNaN(trend[i] ?? Number.NaN);
    if (ok && runStart < 0) runStart = i;
    if (ok || runStart < 0) continue;
    let inRow = 0;
    for (let w = runStart; w + WINDOW <= i; w += STEP) {
      const residue = new Float64Array(WINDOW);
      for (let k = 0; k < WINDOW; k++) residue[k] = (clean[w + k] ?? 0) - (trend[w + k] ?? 0);
      const m = measureWindow(residue);
      windows.push(m);
      inRow = isModulated(m) ? inRow + 1 : 0;
      longest = Math.max(longest, inRow);
    }
    runStart = -1;
  }
  const modulated = windows.filter(isModulated);
  if (modulated.length === 0) return null;
  const mid = (xs: number[]) => median(xs, 0);
  return {
    rateHz: mid(modulated.map((m) => m.rate)),
    depthCents: mid(modulated.map((m) => m.rms)) * Math.SQRT2 * 100,
    regularity: mid(modulated.map((m) => m.regularity)),
    frames: WINDOW + STEP * (modulated.length - 1),
    run: longest,
    windows: windows.length,
  };
}

/** Whether `held` has a run long enough for one analysis window (else there is no vibrato). */
export function roomForVibrato(held: readonly boolean[]): boolean {
  let run = 0;
  for (const h of held) {
    run = h ? run + 1 : 0;
    if (run >= WINDOW) return true;
  }
  return false;
}

/** 'small', 'big' or '' for a curve and its held frames. */
export function classifyVibrato(
  curve: ArrayLike<number>,
  held: ArrayLike<boolean>,
  opts: VibratoOptions = VIBRATO_OPTIONS,
): '' | 'small' | 'big' {
  const m = measureVibrato(curve, held, opts);
  if (m === null || m.depthCents < opts.minCents) return '';
  if (m.run < opts.minRunWindows && m.run < m.windows) return '';
  return m.depthCents >= opts.bigCents ? 'big' : 'small';
}
