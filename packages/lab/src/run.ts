import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultUploadConfig } from '@riffscribe/core';
import { decodeAudio, ENGINE_VERSION } from '@riffscribe/engine';
import { medianTempo, SAMPLE_RATE } from '@riffscribe/engine/stages';
import { buildCorpusItem, CORPUS_ITEM_NAMES, type CorpusItem } from './corpus/corpus.js';
import { techniqueScores } from './corpus/technique-metrics.js';
import { discoverDatasets, findDatasetsRoot, readJams, readTabJson } from './datasets.js';
import {
  evaluateClip,
  placedNotes,
  soundOfProgram,
  type ClipResult,
  type ClipTruth,
  type TechniqueScorer,
} from './evaluate.js';
import { reseeded } from './seeds.js';
import { soundfontRecipes, soundfontScore, type SoundfontPart } from './soundfont/recipes.js';
import { ensureFluidSynth, renderSoundfontItem, type RenderableScore } from './soundfont/render.js';
import { rhythmScore, type RhythmPart } from './rhythm/pieces.js';
import { rhythmRecipes } from './rhythm/recipes.js';
import {
  FOOTNOTES,
  chordDetailTable,
  comparisonTable,
  reviewTable,
  clipTable,
  rhythmTable,
  summarise,
  techniqueTable,
  suggestionTable,
  vibratoSplitTable,
  type Summary,
} from './report.js';

/**
 * `npm run eval` (packages/lab): the whole engine on six corpora, each printed with its clip
 * table, per-technique table and summary, then side by side:
 *  - `string-model`: the project's own corpus rendered by a physical string model (corpus);
 *  - `soundfont-tuned` and `soundfont-held`: the SoundFont corpus (soundfont), the same kind
 *    of seeded tabs with exact answers played by FluidSynth's General MIDI guitars through a room,
 *    noise and a lossy codec. The held part is never used to choose a constant (recipes.ts);
 *  - `real`: the annotated recordings in packages/engine/fixtures/datasets (or the collection
 *    RIFFSCRIBE_DATASETS names): .tab.json notes, JAMS chords and key (no technique answers);
 *  - `rhythm-tuned` and `rhythm-held`: the rhythm corpus (rhythm), strummed, comped and
 *    picked parts rendered the SoundFont way on a known beat grid (tempo drift, rubato, pickups,
 *    3/4 and 6/8), for beat F1, downbeat F1 and tempo; reported in their own side-by-side table
 *    and left out of the others, so those read as before. The held part is never tuned on.
 * Figures: note precision/recall/F1, note F1 with offsets, tab F1, string/fret accuracy with the
 * true pitches, chord root and root+quality accuracy, key, strummed open-chord note recall, and
 * per-technique precision/recall/F1. Everything is also written as JSON (default
 * packages/lab/eval-results/latest.json, --out FILE).
 *
 *   npm run eval -- [--out FILE] [--corpus NAME[,NAME...]] [--item NAME]...
 *
 * `--corpus` takes string-model, soundfont-tuned, soundfont-held, soundfont (both parts), real,
 * rhythm-tuned, rhythm-held, rhythm (both parts) (default: all); `--only real|corpus` is the older spelling of `--corpus real|string-model`.
 * `--item` keeps only the named clips (repeatable). `--scale N` plays each SoundFont recipe N
 * times with other seeds (names `-x2`...), for parts large enough that a technique's figures do
 * not turn on one note (the held part stays held). `--gate T` sets the technique gate's threshold
 * (0: every mark the rules write, to compare). The SoundFont corpus needs Debian's
 * fluidsynth and fluid-soundfont-gm and installs them with apt-get when missing; its WAVs are
 * cached in packages/lab/eval-cache/soundfont and .../rhythm (gitignored), so reruns do not
 * render again.
 *
 * Settings of the engine were chosen on general grounds and on constructed or rendered material;
 * the real recordings and the SoundFont held part are measured here, never tuned against.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const soundfontCache = path.join(repoRoot, 'packages/lab/eval-cache/soundfont');
const rhythmCache = path.join(repoRoot, 'packages/lab/eval-cache/rhythm');

const CORPORA = [
  'string-model',
  'soundfont-tuned',
  'soundfont-held',
  'real',
  'rhythm-tuned',
  'rhythm-held',
] as const;
type CorpusName = (typeof CORPORA)[number];
const LABELS: Record<CorpusName, string> = {
  'string-model': 'string model',
  'soundfont-tuned': 'SoundFont tuned',
  'soundfont-held': 'SoundFont held',
  real: 'real excerpts',
  'rhythm-tuned': 'rhythm tuned',
  'rhythm-held': 'rhythm held',
};
/** The rhythm corpora: reported in their own side-by-side table, left out of the others. */
const isRhythm = (c: CorpusName) => c === 'rhythm-tuned' || c === 'rhythm-held';

