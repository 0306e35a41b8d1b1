import { parseArgs } from 'node:util';
import type { NoteEvent } from '@riffscribe/core';
import { guitarSetup } from '@riffscribe/engine';
import { lessonNotes, openPitch, type TabNote } from '@riffscribe/engine/stages';
import { cachedModelOutput } from '../model-cache.js';
import { buildCorpus, type CorpusItem } from './corpus.js';
import {
  combineTechniqueScores,
  techniqueScores,
  TECHNIQUES,
  type TechniqueScore,
  type TechniqueScores,
} from './technique-metrics.js';
import { truthTab } from './truth-tab.js';

/**
 * Technique detection on the rendered corpus with the real model (development measurement; the
 * full runner is run.ts):
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/corpus/measure.js
 *     [--truth-tab]   place notes on the true strings instead of the tab stage's choice
 *     [--item NAME]   one item, listing every note with its techniques, true and found
 *
 * Prints per-technique precision, recall and F1 per item and over the whole corpus ('-' for a
 * technique with no occurrences, true or found). The notes are the pipeline's (lessonNotes in
 * pipeline.ts), as `npm run eval` scores them. Model outputs are cached under the OS temp
 * directory by a hash of the audio (../model-cache.ts).
 */

function flags(n: NoteEvent): string {
  const out: string[] = [];
  if (n.mute) out.push('x');
  if (n.bend_to_fret !== null)
    out.push(`b${n.bend_to_fret}${n.release_to_fret !== null ? `r${n.release_to_fret}` : ''}`);
  if (n.vibrato) out.push(`~${n.vibrato}`);
  if (n.leading_slide) out.push('<sl');
  if (n.trailing_slide) out.push('sl>');
  if (n.leading_hammer_on) out.push('<h');
  if (n.trailing_hammer_on) out.push('h>');
  if (n.leading_pull_off) out.push('<p');
  if (n.trailing_pull_off) out.push('p>');
  return out.join(' ');
}

function listing(item: CorpusItem, found: NoteEvent[], tab: readonly TabNote[]): void {
  const open = (s: number) => openPitch(item.config, s);
  const rows = [
    ...item.notes.map((n) => ({ side: 'true ', n, extra: '' })),
    ...found.map((n) => {
      const t = tab.find((x) => Math.abs(x.time - n.time) < 1e-6 && x.string === n.string);
      return {
        side: 'found',
        n,
        extra: t ? `onset ${t.onset.toFixed(2)} amp ${t.amplitude.toFixed(2)}` : '',
      };
    }),
  ].sort((a, b) => a.n.time - b.n.time || (a.side < b.side ? -1 : 1));
  for (const { side, n, extra } of rows) {
    console.log(
      `${side} ${n.time.toFixed(3)}-${n.end_time.toFixed(3)} s${n.string} f${String(n.fret).padStart(2)} p${open(n.string) + n.fret}  ${flags(n).padEnd(16)} ${extra}`,
    );
  }
}

function cell(v: TechniqueScore): string {
  const n = v.truePositives + v.falseNegatives;
  if (n === 0 && v.falsePositives === 0) return '-'.padEnd(24);
  return `${v.f1.toFixed(2)} (${v.precision.toFixed(2)}/${v.recall.toFixed(2)} n${n})`.padEnd(24);
}

function row(name: string, s: TechniqueScores): string {
  return name.padEnd(34) + TECHNIQUES.map((t) => cell(s[t])).join('');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'truth-tab': { type: 'boolean' }, item: { type: 'string' } },
  });
  const corpus = buildCorpus().filter((i) => values.item === undefined || i.name === values.item);
  console.log(`${''.padEnd(34)}${TECHNIQUES.map((t) => `${t} F1 (P/R n)`.padEnd(24)).join('')}`);
  const all: TechniqueScores[] = [];
  for (const item of corpus) {
    const output = await cachedModelOutput(item.audio);
    const { tab, notes: found } = await lessonNotes(
      output,
      item.audio,
      item.config,
      values['truth-tab'] ? { place: (detected) => truthTab(detected, item) } : {},
    );
    const scores = techniqueScores(item.notes, found, guitarSetup(item.config));
    all.push(scores);
    console.log(row(item.name, scores));
    if (values.item !== undefined) listing(item, found, tab);
  }
  console.log(row('all', combineTechniqueScores(all)));
}

await main();
