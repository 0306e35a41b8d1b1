import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { NoteEvent } from '@riffscribe/core';
import { guitarSetup } from '@riffscribe/engine';
import { lessonNotes, openPitch, strikeInputs, STRIKE_FEATURES } from '@riffscribe/engine/stages';
import { buildCorpusItem, CORPUS_ITEM_NAMES } from './corpus/corpus.js';
import { SOUNDFONT_CACHE } from './dev-clips.js';
import { cachedModelOutput } from './model-cache.js';
import { reseeded } from './seeds.js';
import { ensureFluidSynth, renderSoundfontItem } from './soundfont/render.js';
import { soundfontRecipes, soundfontScore } from './soundfont/recipes.js';

/**
 * Training data for the learned strike model (issue 39 item 2): for every note of the tab stage,
 * the strike decision's inputs (techniques/chains.ts strikeFeatures), the rule's answer, and the
 * truth: 1 when a true note was picked at its start (onset within 50 ms, pitch within a
 * semitone, no slur or slide leading into it), 0 when the true note there was slurred or slid
 * into, or when no true note starts there at all (a vibrato's swell, a flicker).
 *
 * Made from the string-model recipes and the SoundFont **tuned** recipes played with other seeds
 * (k = 4..3+N: never the seeds `npm run eval` scores, even with `--scale 3`, never the held
 * part), so that the eval's figures are not the training data.
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/strike-data.js [--seeds 6] [--out DIR]
 */
const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '6' },
    out: { type: 'string', default: 'packages/lab/eval-cache/strike-data' },
  },
});
const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });

interface Row {
  clip: string;
  source: 'string-model' | 'soundfont';
  x: number[];
  rule: number;
  y: number;
}

async function rowsOf(
  name: string,
  source: Row['source'],
  audio: Float32Array,
  config: Parameters<typeof lessonNotes>[2],
  truth: readonly NoteEvent[],
): Promise<Row[]> {
  const setup = guitarSetup(config);
  const output = await cachedModelOutput(audio);
  const { tab } = await lessonNotes(output, audio, config);
  const { sorted, features, struck } = strikeInputs(tab, audio, true);
  const truePitch = (n: NoteEvent) => openPitch(setup, n.string) + n.fret;
  return sorted.map((n, i) => {
    const match = truth.find(
      (t) => !t.mute && Math.abs(t.time - n.time) <= 0.05 && Math.abs(truePitch(t) - n.pitch) <= 1,
    );
    const picked =
      match !== undefined &&
      !match.leading_hammer_on &&
      !match.leading_pull_off &&
      !match.leading_slide;
    return { clip: name, source, x: features[i] ?? [], rule: struck[i] ? 1 : 0, y: picked ? 1 : 0 };
  });
}

const rows: Row[] = [];
const seeds = Math.max(1, Number(values.seeds));
for (let k = 4; k < 4 + seeds; k += 1) {
  for (const name of CORPUS_ITEM_NAMES) {
    const item = buildCorpusItem(name, k);
    rows.push(...(await rowsOf(item.name, 'string-model', item.audio, item.config, item.notes)));
  }
}
const setup = await ensureFluidSynth((line) => process.stderr.write(`${line}\n`));
for (let k = 4; k < 4 + seeds; k += 1) {
  for (const recipe of soundfontRecipes('tuned')) {
    const r = reseeded(recipe, k, `t${String(k)}`);
    const score = soundfontScore(r);
    const { audio } = await renderSoundfontItem(score, setup, SOUNDFONT_CACHE);
    rows.push(...(await rowsOf(r.name, 'soundfont', audio, score.truth.config, score.truth.notes)));
  }
  process.stderr.write(`seed set ${String(k)}: ${String(rows.length)} notes so far\n`);
}
writeFileSync(path.join(out, 'strike.json'), JSON.stringify({ features: STRIKE_FEATURES, rows }));
const agree = rows.filter((r) => r.rule === r.y).length;
console.log(
  `${String(rows.length)} notes (${String(rows.filter((r) => r.y === 1).length)} picked); the rule agrees on ${String(agree)} (${(agree / rows.length).toFixed(3)}); written to ${path.join(out, 'strike.json')}`,
);