const RHYTHM_FOOTNOTE =
  "rhythm tuned / rhythm held: strummed, comped and picked parts rendered by FluidSynth on a known beat grid (rhythm/pieces.ts), so they do have true beats, bar lines and tempo (the grid's median); 6/8 is beaten in dotted quarters; their chord and note figures are by the way.";

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
      openStrumNotes: null,
      rhythm:
        jams && (jams.beats !== null || jams.tempo !== null)
          ? {
              bpm: jams.tempo ?? (jams.beats ? medianTempo(jams.beats) : null),
              beats: jams.beats,
              downbeats: jams.downbeats,
            }
          : null,
    });
  }
  return out;
}

function corpusClip(item: Omit<CorpusItem, 'audio'>, audio: Float32Array): ClipTruth {
  return {
    name: item.name,
    source: 'corpus',
    audio,
    config: item.config,
    notes: placedNotes(item.notes, item.config),
    noteEvents: item.notes,
    chords: item.chords.length > 0 ? item.chords : null,
    leadSheetChords: null,
    key: item.key === '' ? null : item.key,
    openStrumNotes: item.openStrumNotes,
    // The generator knows a nominal tempo only (corpus.ts, CorpusItem.bpm): no beats, no bars.
    rhythm: { bpm: item.bpm, beats: null, downbeats: null },
  };
}

/**
 * Renders (or reads from `cacheDir`) the FluidSynth pieces of one corpus part and turns each into
 * a clip; prints how many were rendered and how many came from the cache.
 */
