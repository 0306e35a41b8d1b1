import type { ChordEvent, NoteEvent, UploadConfig } from '@riffscribe/core';
import type { TechniqueCounts } from './metrics.js';

/**
 * The link to the own rendered corpus (eval/corpus/, another part of the project): loaded by
 * name at run time and checked for shape, so that the runner still measures the real recordings
 * and says clearly what is missing when the corpus or its technique metrics are not there.
 */

/** One corpus clip with its answers (eval/corpus/corpus.ts). */
export interface CorpusItem {
  name: string;
  /** Mono samples at 22050 Hz. */
  audio: Float32Array;
  config: UploadConfig;
  notes: NoteEvent[];
  chords: ChordEvent[];
  key: string;
}

/** Precision, recall and F1 of one technique, with counts when the metric gives them. */
export type TechniqueScore = TechniqueCounts;

export type TechniqueScoreFn = (
  truth: NoteEvent[],
  predicted: NoteEvent[],
  setup?: { tuning: readonly number[]; capo: number },
) => Record<string, TechniqueScore>;

export type Loaded<T> = { ok: true; value: T } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

async function load(specifier: string): Promise<Record<string, unknown> | string> {
  try {
    const mod: unknown = await import(specifier);
    return isObject(mod) ? mod : `${specifier} did not load as a module.`;
  } catch (error) {
    return `${specifier} could not be loaded (${error instanceof Error ? error.message : String(error)}).`;
  }
}

function isCorpusItem(v: unknown): v is CorpusItem {
  return (
    isObject(v) &&
    typeof v.name === 'string' &&
    v.audio instanceof Float32Array &&
    isObject(v.config) &&
    Array.isArray(v.notes) &&
    Array.isArray(v.chords) &&
    typeof v.key === 'string'
  );
}

/** buildCorpus() from eval/corpus/corpus.js, run and checked, or why it is not available. */
export async function loadCorpus(): Promise<Loaded<CorpusItem[]>> {
  const mod = await load('./corpus/corpus.js');
  if (typeof mod === 'string') {
    return { ok: false, message: `Own corpus not measured: ${mod}` };
  }
  const build = mod.buildCorpus;
  if (typeof build !== 'function') {
    return { ok: false, message: 'Own corpus not measured: eval/corpus has no buildCorpus().' };
  }
  const items: unknown = (build as () => unknown)();
  if (!Array.isArray(items) || !items.every(isCorpusItem)) {
    return {
      ok: false,
      message:
        'Own corpus not measured: buildCorpus() did not return { name, audio, config, notes, chords, key } items.',
    };
  }
  return { ok: true, value: items };
}

/** techniqueScores from eval/corpus/technique-metrics.js, or why it is not available. */
export async function loadTechniqueScores(): Promise<Loaded<TechniqueScoreFn>> {
  const mod = await load('./corpus/technique-metrics.js');
  if (typeof mod === 'string') {
    return { ok: false, message: `Per-technique scores not measured: ${mod}` };
  }
  const fn = mod.techniqueScores;
  if (typeof fn !== 'function') {
    return {
      ok: false,
      message:
        'Per-technique scores not measured: eval/corpus/technique-metrics has no techniqueScores().',
    };
  }
  return { ok: true, value: fn as TechniqueScoreFn };
}

/** Whether a value looks like per-technique scores (technique -> { precision, recall, f1 }). */
export function isTechniqueScores(v: unknown): v is Record<string, TechniqueScore> {
  return (
    isObject(v) &&
    Object.values(v).every(
      (s) =>
        isObject(s) &&
        typeof s.precision === 'number' &&
        typeof s.recall === 'number' &&
        typeof s.f1 === 'number',
    )
  );
}
