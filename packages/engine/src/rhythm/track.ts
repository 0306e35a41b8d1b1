import { MAX_BEAT_SECONDS, MIN_BEAT_SECONDS } from '@riffscribe/core';
import { FRAME_RATE } from '../units.js';

/**
 * Beat tracking by dynamic programming (Ellis 2007, "Beat tracking by dynamic programming"):
 * the best chain of beats is the one that lands on strong onsets while each gap stays close to
 * the local beat period. Ellis compares every gap with one global period; here the period is the
 * local one (tempo.ts), so the chain follows an accelerando or a ritardando, and the log-squared
 * transition cost lets each beat drift a little more (rubato).
 */

/**
 * Transition cost per (log(gap / local period))², in units of the envelope's standard deviation:
 * a gap 10 % off the period costs about one typical onset. 100 is librosa's default tightness
 * for the same cost. Those corpora have no true beats (only a nominal tempo), so it was only
 * checked there: tempo acc 0.722 / 0.857 at 100 and 200, 0.778 / 0.857 at 400, 0.778 / 0.714 at
 * 50, all within one clip of each other; the synthetic tests (rubato, +40 % tempo) pass at
 * 50-400. 100 keeps the most freedom for rubato.
 */
const TIGHTNESS = 100;

/**
 * Beat frames (fractional, increasing) along `env`, with `periods` the local period of each
 * frame. The first and last beats are where the chain starts and ends; the caller extends it.
 */
export function trackBeats(env: Float32Array, periods: Float32Array): number[] {
  const n = env.length;
  if (n === 0) return [];
  const score = new Float32Array(n);
  const from = new Int32Array(n).fill(-1);
  const minGap = Math.ceil(MIN_BEAT_SECONDS * FRAME_RATE);
  const maxGap = Math.floor(MAX_BEAT_SECONDS * FRAME_RATE);
  for (let t = 0; t < n; t++) {
    const period = periods[t] ?? 1;
    const lo = Math.max(0, t - Math.min(maxGap, Math.round(2 * period)));
    const hi = t - Math.max(minGap, Math.round(period / 2));
    let best = -Infinity;
    let arg = -1;
    for (let p = lo; p <= hi; p++) {
      const v = (score[p] ?? 0) - TIGHTNESS * Math.log((t - p) / period) ** 2;
      if (v > best) {
        best = v;
        arg = p;
      }
    }
    // A chain may start anywhere: a start costs nothing, a bad link costs more than none.
    if (arg >= 0 && best > 0) {
      score[t] = (env[t] ?? 0) + best;
      from[t] = arg;
    } else score[t] = env[t] ?? 0;
  }
  // End within the last period, where the chain scores best.
  const lastPeriod = periods[n - 1] ?? 1;
  let end = n - 1;
  for (let t = Math.max(0, n - 1 - Math.round(lastPeriod)); t < n; t++)
    if ((score[t] ?? 0) > (score[end] ?? 0)) end = t;
  const beats: number[] = [];
  for (let t = end; t >= 0; t = from[t] ?? -1) beats.push(t);
  beats.reverse();
  return beats;
}
