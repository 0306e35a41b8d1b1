import { fft } from '../dsp/fft.js';

/**
 * Listen & check's ear (issue 40): a streaming analysis of the microphone, light enough to run on
 * every hop in a Web Worker. It is a checker's ear, not a transcriber: it finds attacks (spectral
 * flux peaks) and, a few hops after each, how strongly every guitar pitch sounds (a weighted sum of
 * the spectrum at its first six harmonics). Whether the tab's note was played is decided against
 * those strengths by checker.ts, which knows what it expects to hear.
 *
 * The audio is decimated to about 22-24 kHz, then 2048-sample Hann windows every 256 samples
 * (about 90 ms windows every 11 ms).
 */

/** Lowest and highest pitch measured (MIDI): C2 (a drop-C low string) to F#6 (24th fret, high e). */
export const MIN_MIDI = 36;
export const MAX_MIDI = 90;
export const PITCH_COUNT = MAX_MIDI - MIN_MIDI + 1;

const WINDOW = 2048;
const HOP = 256;
const HARMONICS = 6;
const HARMONIC_WEIGHT = 0.85;
/** How far from a harmonic's exact frequency its peak may sit (a string a little out of tune). */
const CENTS_TOLERANCE = 35;
/**
 * Hops after an attack's flux peak whose strengths are its evidence: the peak comes as the attack
 * enters the window, so these are the windows about 30-75 ms later, mostly the new note.
 */
const EVIDENCE_FROM = 3;
const EVIDENCE_HOPS = 4;
/** Where in the flux peak's window the attack is placed (share of the window from its end). */
const ATTACK_AT = 0.2;
/** The level the spectrum is read relative to: the loudest recent RMS, falling this much a hop. */
const LEVEL_DECAY = 0.998;
const LEVEL_FLOOR = 0.003;
/** Hops before the attack whose strengths say what was already ringing. */
const BEFORE_HOPS = 3;
/** An attack needs its flux above this many times the recent median, plus FLUX_FLOOR. */
const FLUX_RATIO = 1.6;
const FLUX_FLOOR = 0.02;
/** Attacks closer than this are one attack (seconds). */
const MIN_GAP_S = 0.06;
/** Below this level (RMS of the decimated signal) nothing is an attack. */
export const SILENCE_RMS = 0.002;
/** Bins either side whose mean a bin's tonal part is measured above (about +-95 Hz). */
const TONAL_HALF_WIDTH = 8;
/** A level report every this many hops (about 0.1 s). */
const LEVEL_HOPS = 9;

/** An attack as heard. Times are seconds on the stream's clock (the AudioContext's). */
export interface HeardOnset {
  /** Where the attack is placed: the flux peak's window centre. */
  time: number;
  /** When the evidence was complete: the end of the last window it used. */
  decidedAt: number;
  /** Pitch strengths MIN_MIDI..MAX_MIDI, averaged over the evidence hops. */
  salience: Float32Array;
  /** The same just before the attack (what was ringing already). */
  before: Float32Array;
}

export interface HeardLevel {
  time: number;
  rms: number;
}

export interface AnalysisEvents {
  onset: (onset: HeardOnset) => void;
  level: (level: HeardLevel) => void;
}

/** MIDI pitch to Hz (A4 = 440). */
export const midiHz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/**
 * The streaming analysis. `push` takes blocks of samples as they arrive, with the stream time of
 * each block's first sample, and calls back with attacks and levels.
 */
export class ListenAnalyzer {
  readonly rate: number;
  private readonly factor: number;
  private readonly hann = new Float64Array(WINDOW);
  private readonly ring = new Float32Array(WINDOW);
  private ringFill = 0;
  private ringAt = 0;
  private sinceHop = 0;
  private decimSum = 0;
  private decimCount = 0;
  /** Stream time of the next decimated sample. */
  private clock = 0;
  private readonly re = new Float64Array(WINDOW);
  private readonly im = new Float64Array(WINDOW);
  private prev = new Float64Array(WINDOW / 2);
  private spec = new Float64Array(WINDOW / 2);
  private readonly tonal = new Float64Array(WINDOW / 2);
  private readonly fluxBins: number;
  /** Per pitch, per harmonic: the bin range [lo, hi] to take the peak of. */
  private readonly ranges: Int32Array;
  private readonly weights: Float64Array;
  /** Recent hops: flux, rms, end time, salience. */
  private readonly history: { flux: number; rms: number; end: number; sal: Float32Array }[] = [];
  private lastOnset = -Infinity;
  private pending: {
    hop: number;
    time: number;
    flux: number;
    before: Float32Array;
  }[] = [];
  private hops = 0;
  private levelSum = 0;
  private reference = LEVEL_FLOOR;

