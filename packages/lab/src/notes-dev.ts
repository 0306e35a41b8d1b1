import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TUNING } from '@riffscribe/core';
import { decodeAudio, fixtureFile } from '@riffscribe/engine';
import {
  ALL_RULES,
  defaultNoteOptions,
  extractNotes,
  FRAME_RATE,
  loadModel,
  type ModelOutput,
  type NoteOptions,
  type NoteRuleSwitches,
  refineOutput,
  runModel,
} from '@riffscribe/engine/stages';
import { cachedModelOutput } from './model-cache.js';
import { scoreNotes, type TimedNote } from './notes-metrics.js';
import { stockNotes } from './notes-stock.js';
import { syntheticItems } from './notes-synth.js';

/**
 * Development measurement of note extraction (the full evaluation runner is run.ts).
 *
 *   npx tsc -b packages/lab
 *   node packages/lab/dist/notes-dev.js              real excerpts: stock vs ours
 *   node packages/lab/dist/notes-dev.js --synthetic  also the rendered material
 *   node packages/lab/dist/notes-dev.js --ablation   each rule switched off in turn
 *   node packages/lab/dist/notes-dev.js --verbose    list our errors on the real excerpts
 *   node packages/lab/dist/notes-dev.js --speed      model and extraction time, 30 s clip
 *
 * Scores: note precision/recall/F1 with onset within 50 ms and exact MIDI pitch, one-to-one
 * matching (mir_eval style), and F1 with offsets (within 20% of the note or 50 ms). "stock" is
 * Basic Pitch's published post-processing at the same thresholds (notes-stock.ts), "ours" is
 * notes/extract.ts. The rules were chosen on the rendered material (notes-synth.ts) and then
 * checked on the real excerpts. Model outputs are cached under the OS temp directory
 * (model-cache.ts).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');

export interface Item {
  name: string;
  audio: string;
  reference: TimedNote[];
}

interface TabJsonNote {
  time: number;
  end_time: number;
  midi: number;
}

/** The real excerpts with their tab.json ground truth. */
export async function realItems(): Promise<Item[]> {
  const items: [string, string, string][] = [
    [
      'guitarset comp',
      'guitarset/00_BN1-129-Eb_comp_mic.wav',
      'guitarset/00_BN1-129-Eb_comp.tab.json',
    ],
    ['egset12 01', 'egset12/01.wav', 'egset12/01.tab.json'],
  ];
  const out: Item[] = [];
  for (const [name, wav, tab] of items) {
    const notes = JSON.parse(await readFile(fixtureFile(repoRoot, tab), 'utf8')) as TabJsonNote[];
    out.push({
      name,
      audio: fixtureFile(repoRoot, wav),
      reference: notes.map((n) => ({ time: n.time, endTime: n.end_time, pitch: n.midi })),
    });
  }
  return out;
}

/**
 * Model output for a file, cached by the hash of its decoded samples (model-cache.ts), with the
 * note refiner's activations as the pipeline uses them (notes/refine.ts).
 */
export async function modelOutputFor(file: string): Promise<ModelOutput> {
  return (await refineOutput(await cachedModelOutput(await decodeAudio(file)))).output;
}

function ours(
  output: ModelOutput,
  options: NoteOptions,
  rules: NoteRuleSwitches = ALL_RULES,
): TimedNote[] {
  return extractNotes(output, options, rules).map((n) => ({
    time: n.time,
    endTime: n.endTime,
    pitch: n.pitch,
  }));
}

function stock(output: ModelOutput, options: NoteOptions): TimedNote[] {
  return stockNotes(output, options).map((n) => ({
    time: n.startFrame / FRAME_RATE,
    endTime: n.endFrame / FRAME_RATE,
    pitch: n.pitch,
  }));
}

interface Tally {
  matched: number;
  matchedOffsets: number;
  reference: number;
  estimated: number;
}

function tally(reference: TimedNote[], estimate: TimedNote[]): Tally {
  return {
    matched: scoreNotes(reference, estimate).matched,
    matchedOffsets: scoreNotes(reference, estimate, { withOffsets: true }).matched,
    reference: reference.length,
    estimated: estimate.length,
  };
}

function add(a: Tally, b: Tally): Tally {
  return {
    matched: a.matched + b.matched,
    matchedOffsets: a.matchedOffsets + b.matchedOffsets,
    reference: a.reference + b.reference,
    estimated: a.estimated + b.estimated,
  };
}

const EMPTY: Tally = { matched: 0, matchedOffsets: 0, reference: 0, estimated: 0 };
const f = (x: number) => x.toFixed(3);

function line(label: string, t: Tally): string {
  const p = t.matched / Math.max(1, t.estimated);
  const r = t.matched / Math.max(1, t.reference);
  const f1 = (2 * t.matched) / Math.max(1, t.estimated + t.reference);
  const f1o = (2 * t.matchedOffsets) / Math.max(1, t.estimated + t.reference);
  return `${label.padEnd(34)} P ${f(p)}  R ${f(r)}  F1 ${f(f1)}  F1 with offsets ${f(f1o)}  (${t.estimated} notes, ${t.reference} reference)`;
}

