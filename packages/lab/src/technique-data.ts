import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { NoteEvent, UploadConfig } from '@riffscribe/core';
import { guitarSetup } from '@riffscribe/engine';
import {
  analyseAttacks,
  GATE_FEATURES,
  gateFeatures,
  lessonNotes,
  markOccurrences,
  type MarkOccurrence,
} from '@riffscribe/engine/stages';
import { buildCorpusItem, CORPUS_ITEM_NAMES } from './corpus/corpus.js';
import { carriesMark, matchNotes } from './corpus/technique-metrics.js';
import { SOUNDFONT_CACHE } from './dev-clips.js';
import { cachedModelOutput } from './model-cache.js';
import { reseeded } from './seeds.js';
import { MATERIAL_SOUNDFONTS } from './soundfont/banks.js';
import { ensureFluidSynth, renderSoundfontItem } from './soundfont/render.js';
import { soundfontRecipes, soundfontScore } from './soundfont/recipes.js';

/**
 * Training data for the technique gate (issue 39, techniques/gate.ts): every technique mark the
 * rules write on the corpus's clips, what the gate reads about it (gateFeatures) and whether it
 * is right (the true note matched to it, by onset within 50 ms and pitch, carries the same
 * technique on the same side).
 *
 * Made from the string-model recipes and the SoundFont **tuned** recipes played with other seeds
 * (k = 4..3+N: never a seed `npm run eval` scores, even with `--scale 3`, and never the held
 * part), the SoundFont ones by other General MIDI banks than the evaluation's FluidR3_GM, in turn
 * (soundfont/banks.ts; `--banks eval` plays them with FluidR3_GM instead): both SoundFont parts
 * of `npm run eval` are then a synthesizer the gate never heard, the nearest this machine has to
 * measuring it on a guitar it was not trained on. With the default 12 seed sets: 456 clips.
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/technique-data.js [--seeds 12]
 *     [--banks other|eval] [--out DIR]
 */
const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '12' },
    banks: { type: 'string', default: 'other' },
    out: { type: 'string', default: 'packages/lab/eval-cache/technique-data' },
  },
});
const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });

interface Row {
  clip: string;
  source: 'string-model' | 'soundfont';
  technique: MarkOccurrence['technique'];
  x: number[];
  y: number;
}

async function rowsOf(
  name: string,
  source: Row['source'],
  audio: Float32Array,
  config: UploadConfig,
  truth: readonly NoteEvent[],
): Promise<Row[]> {
  const setup = guitarSetup(config);
  const output = await cachedModelOutput(audio);
  const { notes } = await lessonNotes(output, audio, config, { gateThreshold: 0 });
  const marks = markOccurrences(notes);
  const width = GATE_FEATURES.length;
  const x = gateFeatures(notes, marks, analyseAttacks(audio), setup);
  const matched = new Map(matchNotes(truth, notes, setup).map(([i, j]) => [j, i]));
  return marks.map((mark, k) => {
    const i = matched.get(mark.index);
    const t = i === undefined ? undefined : truth[i];
    return {
      clip: name,
      source,
      technique: mark.technique,
      x: Array.from(x.subarray(k * width, (k + 1) * width), (v) => Math.round(v * 1e4) / 1e4),
      y: t !== undefined && carriesMark(t, mark.technique, mark.side) ? 1 : 0,
    };
  });
}

const rows: Row[] = [];
let clips = 0;
let phrases = 0;
const seeds = Math.max(1, Number(values.seeds));
for (let k = 4; k < 4 + seeds; k += 1) {
  for (const name of CORPUS_ITEM_NAMES) {
    const item = buildCorpusItem(name, k);
    rows.push(...(await rowsOf(item.name, 'string-model', item.audio, item.config, item.notes)));
    clips += 1;
    phrases += item.phrases ?? 0;
  }
}
const setup = await ensureFluidSynth((line) => process.stderr.write(`${line}\n`));
const banks = values.banks === 'eval' ? [setup.soundfont] : MATERIAL_SOUNDFONTS;
for (let k = 4; k < 4 + seeds; k += 1) {
  for (const [i, recipe] of soundfontRecipes('tuned').entries()) {
    const r = reseeded(recipe, k, `t${String(k)}`);
    const score = soundfontScore(r);
    const soundfont = banks[(k + i) % banks.length] ?? setup.soundfont;
    const { audio } = await renderSoundfontItem(score, { ...setup, soundfont }, SOUNDFONT_CACHE);
    rows.push(...(await rowsOf(r.name, 'soundfont', audio, score.truth.config, score.truth.notes)));
    clips += 1;
    phrases += score.truth.phrases ?? 0;
  }
  process.stderr.write(
    `seed set ${String(k)}: ${String(clips)} clips, ${String(rows.length)} marks\n`,
  );
}
writeFileSync(path.join(out, 'marks.json'), JSON.stringify({ features: GATE_FEATURES, rows }));
const right = rows.filter((r) => r.y === 1).length;
console.log(
  `${String(clips)} clips (${String(phrases)} phrases), ${String(rows.length)} marks, ${String(right)} right (${(right / rows.length).toFixed(3)}); written to ${path.join(out, 'marks.json')}`,
);
