import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { GM_GUITAR_PROGRAM, type NoteEvent, type TuningPresetId } from '@riffscribe/core';
import { decodeAudio } from '@riffscribe/engine';
import {
  activationRows,
  CONTOUR_BINS,
  type ModelOutput,
  NOTE_BINS,
  openPitch,
  type Random,
  seededRandom,
  SHARP_NAMES,
} from '@riffscribe/engine/stages';
import { build, CORPUS_ITEM_NAMES, buildCorpusItem, type Recipe } from './corpus/corpus.js';
import { MATERIAL_SOUNDFONTS } from './soundfont/banks.js';
import type { PhraseKind } from './corpus/phrases.js';
import { discoverDatasets, findDatasetsRoot, readTabJson } from './datasets.js';
import { cachedModelOutput } from './model-cache.js';
import type { IdiomKind } from './soundfont/idioms.js';
import {
  guitarOfProgram,
  soundfontRecipes,
  soundfontScore,
  type Effects,
  type SoundfontRecipe,
} from './soundfont/recipes.js';
import { ensureFluidSynth, renderSoundfontItem } from './soundfont/render.js';

/**
 * Training material for the note refiner (training/notes/): clips written by the corpora's own
 * seeded phrase writers from generated recipes, rendered by both synthesizers (the string model
 * and FluidSynth with the General MIDI guitars, a room, noise and a codec), with Basic Pitch's
 * outputs and the exact notes. Seeds start at 900000, far from every recipe of the tuned and held
 * parts (5101.., 7301.., 101..), and the recipes are drawn at random, never copied from the held
 * part. `--tuned` writes the tuned parts' own clips instead (for validation while training).
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/material.js --out DIR
 *     [--sf N] [--sm N] [--seed S] [--tuned]
 *
 * Per clip: NAME.f32 (frames x 440 float32: 88 note, 88 onset, 264 contour bins, as the model
 * gives them) and NAME.json (the notes: onset and end in seconds, MIDI pitch, string, fret and
 * flags; dead notes have no pitch in the answers and are listed with `mute`).
 */

export { MATERIAL_SOUNDFONTS };

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const SF_CACHE = path.join(repoRoot, 'packages/lab/eval-cache/material');

const TUNINGS: TuningPresetId[] = [
  'standard',
  'standard',
  'standard',
  'half-down',
  'drop-d',
  'open-g',
  'dadgad',
  'open-d',
  'open-e',
];
const MAJOR_DEGREES: [number, string][] = [
  [0, ''],
  [2, 'm'],
  [4, 'm'],
  [5, ''],
  [7, ''],
  [9, 'm'],
  [7, '7'],
];
const MINOR_DEGREES: [number, string][] = [
  [0, 'm'],
  [5, 'm'],
  [7, 'm'],
  [7, ''],
  [3, ''],
  [8, ''],
  [10, ''],
];

const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

function key(r: Random): { name: string; tonic: number; minor: boolean } {
  const tonic = Math.floor(r() * 12);
  const minor = r() < 0.45;
  return { name: `${SHARP_NAMES[tonic]} ${minor ? 'minor' : 'major'}`, tonic, minor };
}

function progression(r: Random, k: { tonic: number; minor: boolean }): string[] {
  const degrees = k.minor ? MINOR_DEGREES : MAJOR_DEGREES;
  const out: string[] = [];
  const n = 3 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const [step, quality] = (i === 0 ? degrees[0] : undefined) ?? pick(r, degrees);
    out.push(`${SHARP_NAMES[(k.tonic + step) % 12]}${quality}`);
  }
  return out;
}

function mix<K extends string>(r: Random, kinds: readonly K[]): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  const count = 2 + Math.floor(r() * 3);
  for (let i = 0; i < count; i++) out[pick(r, kinds)] = 0.5 + Math.floor(r() * 6) / 2;
  return out;
}

function effects(r: Random): Effects {
  return {
    room: pick(r, ['dry', 'room', 'room', 'hall'] as const),
    noiseDb: r() < 0.2 ? null : -52 + Math.floor(r() * 14),
    codec: pick(r, ['none', 'opus', 'aac'] as const),
    phone: r() < 0.3,
  };
}

const PHRASE_KINDS: readonly PhraseKind[] = [
  'pick',
  'bend',
  'vibrato',
  'hammer',
  'pull',
  'slide',
  'mute',
  'chord',
];
/** The SoundFont idioms: every phrase kind, chords twice as often, and the idioms of its own. */
const IDIOM_KINDS: readonly IdiomKind[] = [
  ...PHRASE_KINDS,
  'chord',
  'power',
  'box',
  'doubleStop',
  'arpeggio',
  'openRiff',
];

/** A generated SoundFont recipe (seeded: the same seed gives the same recipe). */
export function soundfontMaterialRecipe(seed: number): SoundfontRecipe {
  const r = seededRandom(seed * 7919 + 13);
  const program = 24 + Math.floor(r() * 7);
  const tuning = pick(r, TUNINGS);
  const capo =
    tuning.startsWith('open') || tuning === 'dadgad' ? 0 : pick(r, [0, 0, 0, 1, 2, 3, 4, 5]);
  const k = key(r);
  return {
    name: `mat-sf-${seed}`,
    seed,
    part: 'tuned',
    program,
    guitar: guitarOfProgram(program),
    tuning,
    capo,
    key: k.name,
    bpm: 70 + Math.floor(r() * 80),
    seconds: 12,
    mix: mix(r, IDIOM_KINDS),
    progression: progression(r, k),
    effects: effects(r),
  };
}