/** Lists unmatched notes with what was near them, to see which rule would fix which error. */
function explain(reference: TimedNote[], estimate: TimedNote[]): void {
  const s = scoreNotes(reference, estimate);
  const refMatched = new Set(s.pairs.map(([i]) => i));
  const estMatched = new Set(s.pairs.map(([, j]) => j));
  const diffs = s.pairs
    .map(([i, j]) => (estimate[j]?.time ?? 0) - (reference[i]?.time ?? 0))
    .sort((a, b) => a - b);
  console.log(
    `  matched onsets: median (estimate - reference) ${((diffs[diffs.length >> 1] ?? 0) * 1000).toFixed(1)} ms`,
  );
  const near = (t: number, list: TimedNote[]) =>
    list
      .filter((n) => Math.abs(n.time - t) < 0.1)
      .map((n) => `${n.pitch}@${n.time.toFixed(3)}`)
      .join(' ');
  reference.forEach((r, i) => {
    if (!refMatched.has(i))
      console.log(
        `  missed ${r.pitch}@${r.time.toFixed(3)}   detected near: ${near(r.time, estimate)}`,
      );
  });
  estimate.forEach((e, j) => {
    if (!estMatched.has(j))
      console.log(
        `  extra  ${e.pitch}@${e.time.toFixed(3)}   reference near: ${near(e.time, reference)}`,
      );
  });
}

const ABLATIONS: [string, Partial<NoteRuleSwitches>][] = [
  ['ours (all rules)', {}],
  ['  without weak onsets', { weakOnsets: false }],
  ['  without inferred onsets', { inferOnsets: false }],
  ['  without amplitude threshold', { amplitude: false }],
  ['  without ghost removal', { ghosts: false }],
  ['  unattacked notes: keep all', { unattacked: 'all' }],
  ['  unattacked notes: drop all', { unattacked: 'none' }],
  ['  without polyphony limit', { polyphony: false }],
  ['  without strum recovery', { strums: false }],
];

/**
 * Wall time of decoding, model loading, the model (cold and warm) and note extraction on a 30 s
 * clip (the comp excerpt looped), and the process's peak RSS. Run it in a fresh process: the
 * model must not be loaded yet.
 */
async function speed(): Promise<void> {
  const ms = (from: number) => `${(performance.now() - from).toFixed(0)} ms`;
  const file = fixtureFile(repoRoot, 'guitarset/00_BN1-129-Eb_comp_mic.wav');
  let t = performance.now();
  const excerpt = await decodeAudio(file);
  console.log(`decode ${(excerpt.length / 22050).toFixed(1)} s of audio: ${ms(t)}`);
  const clip = new Float32Array(30 * 22050);
  for (let i = 0; i < clip.length; i += excerpt.length)
    clip.set(excerpt.subarray(0, Math.min(excerpt.length, clip.length - i)), i);
  t = performance.now();
  await loadModel();
  console.log(`load backend and model: ${ms(t)}`);
  t = performance.now();
  await runModel(clip);
  console.log(`model, 30 s clip, first run: ${ms(t)}`);
  t = performance.now();
  const output = await runModel(clip);
  console.log(`model, 30 s clip, warm: ${ms(t)}`);
  t = performance.now();
  const notes = extractNotes(
    output,
    defaultNoteOptions({ tuning: DEFAULT_TUNING, capo: 0, frets: 22 }),
  );
  console.log(`note extraction (${notes.length} notes): ${ms(t)}`);
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  if (args.has('--speed')) {
    await speed();
    return;
  }
  const options = defaultNoteOptions({ tuning: DEFAULT_TUNING, capo: 0, frets: 22 });
  const sets: [string, Item[]][] = [];
  if (args.has('--synthetic') || args.has('--ablation'))
    sets.push(['rendered', await syntheticItems()]);
  sets.push(['real', await realItems()]);

  for (const [setName, items] of sets) {
    const outputs = await Promise.all(items.map((i) => modelOutputFor(i.audio)));
    console.log(`\n== ${setName} material`);
    let stockTotal = EMPTY;
    let oursTotal = EMPTY;
    items.forEach((item, k) => {
      const output = outputs[k];
      if (output === undefined) return;
      const s = tally(item.reference, stock(output, options));
      const o = tally(item.reference, ours(output, options));
      stockTotal = add(stockTotal, s);
      oursTotal = add(oursTotal, o);
      console.log(line(`${item.name}: stock`, s));
      console.log(line(`${item.name}: ours`, o));
      if (args.has('--verbose') && setName === 'real')
        explain(item.reference, ours(output, options));
    });
    if (items.length > 1) {
      console.log(line('all: stock', stockTotal));
      console.log(line('all: ours', oursTotal));
    }
    if (args.has('--ablation')) {
      for (const [label, partial] of ABLATIONS) {
        let t = EMPTY;
        items.forEach((item, k) => {
          const output = outputs[k];
          if (output !== undefined)
            t = add(t, tally(item.reference, ours(output, options, { ...ALL_RULES, ...partial })));
        });
        console.log(line(label, t));
      }
    }
  }
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  await main();
}
