import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultUploadConfig } from '@riffscribe/core';
import { decodeAudio } from '../adapters/media.js';
import { ENGINE_VERSION } from '../pipeline.js';
import { SAMPLE_RATE } from '../units.js';
import { buildCorpus, type CorpusItem } from './corpus/corpus.js';
import { techniqueScores } from './corpus/technique-metrics.js';
import { discoverDatasets, findDatasetsRoot, readJams, readTabJson } from './datasets.js';
import {
  evaluateClip,
  placedNotes,
  type ClipResult,
  type ClipTruth,
  type TechniqueScorer,
} from './evaluate.js';
import type { TechniqueCounts } from './metrics.js';
import {
  FOOTNOTES,
  chordDetailTable,
  reviewTable,
  clipTable,
  summarise,
  techniqueTable,
  type Summary,
} from './report.js';

/**
 * `npm run eval` (packages/engine): the whole engine on
 *  - the real annotated recordings in packages/engine/fixtures/datasets (or the collection
 *    RIFFSCRIBE_DATASETS names): .tab.json notes, JAMS chords and key;
 *  - the project's own rendered corpus (eval/corpus), whose answers include every technique;
 * and prints and writes as JSON (default packages/engine/eval-results/latest.json, --out FILE):
 * note precision/recall/F1, note F1 with offsets, tab F1, string/fret accuracy with the true
 * pitches, chord accuracy, key, and per-technique precision/recall/F1 on the corpus.
 *
 *   npm run eval -- [--out FILE] [--only real|corpus]
 *
 * Settings of the engine were chosen on general grounds and on constructed or rendered material;
 * the real recordings are measured here, never tuned against.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');

const log = (line = '') => {
  process.stdout.write(`${line}\n`);
};
const progress = (line: string) => {
  process.stderr.write(`${line}\n`);
};

async function datasetClips(root: string): Promise<ClipTruth[]> {
  const out: ClipTruth[] = [];
  for (const item of await discoverDatasets(root)) {
    const stem = path.basename(item.tab, '.tab.json');
    const jams = item.jams ? await readJams(item.jams, stem) : null;
    out.push({
      name: item.name,
      source: 'dataset',
      audio: await decodeAudio(item.audio),
      // The datasets are in standard tuning without a capo (their README).
      config: defaultUploadConfig(item.guitar),
      notes: await readTabJson(item.tab),
      noteEvents: null,
      chords: jams?.performedChords ?? null,
      leadSheetChords:
        jams?.leadSheetChords && jams.leadSheetChords !== jams.performedChords
          ? jams.leadSheetChords
          : null,
      key: jams?.key ?? null,
    });
  }
  return out;
}

function corpusClip(item: CorpusItem): ClipTruth {
  return {
    name: item.name,
    source: 'corpus',
    audio: item.audio,
    config: item.config,
    notes: placedNotes(item.notes, item.config),
    noteEvents: item.notes,
    chords: item.chords.length > 0 ? item.chords : null,
    leadSheetChords: null,
    key: item.key === '' ? null : item.key,
  };
}

async function runClips(
  clips: readonly ClipTruth[],
  techniqueScores: TechniqueScorer | null,
): Promise<{ results: ClipResult[]; errors: { name: string; error: string }[] }> {
  const results: ClipResult[] = [];
  const errors: { name: string; error: string }[] = [];
  for (const clip of clips) {
    progress(`  ${clip.name} (${(clip.audio.length / SAMPLE_RATE).toFixed(1)} s)`);
    try {
      const { result } = await evaluateClip(clip, techniqueScores, () => performance.now());
      results.push(result);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      errors.push({ name: clip.name, error: message });
      progress(`    failed: ${message}`);
    }
  }
  return { results, errors };
}

function printSummaryLine(label: string, s: Summary) {
  const chords = s.chordsPipeline ? s.chordsPipeline.accuracy.toFixed(3) : '-';
  const chordsTrue = s.chordsTrueNotes ? s.chordsTrueNotes.accuracy.toFixed(3) : '-';
  log(
    `${label}: note F1 ${s.note.f1.toFixed(3)}, note F1 with offsets ${s.noteWithOffsets.f1.toFixed(3)}, ` +
      `tab F1 ${s.tab.f1.toFixed(3)}, string/fret accuracy (true pitches) ${s.fingering.accuracy.toFixed(3)}, ` +
      `chord accuracy ${chords} (true notes ${chordsTrue}), key ${s.keysPipeline.correct}/${s.keysPipeline.judged} right ` +
      `(true notes ${s.keysTrueNotes.correct}/${s.keysTrueNotes.judged})`,
  );
}

async function main() {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, only: { type: 'string' } },
  });
  const only = values.only;
  if (only !== undefined && only !== 'real' && only !== 'corpus') {
    throw new Error('--only takes "real" or "corpus".');
  }
  const datasetsRoot = findDatasetsRoot(repoRoot);
  const out = path.resolve(
    values.out ?? path.join(repoRoot, 'packages/engine/eval-results/latest.json'),
  );
  const notices: string[] = [];

  log(`Riffscribe engine evaluation (engine ${ENGINE_VERSION})`);
  log();

  // Real recordings.
  let real: { results: ClipResult[]; errors: { name: string; error: string }[] } = {
    results: [],
    errors: [],
  };
  if (only !== 'corpus') {
    progress(`Real recordings from ${datasetsRoot}:`);
    const clips = await datasetClips(datasetsRoot);
    if (clips.length === 0) notices.push(`No annotated recordings found in ${datasetsRoot}.`);
    real = await runClips(clips, null);
    log(`Real recordings (${datasetsRoot})`);
    log(clipTable(real.results, 'all real recordings'));
    log();
  }

  // Own rendered corpus.
  let corpus: typeof real = { results: [], errors: [] };
  if (only !== 'real') {
    const items = buildCorpus();
    progress(`Own rendered corpus (${items.length} clips):`);
    corpus = await runClips(items.map(corpusClip), techniqueScores);
    log('Own rendered corpus (eval/corpus, exact answers)');
    log(clipTable(corpus.results, 'whole corpus'));
    log();
  }

  const all = [...real.results, ...corpus.results];
  if (all.some((r) => r.chords)) {
    log('Chord accuracy (time-weighted) by strictness');
    log(chordDetailTable(all));
    log();
  }
  const realSummary = real.results.length > 0 ? summarise(real.results) : null;
  const corpusSummary = corpus.results.length > 0 ? summarise(corpus.results) : null;
  const techniques: Record<string, TechniqueCounts> | null = corpusSummary?.techniques ?? null;
  if (techniques) {
    log('Per-technique scores on the own corpus (whole pipeline; counts summed over clips)');
    log(techniqueTable(techniques));
    log();
  }
  if (corpusSummary) {
    log('Review queue on the own corpus: doubtful notes as a detector of wrong notes');
    log(reviewTable(corpusSummary.review));
    log();
  }
  if (realSummary) {
    log('Review queue on the real recordings');
    log(reviewTable(realSummary.review));
    log();
  }
  if (realSummary) printSummaryLine('Real recordings', realSummary);
  if (corpusSummary) printSummaryLine('Own corpus', corpusSummary);
  for (const line of FOOTNOTES) log(line);
  for (const e of [...real.errors, ...corpus.errors]) notices.push(`${e.name} failed: ${e.error}`);
  for (const n of notices) log(`NOTE: ${n}`);

  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify(
      {
        generatedBy: 'npm run eval',
        engineVersion: ENGINE_VERSION,
        datasets: datasetsRoot,
        real: { summary: realSummary, clips: real.results, errors: real.errors },
        corpus: { summary: corpusSummary, clips: corpus.results, errors: corpus.errors },
        notices,
      },
      null,
      2,
    )}\n`,
  );
  log(`wrote ${out}`);
}

await main();