  constructor(
    inputRate: number,
    private readonly events: AnalysisEvents,
  ) {
    this.factor = Math.max(1, Math.round(inputRate / 22050));
    this.rate = inputRate / this.factor;
    for (let i = 0; i < WINDOW; i += 1)
      this.hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / WINDOW);
    this.fluxBins = Math.min(WINDOW / 2, Math.round((5000 * WINDOW) / this.rate));
    this.ranges = new Int32Array(PITCH_COUNT * HARMONICS * 2).fill(-1);
    this.weights = new Float64Array(HARMONICS);
    for (let h = 0; h < HARMONICS; h += 1) this.weights[h] = HARMONIC_WEIGHT ** h;
    const tol = 2 ** (CENTS_TOLERANCE / 1200);
    for (let p = 0; p < PITCH_COUNT; p += 1) {
      for (let h = 0; h < HARMONICS; h += 1) {
        const f = midiHz(MIN_MIDI + p) * (h + 1);
        if (f * tol >= this.rate * 0.45) continue;
        const at = (p * HARMONICS + h) * 2;
        this.ranges[at] = Math.floor((f / tol) * (WINDOW / this.rate));
        this.ranges[at + 1] = Math.ceil(f * tol * (WINDOW / this.rate));
      }
    }
  }

  /** Seconds of audio per hop. */
  get hopSeconds(): number {
    return HOP / this.rate;
  }

  /** Adds a block; `start` is the stream time of its first sample. */
  push(samples: Float32Array, start: number): void {
    const inputRate = this.rate * this.factor;
    // Keep the clock on the stream's (a dropped block would otherwise shift every later time).
    const expected = start + this.decimCount / inputRate;
    if (Math.abs(expected - this.clock) > 0.05) this.clock = expected;
    for (const s of samples) {
      this.decimSum += s;
      this.decimCount += 1;
      if (this.decimCount < this.factor) continue;
      this.take(this.decimSum / this.factor);
      this.decimSum = 0;
      this.decimCount = 0;
    }
  }

  private take(v: number): void {
    this.ring[this.ringAt] = v;
    this.ringAt = (this.ringAt + 1) % WINDOW;
    this.clock += 1 / this.rate;
    if (this.ringFill < WINDOW) this.ringFill += 1;
    this.sinceHop += 1;
    if (this.sinceHop >= HOP && this.ringFill >= WINDOW) {
      this.sinceHop = 0;
      this.hop();
    }
  }

  private hop(): void {
    const { re, im, ring, hann } = this;
    let energy = 0;
    for (let i = 0; i < WINDOW; i += 1) {
      // The ring's oldest sample is at ringAt.
      const x = ring[(this.ringAt + i) % WINDOW] ?? 0;
      energy += x * x;
      re[i] = x * (hann[i] ?? 0);
      im[i] = 0;
    }
    const rms = Math.sqrt(energy / WINDOW);
    // Read relative to the recent loudest level, so a quiet microphone hears as a loud one.
    this.reference = Math.max(LEVEL_FLOOR, rms, this.reference * LEVEL_DECAY);
    fft(re, im);
    const half = WINDOW / 2;
    [this.prev, this.spec] = [this.spec, this.prev];
    const spec = this.spec;
    // Amplitude of a sine of peak 1 is about 1 after /(WINDOW/4); relative to the reference
    // level, log-compressed.
    const norm = 4 / WINDOW / (this.reference * 4);
    let flux = 0;
    for (let k = 0; k < half; k += 1) {
      const a = Math.hypot(re[k] ?? 0, im[k] ?? 0) * norm;
      const c = Math.log1p(100 * a);
      if (k > 0 && k < this.fluxBins) flux += Math.max(0, c - (this.prev[k] ?? 0));
      spec[k] = c;
    }
    flux /= this.fluxBins;
    // The tonal part: each bin above the mean of the bins around it, so that a broadband sound
    // (the pick's click, rumble, room noise) lifts no pitch.
    const tonal = this.tonal;
    let sum = 0;
    for (let k = 0; k < Math.min(half, TONAL_HALF_WIDTH); k += 1) sum += spec[k] ?? 0;
    for (let k = 0; k < half; k += 1) {
      const add = k + TONAL_HALF_WIDTH;
      const drop = k - TONAL_HALF_WIDTH - 1;
      if (add < half) sum += spec[add] ?? 0;
      if (drop >= 0) sum -= spec[drop] ?? 0;
      const width = Math.min(half - 1, add) - Math.max(0, drop + 1) + 1;
      tonal[k] = Math.max(0, (spec[k] ?? 0) - sum / width);
    }
    const sal = new Float32Array(PITCH_COUNT);
    for (let p = 0; p < PITCH_COUNT; p += 1) {
      let s = 0;
      for (let h = 0; h < HARMONICS; h += 1) {
        const at = (p * HARMONICS + h) * 2;
        const lo = this.ranges[at] ?? 0;
        if (lo < 0) break;
        const hi = Math.min(half - 1, this.ranges[at + 1] ?? 0);
        let peak = 0;
        for (let k = lo; k <= hi; k += 1) peak = Math.max(peak, tonal[k] ?? 0);
        s += (this.weights[h] ?? 0) * peak;
      }
      sal[p] = s;
    }
    const end = this.clock;
    this.history.push({ flux, rms, end, sal });
    if (this.history.length > 48) this.history.shift();
    this.hops += 1;
    this.levelSum += rms * rms;
    if (this.hops % LEVEL_HOPS === 0) {
      this.events.level({ time: end, rms: Math.sqrt(this.levelSum / LEVEL_HOPS) });
      this.levelSum = 0;
    }
    this.findOnset();
    this.finishPending();
  }

  /** The hop before last is an attack when its flux peaks above the recent median's threshold. */
  private findOnset(): void {
    const h = this.history;
    const n = h.length;
    const [a, b, c] = [h[n - 3], h[n - 2], h[n - 1]];
    if (!a || !b || !c) return;
    if (!(b.flux > a.flux && b.flux >= c.flux)) return;
    const recent = h.slice(0, n - 2).map((x) => x.flux);
    recent.sort((x, y) => x - y);
    const median = recent[Math.floor(recent.length / 2)] ?? 0;
    if (b.flux < median * FLUX_RATIO + FLUX_FLOOR) return;
    if (Math.max(b.rms, c.rms) < Math.max(SILENCE_RMS, 0.03 * this.reference)) return;
    const time = b.end - (ATTACK_AT * WINDOW) / this.rate;
    const last = this.pending[this.pending.length - 1];
    if (time - this.lastOnset < MIN_GAP_S) {
      // Within the gap a stronger peak is the attack (the first was a note's end, a pick's
      // scrape); it takes the place of one not yet reported, keeping what rang before that.
      if (last?.time !== this.lastOnset || b.flux <= last.flux) return;
      this.pending.pop();
      this.lastOnset = time;
      this.pending.push({ ...last, hop: this.hops - 1, time, flux: b.flux });
      return;
    }
    this.lastOnset = time;
    const before = h[Math.max(0, n - 2 - BEFORE_HOPS)]?.sal ?? new Float32Array(PITCH_COUNT);
    this.pending.push({
      hop: this.hops - 1,
      time,
      flux: b.flux,
      before,
    });
  }

  /** Attacks whose evidence hops have all arrived are reported. */
  private finishPending(): void {
    const last = EVIDENCE_FROM + EVIDENCE_HOPS - 1;
    for (;;) {
      const p = this.pending[0];
      if (!p || this.hops - 1 - p.hop < last) return;
      this.pending.shift();
      const salience = new Float32Array(PITCH_COUNT);
      const n = this.history.length;
      let end = 0;
      for (let k = EVIDENCE_FROM; k <= last; k += 1) {
        const entry = this.history[n - 1 - (this.hops - 1 - p.hop) + k];
        if (!entry) continue;
        end = entry.end;
        for (let i = 0; i < PITCH_COUNT; i += 1)
          salience[i] = (salience[i] ?? 0) + (entry.sal[i] ?? 0) / EVIDENCE_HOPS;
      }
      this.events.onset({ time: p.time, decidedAt: end, salience, before: p.before });
    }
  }
}
