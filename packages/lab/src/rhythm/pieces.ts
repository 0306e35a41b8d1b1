import { defaultUploadConfig, TUNING_PRESETS, type UploadConfig } from '@riffscribe/core';
import { Performance } from '../corpus/performance.js';
import type { CorpusTruth } from '../corpus/corpus.js';
import {
  between,
  gaussian,
  medianTempo,
  type Random,
  seededRandom,
} from '@riffscribe/engine/stages';
import { guitaristVoicing } from '../soundfont/idioms.js';
import type { MidiFileSpec } from '../soundfont/midi-file.js';
import { performanceMidi } from '../soundfont/performance-midi.js';
import { guitarOfProgram, type Effects } from '../soundfont/recipes.js';

/**
 * The rhythm corpus: rhythmic guitar parts played on a known beat grid, rendered like the
 * SoundFont corpus (FluidSynth with the General MIDI guitars, then a room, noise and a lossy codec:
 * soundfont/render.ts), so that the beat tracker can be scored against exact beats and bar lines.
 *
 * How the truth is made: the grid comes first. A piece is `pickup` beats of lead-in, `bars` bars
 * and a closing chord on the next downbeat; beat k lasts 60 / bpm_k seconds, where bpm_k moves
 * linearly from `bpm` to `bpm * (1 + drift)` over the piece (gradual accelerando or ritardando)
 * and is wobbled by a smooth random factor of standard deviation `rubato` (two slow sines,
 * periods 3-9 beats). Every note is then placed at a position in beats, mapped to seconds through
 * that grid (linearly inside a beat), with a player's timing jitter (8 ms standard deviation) and
 * a strum's spread between strings (8-15 ms, as in the SoundFont corpus). The true beats are the
 * grid's beat times, the downbeats every `perBar` beats from the end of the pickup; the true tempo
 * is the grid's median tempo, as for the real excerpts. Compound 6/8 is written with its beat on
 * the dotted quarter (two beats a bar), as a listener taps it.
 *
 * Two parts, like the SoundFont corpus: TUNED (look at it, measure on it, change the tracker by
 * it) and HELD (different seeds, tempos, programs, progressions and pattern variants; only
 * measured and reported, never used to choose a constant; do not open its clips to debug).
 */

export type RhythmPart = 'tuned' | 'held';

/** The rhythmic figures a piece can be made of. */
export type PatternKind =
  | 'downUp8'
  | 'pop'
  | 'popVariant'
  | 'bossa'
  | 'samba'
  | 'ska'
  | 'reggae'
  | 'waltz'
  | 'arp68'
  | 'shuffle'
  | 'swingStrum'
  | 'travis'
  | 'arp8'
  | 'palmMute';

export interface RhythmRecipe {
  name: string;
  part: RhythmPart;
  seed: number;
  /** General MIDI program, 24..30. */
  program: number;
  pattern: PatternKind;
  /** Starting tempo, beats a minute (6/8: dotted quarters a minute). */
  bpm: number;
  /** Tempo change over the piece as a fraction (0.08 = 8 % faster by the end). */
  drift: number;
  /** Standard deviation of the smooth beat-to-beat wobble, a fraction of the beat (rubato). */
  rubato: number;
  /** Beats before the first downbeat (a lead-in). */
  pickup: number;
  /** About how long the piece is, seconds (whole bars). */
  seconds: number;
  /** One chord a bar, cycled; names as they sound. */
  progression: readonly string[];
  key: string;
  effects: Effects;
}

/** Beats a bar of a pattern (6/8: two dotted-quarter beats). */
export function beatsPerBar(pattern: PatternKind): number {
  if (pattern === 'waltz') return 3;
  if (pattern === 'arp68') return 2;
  return 4;
}

/** A piece's answers: notes and chords (CorpusTruth) and the beat grid. */
export interface RhythmTruth extends CorpusTruth {
  /** Beat times, seconds, increasing. */
  beats: number[];
  /** Bar starts, seconds (a subset of `beats`). */
  downbeats: number[];
  perBar: number;
}

export interface RhythmScore {
  recipe: RhythmRecipe;
  truth: RhythmTruth;
  midi: MidiFileSpec;
}

/** Player's timing jitter, seconds (standard deviation). */
const JITTER = 0.008;
const STRUM_SPREAD = [0.008, 0.015] as const;