/** A generated string-model recipe. */
export function stringMaterialRecipe(seed: number): Recipe {
  const r = seededRandom(seed * 104729 + 7);
  const guitar = pick(r, ['acoustic', 'classical', 'electric'] as const);
  const tuning = pick(r, TUNINGS);
  const capo = tuning.startsWith('open') || tuning === 'dadgad' ? 0 : pick(r, [0, 0, 0, 2, 3, 5]);
  const k = key(r);
  return {
    name: `mat-sm-${seed}`,
    seed,
    guitar,
    tuning,
    capo,
    key: k.name,
    bpm: 70 + Math.floor(r() * 80),
    seconds: 12,
    mix: mix(r, PHRASE_KINDS),
    progression: progression(r, k),
    ...(guitar === 'electric' && r() < 0.5 ? { drive: 1 + r() * 3 } : {}),
  };
}

function truthJson(
  name: string,
  corpus: string,
  program: number,
  notes: readonly NoteEvent[],
  config: { tuning: readonly number[]; capo: number },
) {
  return {
    name,
    corpus,
    program,
    notes: notes.map((n) => ({
      time: n.time,
      end: n.end_time,
      pitch: openPitch(config, n.string) + n.fret,
      string: n.string,
      fret: n.fret,
      mute: n.mute,
      // Arrives without a pick attack of its own (hammer-on, pull-off or slide arrival).
      legato: n.leading_hammer_on || n.leading_pull_off || n.leading_slide,
      bend: n.bend_to_fret !== null,
    })),
  };
}

/** Values per frame in a NAME.f32 file: note, onset and contour bins (data.py ROW). */
const ROW = 2 * NOTE_BINS + CONTOUR_BINS;

async function dump(out: string, name: string, output: ModelOutput, truth: object) {
  const n = output.frames.length;
  const all = new Float32Array(n * ROW);
  activationRows(output.frames).forEach((row, i) => {
    all.set(row, i * ROW);
  });
  activationRows(output.onsets).forEach((row, i) => {
    all.set(row, i * ROW + NOTE_BINS);
  });
  for (let i = 0; i < n; i++) all.set(output.contours.at(i) ?? [], i * ROW + 2 * NOTE_BINS);
  await writeFile(path.join(out, `${name}.f32`), new Uint8Array(all.buffer));
  await writeFile(path.join(out, `${name}.json`), JSON.stringify({ ...truth, frames: n }));
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      sf: { type: 'string', default: '0' },
      sm: { type: 'string', default: '0' },
      seed: { type: 'string', default: '900000' },
      tuned: { type: 'boolean', default: false },
      real: { type: 'boolean', default: false },
    },
  });
  if (values.out === undefined) throw new Error('--out DIR is required');
  const out = values.out;
  await mkdir(out, { recursive: true });
  if (values.real) {
    // The real excerpts, for checking only: never train on them.
    for (const item of await discoverDatasets(findDatasetsRoot(repoRoot))) {
      const output = await cachedModelOutput(await decodeAudio(item.audio));
      const notes = (await readTabJson(item.tab)).map((n) => ({ ...n, end: n.endTime }));
      const name = item.name.replace(/[^A-Za-z0-9_-]/g, '_');
      await dump(out, name, output, { name, corpus: 'real', program: 25, notes });
    }
    return;
  }
  const setup = await ensureFluidSynth((line) => {
    console.log(line);
  });
  const sfRecipes: SoundfontRecipe[] = [];
  const smRecipes: Recipe[] = [];
  const seed0 = Number(values.seed);
  if (values.tuned) {
    sfRecipes.push(...soundfontRecipes('tuned'));
  } else {
    for (let i = 0; i < Number(values.sf); i++) sfRecipes.push(soundfontMaterialRecipe(seed0 + i));
    for (let i = 0; i < Number(values.sm); i++) smRecipes.push(stringMaterialRecipe(seed0 + i));
  }
  let done = 0;
  for (const recipe of sfRecipes) {
    const score = soundfontScore(recipe);
    const soundfont = values.tuned
      ? setup.soundfont
      : (MATERIAL_SOUNDFONTS[recipe.seed % MATERIAL_SOUNDFONTS.length] ?? setup.soundfont);
    if (!existsSync(soundfont))
      throw new Error(
        `${soundfont} is missing: apt-get install -y timgm6mb-soundfont csound-soundfont musescore-general-soundfont-small`,
      );
    const { audio } = await renderSoundfontItem(score, { ...setup, soundfont }, SF_CACHE);
    const output = await cachedModelOutput(audio);
    const cfg = score.truth.config;
    await dump(
      out,
      recipe.name,
      output,
      truthJson(recipe.name, 'sf', recipe.program, score.truth.notes, cfg),
    );
    if (++done % 20 === 0) console.log(`${done} clips`);
  }
  const items = values.tuned
    ? CORPUS_ITEM_NAMES.map((name) => buildCorpusItem(name))
    : smRecipes.map((r) => build(r));
  for (const item of items) {
    const output = await cachedModelOutput(item.audio);
    const program = GM_GUITAR_PROGRAM[item.config.guitar_type];
    await dump(
      out,
      item.name,
      output,
      truthJson(item.name, 'sm', program, item.notes, item.config),
    );
    if (++done % 20 === 0) console.log(`${done} clips`);
  }
  console.log(`wrote ${done} clips to ${out}`);
}

await main();
