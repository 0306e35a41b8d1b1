import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCorpusItem, CORPUS_ITEM_NAMES, type CorpusItem } from './corpus/corpus.js';
import { rhythmScore, type RhythmTruth } from './rhythm/pieces.js';
import { rhythmRecipes } from './rhythm/recipes.js';
import { soundfontRecipes, soundfontScore } from './soundfont/recipes.js';
import { ensureFluidSynth, renderSoundfontItem } from './soundfont/render.js';

/**
 * The clips the development measurements (strum-dev, techniques-dev, beats-dev, chords-dev) may
 * look at: the string-model corpus, the SoundFont tuned part and the rhythm tuned part, never a
 * held part. Renders share `npm run eval`'s caches.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository's root (same depth from src/ and dist/). */
export const REPO_ROOT = path.resolve(here, '../../..');
/** Where `npm run eval` keeps its SoundFont renders (gitignored). */
export const SOUNDFONT_CACHE = path.join(REPO_ROOT, 'packages/lab/eval-cache/soundfont');
/** Where `npm run eval` keeps its rhythm corpus renders (gitignored). */
export const RHYTHM_CACHE = path.join(REPO_ROOT, 'packages/lab/eval-cache/rhythm');

/** The string-model corpus's items whose names `keep` accepts. */
export function stringModelClips(keep: (name: string) => boolean = () => true): CorpusItem[] {
  return CORPUS_ITEM_NAMES.filter(keep).map((name) => buildCorpusItem(name));
}

/** The SoundFont tuned part's items whose names `keep` accepts, rendered (or from the cache). */
export async function soundfontTunedClips(
  keep: (name: string) => boolean = () => true,
): Promise<CorpusItem[]> {
  const setup = await ensureFluidSynth((line) => process.stderr.write(`${line}\n`));
  const out: CorpusItem[] = [];
  for (const recipe of soundfontRecipes('tuned').filter((r) => keep(r.name))) {
    const score = soundfontScore(recipe);
    const { audio } = await renderSoundfontItem(score, setup, SOUNDFONT_CACHE);
    out.push({ ...score.truth, audio });
  }
  return out;
}

/** The rhythm tuned part's pieces whose names `keep` accepts, rendered (or from the cache). */
export async function rhythmTunedClips(
  keep: (name: string) => boolean = () => true,
): Promise<(RhythmTruth & { audio: Float32Array })[]> {
  const setup = await ensureFluidSynth((line) => process.stderr.write(`${line}\n`));
  const out: (RhythmTruth & { audio: Float32Array })[] = [];
  for (const recipe of rhythmRecipes('tuned').filter((r) => keep(r.name))) {
    const score = rhythmScore(recipe);
    const { audio } = await renderSoundfontItem(score, setup, RHYTHM_CACHE);
    out.push({ ...score.truth, audio });
  }
  return out;
}