/** The beat grid: times of beats 0..count-1 from `start`. */
export function beatGrid(
  r: Random,
  recipe: Pick<RhythmRecipe, 'bpm' | 'drift' | 'rubato'>,
  count: number,
  start: number,
): number[] {
  const waves = [0, 1].map(() => ({
    period: between(r, 3, 9),
    phase: between(r, 0, 2 * Math.PI),
  }));
  const beats = [start];
  for (let k = 0; k < count - 1; k++) {
    const bpm = recipe.bpm * (1 + (recipe.drift * k) / Math.max(1, count - 2));
    // Two unit sines summed have standard deviation 1.
    const wobble = waves.reduce((s, w) => s + Math.sin((2 * Math.PI * k) / w.period + w.phase), 0);
    const gap = (60 / bpm) * (1 + recipe.rubato * wobble);
    beats.push((beats.at(-1) ?? start) + gap);
  }
  return beats;
}

/** Seconds of a position in beats (fractional) on a grid, extrapolated past its ends. */
export function timeAt(beats: readonly number[], x: number): number {
  const n = beats.length;
  const k = Math.max(0, Math.min(n - 2, Math.floor(x)));
  const a = beats[k] ?? 0;
  const b = beats[k + 1] ?? a + 0.5;
  return a + (x - k) * (b - a);
}

/** What a pattern writer may use to play one bar. */
interface Bar {
  perf: Performance;
  random: Random;
  /** Chord frets low string to high string (null = not played). */
  frets: readonly (number | null)[];
  /** Index of the bar in the piece (0 = first full bar). */
  index: number;
  /** Seconds of a position in beats from the bar's downbeat. */
  at: (x: number) => number;
  /** Seconds per beat around the bar. */
  beat: number;
}

/** Strings of a chord shape, low to high (6 .. 1), with their frets. */
function played(frets: readonly (number | null)[]): { string: number; fret: number }[] {
  return frets
    .map((f, i) => ({ string: 6 - i, fret: f }))
    .filter((x): x is { string: number; fret: number } => x.fret !== null);
}

/** Only the strings `keep` (string numbers) of a shape. */
function only(frets: readonly (number | null)[], keep: (string: number) => boolean) {
  return frets.map((f, i) => (keep(6 - i) ? f : null));
}

const jitter = (b: Bar) => JITTER * gaussian(b.random);

function strum(
  b: Bar,
  frets: readonly (number | null)[],
  x: number,
  beats: number,
  up = false,
  velocity = 0.75,
) {
  const spread = between(b.random, STRUM_SPREAD[0], STRUM_SPREAD[1]);
  b.perf.strum(frets, b.at(x) + jitter(b), beats * b.beat, { up, spread, velocity });
}

/** One note on a string of the chord (the lowest played string when `string` is 'bass'). */
function note(b: Bar, string: number | 'bass' | 'alt', x: number, beats: number, velocity = 0.75) {
  const strings = played(b.frets);
  const bass = strings[0];
  if (bass === undefined) return;
  let s = bass;
  if (string === 'alt') s = strings[Math.min(strings.length - 1, 1)] ?? bass;
  else if (string !== 'bass') s = strings.find((p) => p.string === string) ?? bass;
  b.perf.pick(s.string, s.fret, b.at(x) + jitter(b), beats * b.beat, {
    velocity: velocity * (0.9 + 0.2 * b.random()),
  });
}

/** The upper three or four strings of the shape (a comping chord without the bass). */
const upper = (b: Bar, count = 3) => {
  const strings = played(b.frets).slice(-count);
  return only(b.frets, (s) => strings.some((p) => p.string === s));
};

/** Strings 1..3 of the shape, picked together (fingers), as notes 2 ms apart. */
function pluck(b: Bar, x: number, beats: number, velocity = 0.6, count = 3) {
  b.perf.strum(upper(b, count), b.at(x) + jitter(b), beats * b.beat, {
    spread: 0.002,
    velocity,
  });
}

type Writer = (b: Bar) => void;

