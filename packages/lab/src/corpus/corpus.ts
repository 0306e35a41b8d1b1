import {
  defaultUploadConfig,
  TUNING_PRESETS,
  type ChordEvent,
  type GuitarType,
  type NoteEvent,
  type TuningPresetId,
  type UploadConfig,
} from '@riffscribe/core';
import { parseChord } from './chords.js';
import { Performance } from './performance.js';
import { PHRASES, type PhraseContext, type PhraseKind, type PhraseWriter } from './phrases.js';
import { seededRandom } from '@riffscribe/engine/stages';
import { reseeded } from '../seeds.js';
import { renderPerformance, TIMBRES } from './render.js';

/**
 * The project's own evaluation corpus: guitar clips with exact answers for every technique the
 * engine detects, rendered in TypeScript by a physical string model (string-model.ts).
 *
 * Why a string model and not FluidSynth with a sampled guitar: a SoundFont can only play samples
 * at fixed pitches, so a bend, vibrato, slide, hammer-on or pull-off must be faked with pitch-wheel
 * messages on one MIDI channel per string and a new sample attack per note; a legato note would
 * arrive with a pick attack, which is exactly what the detector must tell apart. In the waveguide
 * the pitch follows the played curve on a string that keeps vibrating, a hammer-on adds only the
 * energy of the finger, a pull-off plucks slightly, a slide glides without a new attack and a
 * dead note is a noise burst into a string damped in milliseconds, so the answers are exact by
 * construction. It also keeps `npm run eval` free of anything outside npm, and it is
 * deterministic: every random choice comes from a seeded generator.
 *
 * Each item is written by seeded phrase writers (phrases.ts) from a recipe: guitar type, tuning
 * and capo, key and chord progression, tempo and a weighting of phrase kinds. Together the items
 * cover every technique many times, capo and drop-D tunings, and acoustic, classical and electric
 * timbres, with plain picked notes as negatives.
 */

/** One corpus clip with its answers. */
export interface CorpusItem {
  name: string;
  /** Mono samples at 22050 Hz. */
  audio: Float32Array;
  /** defaultUploadConfig for the guitar type, with the item's tuning, tuning_name and capo. */
  config: UploadConfig;
  /** The true notes, with technique flags, bend_to_fret/release_to_fret and pitch_arr. */
  notes: NoteEvent[];
  /** The true chords (sounding names) where chords are strummed. */
  chords: ChordEvent[];
  /** The key, for example "Eb major" or "E minor". */
  key: string;
  /** The true notes of strums of shapes that ring an open string (strum note recall). */
  openStrumNotes: StrumNote[];
  /**
   * The recipe's tempo, quarter notes a minute: the only tempo the generator knows. It sets the
   * note values inside metred phrases (picked runs, strums, arpeggios), but phrases follow each
   * other after random gaps and technique phrases last seconds, not beats, so the clip has no
   * beat grid or bar lines to score a beat tracker against: only this nominal tempo.
   */
  bpm: number;
  /** How many phrases the seeded writers played (training material counts its phrases). */
  phrases?: number;
}

/** A string-model recipe: a phrase recipe and, for an electric guitar, how hard it is driven. */
export interface Recipe extends PhraseRecipe<PhraseKind> {
  drive?: number;
}