async function renderedClips<S extends RenderableScore>(
  label: string,
  scores: readonly S[],
  cacheDir: string,
  toClip: (score: S, audio: Float32Array) => ClipTruth,
): Promise<ClipTruth[]> {
  if (scores.length === 0) return [];
  const setup = await ensureFluidSynth(progress);
  const out: ClipTruth[] = [];
  let rendered = 0;
  const started = performance.now();
  for (const score of scores) {
    const { audio, cached } = await renderSoundfontItem(score, setup, cacheDir);
    if (!cached) rendered++;
    out.push(toClip(score, audio));
  }
  progress(
    `  ${label}: ${scores.length} clips, ${rendered} rendered, ` +
      `${scores.length - rendered} from the cache (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return out;
}

/**
 * A part's recipes, each played `scale` times with other seeds (`-x2`, `-x3`... after the name):
 * more of the same kinds of phrases, so that a part's technique counts are not a handful.
 */
const scaledRecipes = (part: SoundfontPart, scale: number) =>
  Array.from({ length: Math.max(1, scale) }, (_, k) =>
    soundfontRecipes(part).map((r) => reseeded(r, k, `x${String(k + 1)}`)),
  ).flat();

const soundfontClips = (part: SoundfontPart, keep: (name: string) => boolean, scale = 1) =>
  renderedClips(
    `SoundFont ${part}`,
    scaledRecipes(part, scale)
      .filter((r) => keep(r.name))
      .map(soundfontScore),
    soundfontCache,
    (score, audio) => ({
      ...corpusClip(score.truth, audio),
      sound: soundOfProgram(score.recipe.program),
    }),
  );

const rhythmClips = (part: RhythmPart, keep: (name: string) => boolean) =>
  renderedClips(
    `rhythm ${part}`,
    rhythmRecipes(part)
      .filter((r) => keep(r.name))
      .map(rhythmScore),
    rhythmCache,
    (score, audio) => ({
      ...corpusClip(score.truth, audio),
      rhythm: { bpm: score.truth.bpm, beats: score.truth.beats, downbeats: score.truth.downbeats },
    }),
  );

async function clipsOf(
  corpus: CorpusName,
  datasetsRoot: string,
  keep: (name: string) => boolean,
  scale = 1,
): Promise<ClipTruth[]> {
  switch (corpus) {
    case 'string-model':
      return CORPUS_ITEM_NAMES.filter(keep).map((name) => {
        const item = buildCorpusItem(name);
        return corpusClip(item, item.audio);
      });
    case 'soundfont-tuned':
      return soundfontClips('tuned', keep, scale);
    case 'soundfont-held':
      return soundfontClips('held', keep, scale);
    case 'real':
      return (await datasetClips(datasetsRoot)).filter((c) => keep(c.name));
    case 'rhythm-tuned':
      return rhythmClips('tuned', keep);
    case 'rhythm-held':
      return rhythmClips('held', keep);
  }
}

async function runClips(
  clips: readonly ClipTruth[],
  techniqueScores: TechniqueScorer | null,
  gateThreshold?: number,
): Promise<{ results: ClipResult[]; errors: { name: string; error: string }[] }> {
  const results: ClipResult[] = [];
  const errors: { name: string; error: string }[] = [];
  for (const clip of clips) {
    progress(`  ${clip.name} (${(clip.audio.length / SAMPLE_RATE).toFixed(1)} s)`);
    try {
      const { result } = await evaluateClip(
        clip,
        techniqueScores,
        () => performance.now(),
        gateThreshold === undefined ? {} : { gateThreshold },
      );
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
  const root = s.chordsPipelineRoot ? s.chordsPipelineRoot.accuracy.toFixed(3) : '-';
  const chordsTrue = s.chordsTrueNotes ? s.chordsTrueNotes.accuracy.toFixed(3) : '-';
  const strum = s.openStrum ? s.openStrum.recall.toFixed(3) : '-';
  log(
    `${label}: note F1 ${s.note.f1.toFixed(3)}, note F1 with offsets ${s.noteWithOffsets.f1.toFixed(3)}, ` +
      `tab F1 ${s.tab.f1.toFixed(3)}, string/fret accuracy (true pitches) ${s.fingering.accuracy.toFixed(3)}, ` +
      `chord root ${root}, chord accuracy ${chords} (true notes ${chordsTrue}), ` +
      `open-chord strum note recall ${strum}, key ${s.keysPipeline.correct}/${s.keysPipeline.judged} right ` +
      `(true notes ${s.keysTrueNotes.correct}/${s.keysTrueNotes.judged}), ` +
      `beat F1 ${s.beat ? s.beat.f1.toFixed(3) : '-'}, downbeat F1 ${s.downbeat ? s.downbeat.f1.toFixed(3) : '-'}, ` +
      `tempo acc ${s.tempo ? s.tempo.acc1.toFixed(3) : '-'} (acc2 ${s.tempo ? s.tempo.acc2.toFixed(3) : '-'})`,
  );
}

function selectedCorpora(corpus: string | undefined, only: string | undefined): CorpusName[] {
  if (only !== undefined) {
    if (only === 'real') return ['real'];
    if (only === 'corpus') return ['string-model'];
    throw new Error('--only takes "real" or "corpus" (or use --corpus).');
  }
  if (corpus === undefined) return [...CORPORA];
  const wanted = new Set<CorpusName>();
  for (const name of corpus.split(',').map((x) => x.trim())) {
    if (name === 'soundfont') {
      wanted.add('soundfont-tuned');
      wanted.add('soundfont-held');
    } else if (name === 'rhythm') {
      wanted.add('rhythm-tuned');
      wanted.add('rhythm-held');
    } else if ((CORPORA as readonly string[]).includes(name)) wanted.add(name as CorpusName);
    else
      throw new Error(
        `--corpus takes ${CORPORA.join(', ')}, soundfont or rhythm (both parts), comma-separated; got "${name}".`,
      );
  }
  // Always in the order of CORPORA, so that tables line up from run to run.
  return CORPORA.filter((c) => wanted.has(c));
}

interface CorpusRun {
  corpus: CorpusName;
  results: ClipResult[];
  errors: { name: string; error: string }[];
  summary: Summary | null;
  seconds: number;
}

async function main() {
  const started = performance.now();
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      only: { type: 'string' },
      corpus: { type: 'string' },
      item: { type: 'string', multiple: true },
      scale: { type: 'string', default: '1' },
      gate: { type: 'string' },
    },
  });
  // The technique gate's threshold: the model card's by default, 0 for the rules' marks alone.
  const gateThreshold = values.gate === undefined ? undefined : Number(values.gate);
  const scale = Math.max(1, Math.round(Number(values.scale) || 1));
  const corpora = selectedCorpora(values.corpus, values.only);
  const items = values.item ?? [];
  const keep = (name: string) => items.length === 0 || items.includes(name);
  const datasetsRoot = findDatasetsRoot(repoRoot);
  const out = path.resolve(
    values.out ?? path.join(repoRoot, 'packages/lab/eval-results/latest.json'),
  );
  const notices: string[] = [];

  log(`Riffscribe engine evaluation (engine ${ENGINE_VERSION})`);
  log();

  const runs: CorpusRun[] = [];
  for (const corpus of corpora) {
    const t0 = performance.now();
    progress(`${LABELS[corpus]}${corpus === 'real' ? ` from ${datasetsRoot}` : ''}:`);
    const clips = await clipsOf(corpus, datasetsRoot, keep, scale);
    if (clips.length === 0) {
      notices.push(
        corpus === 'real'
          ? `No annotated recordings found in ${datasetsRoot}.`
          : `No clips in ${LABELS[corpus]}.`,
      );
    }
    const { results, errors } = await runClips(
      clips,
      corpus === 'real' || isRhythm(corpus) ? null : techniqueScores,
      gateThreshold,
    );
    const summary = results.length > 0 ? summarise(results) : null;
    runs.push({ corpus, results, errors, summary, seconds: (performance.now() - t0) / 1000 });
    log(
      corpus === 'real'
        ? `Real excerpts (${datasetsRoot})`
        : `${LABELS[corpus]} corpus (exact answers)`,
    );
    log(clipTable(results, `all ${LABELS[corpus]}`));
    log();
    if (results.some((r) => r.rhythm !== null)) {
      log(`Beats and tempo, ${LABELS[corpus]}`);
      log(rhythmTable(results));
      log();
    }
    if (summary?.techniques) {
      log(`Per-technique scores, ${LABELS[corpus]} (whole pipeline; counts summed over clips)`);
      log(techniqueTable(summary.techniques));
      log();
    }
  }

  const all = runs.filter((r) => !isRhythm(r.corpus)).flatMap((r) => r.results);
  if (all.some((r) => r.chords)) {
    log('Chord accuracy (time-weighted) by strictness');
    log(chordDetailTable(all));
    log();
  }
  if (runs.some((r) => r.summary?.vibratoSplits)) {
    log('Vibrato splits: true vibrato notes the pipeline re-struck as more notes of their pitch');
    log(
      vibratoSplitTable(
        runs.map((r) => ({ label: LABELS[r.corpus], splits: r.summary?.vibratoSplits ?? null })),
      ),
    );
    log();
  }
  if (runs.some((r) => Object.keys(r.summary?.suggestions ?? {}).length > 0)) {
    log('Technique gate: marks sent to the review queue ("bend?") instead of the tab');
    log(
      suggestionTable(
        runs.map((r) => ({ label: LABELS[r.corpus], suggestions: r.summary?.suggestions ?? null })),
      ),
    );
    log();
  }
  for (const r of runs) {
    if (!r.summary || (r.corpus !== 'string-model' && r.corpus !== 'real')) continue;
    log(`Review queue, ${LABELS[r.corpus]}: doubtful notes as a detector of wrong notes`);
    log(reviewTable(r.summary.review));
    log();
  }
  log('Corpora side by side');
  log(
    comparisonTable(
      runs
        .filter((r) => !isRhythm(r.corpus))
        .map((r) => ({ label: LABELS[r.corpus], summary: r.summary })),
    ),
  );
  log();
  const rhythmRuns = runs.filter((r) => isRhythm(r.corpus));
  if (rhythmRuns.length > 0) {
    log('Rhythm corpora side by side (beats, bars and tempo on a known grid)');
    log(comparisonTable(rhythmRuns.map((r) => ({ label: LABELS[r.corpus], summary: r.summary }))));
    log();
  }
  for (const r of runs) if (r.summary) printSummaryLine(LABELS[r.corpus], r.summary);
  for (const line of FOOTNOTES) log(line);
  if (rhythmRuns.length > 0) log(RHYTHM_FOOTNOTE);
  for (const r of runs) for (const e of r.errors) notices.push(`${e.name} failed: ${e.error}`);
  for (const n of notices) log(`NOTE: ${n}`);
  const total = (performance.now() - started) / 1000;
  log(
    `eval took ${total.toFixed(0)} s (${runs.map((r) => `${LABELS[r.corpus]} ${r.seconds.toFixed(0)} s`).join(', ')})`,
  );

  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify(
      {
        generatedBy: 'npm run eval',
        engineVersion: ENGINE_VERSION,
        datasets: datasetsRoot,
        corpora: Object.fromEntries(
          runs.map((r) => [
            r.corpus,
            { summary: r.summary, clips: r.results, errors: r.errors, seconds: r.seconds },
          ]),
        ),
        notices,
      },
      null,
      2,
    )}\n`,
  );
  log(`wrote ${out}`);
}

try {
  await main();
} catch (error) {
  // Expected failures (no FluidSynth, a bad option) read as one sentence, not a stack trace.
  process.stderr.write(`eval: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