const WRITERS: Record<PatternKind, Writer> = {
  // Down on the beats, up on the offbeats; now and then an up strum is missed.
  downUp8: (b) => {
    for (let i = 0; i < 8; i++) {
      const down = i % 2 === 0;
      if (!down && b.random() < 0.1) continue;
      const frets = down ? b.frets : upper(b, 4);
      strum(b, frets, i / 2, 0.5, !down, down ? (i % 4 === 0 ? 0.85 : 0.7) : 0.5);
    }
  },
  // D . D U . U D U: beat 3 is tied over (no attack on it).
  pop: (b) => {
    const at = [0, 1, 1.5, 2.5, 3, 3.5];
    const up = [false, false, true, true, false, true];
    at.forEach((x, k) => {
      strum(b, up[k] ? upper(b, 4) : b.frets, x, k === 3 ? 1 : 0.5, up[k], up[k] ? 0.55 : 0.8);
    });
  },
  // D . D U . U . U: the syncopation runs on to beat 4's offbeat (beats 3 and 4 tied over).
  popVariant: (b) => {
    const at = [0, 1, 1.5, 2.5, 3.5];
    const up = [false, false, true, true, true];
    at.forEach((x, k) => {
      strum(b, up[k] ? upper(b, 4) : b.frets, x, 1, up[k], up[k] ? 0.6 : 0.8);
    });
  },
  // Thumb on 1 and 3 (root, then the next string), fingers in a two-bar syncopated figure.
  bossa: (b) => {
    note(b, 'bass', 0, 1.8, 0.8);
    note(b, 'alt', 2, 1.8, 0.75);
    const chords = b.index % 2 === 0 ? [0, 1.5, 3] : [1, 2.5];
    for (const x of chords) pluck(b, x, 0.9, 0.55);
  },
  // Samba: bass on every beat (root, root, alt, alt), fingers on the sixteenth offbeats.
  samba: (b) => {
    [0, 1, 2, 3].forEach((x) => {
      note(b, x < 2 ? 'bass' : 'alt', x, 0.9, 0.8);
    });
    const chords =
      b.index % 2 === 0 ? [0.25, 0.75, 1.5, 2.25, 2.75, 3.5] : [0.5, 1.25, 2, 2.75, 3.5];
    for (const x of chords) pluck(b, x, 0.2, 0.5);
  },
  // Ska: short chords on every offbeat, a soft root on 1 and 3.
  ska: (b) => {
    note(b, 'bass', 0, 0.45, 0.55);
    note(b, 'bass', 2, 0.45, 0.5);
    for (const x of [0.5, 1.5, 2.5, 3.5]) strum(b, upper(b, 4), x, 0.2, true, 0.75);
  },
  // Reggae one drop: a root on 1, short skanks on 2 and 4 (each with a ghost chop after it).
  reggae: (b) => {
    note(b, 'bass', 0, 0.9, 0.65);
    for (const x of [1, 3]) {
      strum(b, upper(b, 3), x, 0.2, false, 0.8);
      if (b.random() < 0.5) strum(b, upper(b, 3), x + 0.5, 0.1, true, 0.35);
    }
  },
  // Oom-pah-pah: the bass on 1, the upper strings on 2 and 3.
  waltz: (b) => {
    note(b, 'bass', 0, 1, 0.85);
    pluck(b, 1, 0.9, 0.55, 4);
    pluck(b, 2, 0.9, 0.5, 4);
  },
  // 6/8: six eighths a bar (beat = three eighths): bass, then up and down the upper strings.
  arp68: (b) => {
    const order: (number | 'bass')[] = ['bass', 3, 2, 1, 2, 3];
    order.forEach((s, j) => {
      note(b, s, j / 3, j === 0 ? 2 : 0.9, j === 0 ? 0.8 : j === 3 ? 0.65 : 0.55);
    });
  },
  // Boogie shuffle on the two lowest strings of the shape: root + fifth, root + sixth, swung.
  shuffle: (b) => {
    const [root] = played(b.frets);
    if (!root) return;
    const second = root.string - 1;
    const fifth = b.perf.pitchOf(root.string, root.fret) + 7 - b.perf.pitchOf(second, 0);
    for (let i = 0; i < 8; i++) {
      const x = Math.floor(i / 2) + (i % 2 === 1 ? 2 / 3 : 0);
      const top = fifth + (Math.floor(i / 2) % 2 === 1 ? 2 : 0);
      const frets: (number | null)[] = Array.from({ length: 6 }, () => null);
      frets[6 - root.string] = root.fret;
      frets[6 - second] = top;
      strum(b, frets, x, i % 2 === 0 ? 0.55 : 0.3, false, i % 2 === 0 ? 0.8 : 0.6);
    }
  },
  // Swung strums: down on the beat, up on the late (triplet) offbeat.
  swingStrum: (b) => {
    for (let i = 0; i < 8; i++) {
      const down = i % 2 === 0;
      if (!down && b.random() < 0.3) continue;
      const x = Math.floor(i / 2) + (down ? 0 : 2 / 3);
      strum(b, down ? b.frets : upper(b, 4), x, down ? 0.6 : 0.3, !down, down ? 0.75 : 0.5);
    }
  },
  // Travis picking: alternating thumb on every beat, fingers between (pinch on 1).
  travis: (b) => {
    const strings = played(b.frets);
    const bass = strings[0];
    const third = strings[Math.min(strings.length - 1, 2)];
    [0, 1, 2, 3].forEach((x) => {
      const s = x % 2 === 0 ? bass : third;
      if (s) b.perf.pick(s.string, s.fret, b.at(x) + jitter(b), 0.9 * b.beat, { velocity: 0.8 });
    });
    note(b, 1, 0, 1, 0.6);
    note(b, 2, 1.5, 1, 0.55);
    note(b, 1, 2.5, 1, 0.55);
    note(b, 3, 3.5, 0.5, 0.5);
  },
  // p i m a m i m i in eighths.
  arp8: (b) => {
    const order: (number | 'bass')[] = ['bass', 3, 2, 1, 2, 3, 2, 3];
    order.forEach((s, j) => {
      note(b, s, j / 2, j === 0 ? 2 : 0.9, j === 0 ? 0.8 : 0.55);
    });
  },
  // Palm-muted eighths on a power chord, open on beat 1 of every other bar.
  palmMute: (b) => {
    const power = only(b.frets, (s) => {
      const strings = played(b.frets);
      const root = strings[0]?.string ?? 6;
      return s <= root && s >= root - 2;
    });
    for (let i = 0; i < 8; i++) {
      const open = i === 0 && b.index % 2 === 0;
      strum(b, power, i / 2, open ? 1 : 0.22, false, i % 2 === 0 ? 0.85 : 0.65);
      if (open) i++;
    }
  },
};