const RECIPES: readonly Recipe[] = [
  {
    name: 'electric-bends-a-minor',
    seed: 101,
    guitar: 'electric',
    tuning: 'standard',
    capo: 0,
    key: 'A minor',
    bpm: 92,
    seconds: 15,
    mix: { bend: 8, pick: 0.5, vibrato: 1, mute: 0.5 },
  },
  {
    name: 'acoustic-bends-g-major',
    seed: 102,
    guitar: 'acoustic',
    tuning: 'standard',
    capo: 0,
    key: 'G major',
    bpm: 100,
    seconds: 15,
    mix: { bend: 6, pick: 0.5, hammer: 0.5, slide: 0.5 },
  },
  {
    name: 'electric-vibrato-e-minor',
    seed: 103,
    guitar: 'electric',
    tuning: 'standard',
    capo: 0,
    key: 'E minor',
    bpm: 84,
    seconds: 15,
    mix: { vibrato: 6, bend: 3 },
    drive: 2.5,
  },
  {
    name: 'classical-vibrato-d-major',
    seed: 104,
    guitar: 'classical',
    tuning: 'standard',
    capo: 0,
    key: 'D major',
    bpm: 76,
    seconds: 15,
    mix: { vibrato: 7, pull: 0.5 },
  },
  {
    name: 'electric-bends-vibrato-d-minor',
    seed: 117,
    guitar: 'electric',
    tuning: 'standard',
    capo: 0,
    key: 'D minor',
    bpm: 88,
    seconds: 15,
    mix: { bend: 5, vibrato: 4 },
  },
  {
    name: 'electric-slides-a-major',
    seed: 105,
    guitar: 'electric',
    tuning: 'standard',
    capo: 0,
    key: 'A major',
    bpm: 96,
    seconds: 15,
    mix: { slide: 5, pick: 2, hammer: 1 },
  },
  {
    name: 'acoustic-slides-capo-2',
    seed: 106,
    guitar: 'acoustic',
    tuning: 'standard',
    capo: 2,
    key: 'A major',
    bpm: 104,
    seconds: 15,
    mix: { slide: 5, chord: 1, pick: 1 },
    progression: ['A', 'D', 'E', 'F#m'],
  },
  {
    name: 'electric-legato-c-major',
    seed: 107,
    guitar: 'electric',
    tuning: 'standard',
    capo: 0,
    key: 'C major',
    bpm: 100,
    seconds: 15,
    mix: { hammer: 4, pull: 4, pick: 2, slide: 1 },
  },
  {
    name: 'acoustic-legato-drop-d',
    seed: 108,
    guitar: 'acoustic',
    tuning: 'drop-d',
    capo: 0,
    key: 'D minor',
    bpm: 96,
    seconds: 15,
    mix: { hammer: 4, pull: 4, chord: 1, mute: 1 },
    progression: ['Dm', 'C', 'Bb', 'A7'],
  },
  {
    name: 'classical-legato-e-minor',
    seed: 118,
    guitar: 'classical',
    tuning: 'standard',
    capo: 0,
    key: 'E minor',
    bpm: 90,
    seconds: 14,
    mix: { hammer: 3, pull: 3, slide: 3, vibrato: 1 },
  },
  {
    name: 'electric-mutes-e-minor',
    seed: 109,
    guitar: 'electric',
    tuning: 'standard',
    capo: 0,
    key: 'E minor',
    bpm: 98,
    seconds: 15,
    mix: { mute: 5, pick: 1, chord: 1, hammer: 1 },
    progression: ['Em7', 'A7', 'Em', 'D'],
  },
  {
    name: 'acoustic-mutes-c-major',
    seed: 110,
    guitar: 'acoustic',
    tuning: 'standard',
    capo: 0,
    key: 'C major',
    bpm: 92,
    seconds: 15,
    mix: { mute: 6, pick: 0.5, chord: 1 },
    progression: ['C', 'Am', 'F', 'G'],
  },
  {
    name: 'acoustic-chords-g-major',
    seed: 111,
    guitar: 'acoustic',
    tuning: 'standard',
    capo: 0,
    key: 'G major',
    bpm: 100,
    seconds: 15,
    mix: { chord: 1 },
    progression: ['G', 'Cadd9', 'D', 'Em', 'C', 'G/B', 'Am7', 'D7'],
  },
  {
    name: 'acoustic-chords-eb-capo-3',
    seed: 112,
    guitar: 'acoustic',
    tuning: 'standard',
    capo: 3,
    key: 'Eb major',
    bpm: 96,
    seconds: 15,
    mix: { chord: 1 },
    progression: ['Eb', 'Cm', 'Ab', 'Bb', 'Fm', 'Bb7'],
  },
  {
    name: 'electric-chords-f-sharp-minor',
    seed: 113,
    guitar: 'electric',
    tuning: 'standard',
    capo: 0,
    key: 'F# minor',
    bpm: 110,
    seconds: 15,
    mix: { chord: 3, slide: 1, bend: 1 },
    progression: ['F#m', 'D', 'A', 'E', 'Bm', 'C#m'],
    drive: 1.8,
  },
  {
    name: 'classical-chords-a-minor',
    seed: 114,
    guitar: 'classical',
    tuning: 'standard',
    capo: 0,
    key: 'A minor',
    bpm: 80,
    seconds: 15,
    mix: { chord: 3, vibrato: 1, hammer: 1, pull: 1 },
    progression: ['Am', 'Dm', 'E7', 'Am', 'C', 'G7', 'Fmaj7', 'E'],
  },
  {
    name: 'electric-mixed-a-minor',
    seed: 115,
    guitar: 'electric',
    tuning: 'standard',
    capo: 0,
    key: 'A minor',
    bpm: 100,
    seconds: 15,
    mix: { bend: 2, vibrato: 2, slide: 2, hammer: 2, pull: 2, mute: 3, chord: 1 },
    progression: ['Am7', 'Dm7', 'Em7', 'Am'],
  },
  {
    name: 'acoustic-mixed-drop-d-capo-2',
    seed: 116,
    guitar: 'acoustic',
    tuning: 'drop-d',
    capo: 2,
    key: 'E major',
    bpm: 96,
    seconds: 15,
    mix: { bend: 1, vibrato: 2, slide: 2, hammer: 2, pull: 2, mute: 3, chord: 1 },
    progression: ['E', 'A', 'B', 'C#m'],
  },
];

/** Noise floor of the rendered clips, 55 dB under the peak. */
const NOISE_FLOOR = 10 ** (-55 / 20);
const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];

/** A true strummed note (pitch, string and fret) for strum note recall. */
export type StrumNote = ReturnType<Performance['strumTruth']>[number];

/** A corpus item's answers and settings, without its audio. */
export type CorpusTruth = Omit<CorpusItem, 'audio'> & { seconds: number };