/** Plays a recipe on its grid (deterministic: its seed decides everything). */
export function rhythmScore(recipe: RhythmRecipe): RhythmScore {
  const random = seededRandom(recipe.seed);
  const preset = TUNING_PRESETS.find((t) => t.id === 'standard');
  if (preset === undefined) throw new Error('no standard tuning preset');
  const perf = new Performance(preset.pitches, 0, random);
  const voice = guitaristVoicing('standard', 0);
  const perBar = beatsPerBar(recipe.pattern);
  const barSeconds = (perBar * 60) / recipe.bpm;
  const bars = Math.max(4, Math.round(recipe.seconds / barSeconds));
  const count = recipe.pickup + bars * perBar + 1;
  const beats = beatGrid(random, recipe, count, between(random, 0.3, 0.6));
  const chordOf = (bar: number) =>
    recipe.progression[
      ((bar % recipe.progression.length) + recipe.progression.length) % recipe.progression.length
    ] ?? 'C';

  // Lead-in: single bass notes walking up to the first chord's root, one a beat.
  if (recipe.pickup > 0) {
    const [root] = played(voice(chordOf(0)));
    if (root) {
      for (let k = 0; k < recipe.pickup; k++) {
        const steps = recipe.pickup - k;
        const string = steps > root.fret ? Math.min(6, root.string + 1) : root.string;
        const fret =
          string === root.string ? root.fret - steps : Math.max(0, root.fret - steps + 5);
        perf.pick(
          string,
          Math.max(0, fret),
          timeAt(beats, k) + JITTER * gaussian(random),
          0.9 * (60 / recipe.bpm),
          {
            velocity: 0.7,
          },
        );
      }
    }
  }
  for (let bar = 0; bar < bars; bar++) {
    const first = recipe.pickup + bar * perBar;
    const name = chordOf(bar);
    const frets = voice(name);
    WRITERS[recipe.pattern]({
      perf,
      random,
      frets,
      index: bar,
      at: (x) => timeAt(beats, first + x),
      beat: (timeAt(beats, first + perBar) - timeAt(beats, first)) / perBar,
    });
    perf.chord(name, round(timeAt(beats, first)), round(timeAt(beats, first + perBar)));
  }
  // The closing chord on the last downbeat, left to ring.
  const last = beats.at(-1) ?? 0;
  const gap = last - (beats.at(-2) ?? last - 0.5);
  const end = last + Math.max(0.8, 1.5 * gap);
  const closing = chordOf(0);
  perf.strum(voice(closing), last, end - last, { spread: 0.012, velocity: 0.8 });
  perf.chord(closing, round(last), round(end));

  const config: UploadConfig = {
    ...defaultUploadConfig(guitarOfProgram(recipe.program)),
    capo: 0,
    tuning: preset.pitches,
    tuning_name: preset.name,
  };
  const downbeats: number[] = [];
  for (let k = recipe.pickup; k < beats.length; k += perBar) downbeats.push(round(beats[k] ?? 0));
  const truth: RhythmTruth = {
    name: recipe.name,
    config,
    notes: perf.truth(),
    chords: perf.chords.map((c) => ({ ...c })),
    key: recipe.key,
    openStrumNotes: perf.strumTruth(true),
    bpm: medianTempo(beats.map(round)),
    seconds: end + 0.3,
    beats: beats.map(round),
    downbeats,
    perBar,
  };
  return { recipe, truth, midi: performanceMidi(perf, recipe.program, truth.seconds) };
}

const round = (x: number) => Math.round(x * 10000) / 10000;