/** What a seeded phrase recipe needs, whatever renders it (string model or SoundFont). */
export interface PhraseRecipe<K extends string> {
  name: string;
  seed: number;
  guitar: GuitarType;
  tuning: TuningPresetId;
  capo: number;
  key: string;
  bpm: number;
  seconds: number;
  mix: Partial<Record<K, number>>;
  progression?: readonly string[];
}

/**
 * Plays a recipe: seeded phrase writers chosen by the recipe's weights fill the clip, from a hand
 * position near the key's tonic. Returns the performance (for rendering), its answers and the
 * generator (rendering goes on drawing from it). `extra` sets the strum spread and chord voicings.
 */
export function performRecipe<K extends string>(
  recipe: PhraseRecipe<K>,
  phrases: Record<K, PhraseWriter>,
  extra:
    | Pick<PhraseContext, 'spread' | 'voicing'>
    | ((perf: Performance) => Pick<PhraseContext, 'spread' | 'voicing'>) = {},
): {
  truth: CorpusTruth;
  perf: Performance;
  random: () => number;
} {
  const random = seededRandom(recipe.seed);
  const preset = TUNING_PRESETS.find((t) => t.id === recipe.tuning);
  if (preset === undefined) throw new Error(`unknown tuning ${recipe.tuning}`);
  const perf = new Performance(preset.pitches, recipe.capo, random);
  const [tonicName = 'C', mode = 'major'] = recipe.key.split(' ');
  const tonic = parseChord(tonicName).root;
  const scale = (mode === 'minor' ? MINOR : MAJOR).map((i) => (tonic + i) % 12);
  // Hand positions: the tonic on the sixth string and the boxes a fourth and a fifth above it.
  const rootFret = (((tonic - preset.pitches[0] - recipe.capo) % 12) + 12) % 12;
  const positions = [rootFret, rootFret + 5, rootFret + 7, rootFret + 12].filter(
    (p) => p >= 0 && p <= 14,
  );
  const context: PhraseContext = {
    perf,
    random,
    scale,
    positions,
    progression: recipe.progression ?? [],
    guitar: recipe.guitar,
    beat: 60 / recipe.bpm,
    chordIndex: 0,
    position: positions[0] ?? 0,
    deadline: recipe.seconds - 0.4,
    ...(typeof extra === 'function' ? extra(perf) : extra),
  };
  const kinds = Object.entries(recipe.mix) as [K, number][];
  const first = kinds[0];
  if (first === undefined) throw new Error(`recipe ${recipe.name} has no phrase kinds`);
  const total = kinds.reduce((s, [, w]) => s + w, 0);
  let t = 0.3;
  let played = 0;
  while (t < recipe.seconds - 2.2) {
    if (random() < 0.25) context.position = positions[Math.floor(random() * positions.length)] ?? 0;
    let u = random() * total;
    let kind: K = first[0];
    for (const [k, w] of kinds) {
      u -= w;
      if (u < 0) {
        kind = k;
        break;
      }
    }
    t = phrases[kind](context, t);
    played += 1;
  }
  const config: UploadConfig = {
    ...defaultUploadConfig(recipe.guitar),
    capo: recipe.capo,
    tuning: preset.pitches,
    tuning_name: preset.name,
  };
  const truth: CorpusTruth = {
    name: recipe.name,
    config,
    notes: perf.truth(),
    chords: perf.chords.map((c) => ({ ...c })),
    key: recipe.key,
    openStrumNotes: perf.strumTruth(true),
    bpm: recipe.bpm,
    phrases: played,
    seconds: perf.end + 0.4,
  };
  return { truth, perf, random };
}

function perform(recipe: Recipe) {
  return performRecipe(recipe, PHRASES);
}

/** Renders any string-model recipe (the corpus's own, or generated ones for training material). */
export function build(recipe: Recipe): CorpusItem {
  const { truth, perf, random } = perform(recipe);
  const { seconds, ...rest } = truth;
  const instrument = {
    kind: recipe.guitar,
    timbre: TIMBRES[recipe.guitar],
    noise: NOISE_FLOOR,
    ...(recipe.drive === undefined ? {} : { drive: recipe.drive }),
  };
  return { ...rest, audio: renderPerformance(perf, instrument, seconds, random) };
}

/** The corpus's answers without rendering any audio (fast; the same answers as buildCorpus). */
export function buildCorpusTruth(): CorpusTruth[] {
  return RECIPES.map((r) => perform(r).truth);
}

/**
 * Renders the whole corpus (deterministic: the same samples on every run). Takes a few seconds.
 */
export function buildCorpus(): CorpusItem[] {
  return RECIPES.map(build);
}

/** Names of the corpus items, without rendering. */
export const CORPUS_ITEM_NAMES: readonly string[] = RECIPES.map((r) => r.name);

/** Renders one item by name (for listening or debugging one clip). */
export function buildCorpusItem(name: string, seedOffset = 0): CorpusItem {
  const recipe = RECIPES.find((r) => r.name === name);
  if (recipe === undefined) throw new Error(`no corpus item named ${name}`);
  // Another seed plays the same recipe with other notes (training material apart from the eval).
  return build(reseeded(recipe, seedOffset, `t${String(seedOffset)}`));
}
