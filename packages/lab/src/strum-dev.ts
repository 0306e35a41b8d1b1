import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { decodeAudio, guitarSetup } from '@riffscribe/engine';
import {
  ALL_RULES,
  byStart,
  defaultNoteOptions,
  findOnsets,
  FRAME_RATE,
  keepLegatoContinuations,
  lessonNotes,
  limitPolyphony,
  type ModelOutput,
  type NoteCandidate,
  type NoteOptions,
  peakOver,
  recoverStrumNotes,
  refineOutput,
  removeGhosts,
  strumCandidates,
  trackNotes,
} from '@riffscribe/engine/stages';
import { placedNotes } from './evaluate.js';
import { cachedModelOutput } from './model-cache.js';
import { scoreNotes, type TimedNote } from './notes-metrics.js';
import { defaultUploadConfig, type UploadConfig } from '@riffscribe/core';
import { discoverDatasets, findDatasetsRoot, readTabJson } from './datasets.js';
import { REPO_ROOT, rhythmTunedClips, soundfontTunedClips, stringModelClips } from './dev-clips.js';

/**
 * Development measurement (issue 20): where the notes of strummed open chords are lost, stage by
 * stage of note extraction and the pipeline after it, on the SoundFont tuned part and the string
 * model corpus, or the rhythm tuned part (`--corpus rhythm`); never a held part.
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/strum-dev.js [--corpus sm|rhythm|real]
 *     [--item NAME]... [--verbose] [--fp]
 */

interface Clip {
  name: string;
  audio: Float32Array;
  config: UploadConfig;
  notes: TimedNote[];
  strum: TimedNote[];
}

async function clips(corpus: string, keep: (n: string) => boolean): Promise<Clip[]> {
  if (corpus === 'real') {
    const out: Clip[] = [];
    for (const item of await discoverDatasets(findDatasetsRoot(REPO_ROOT))) {
      if (!keep(item.name)) continue;
      out.push({
        name: item.name,
        audio: await decodeAudio(item.audio),
        config: defaultUploadConfig(item.guitar),
        notes: await readTabJson(item.tab),
        strum: [],
      });
    }
    return out;
  }
  const items =
    corpus === 'sm'
      ? stringModelClips(keep)
      : corpus === 'rhythm'
        ? await rhythmTunedClips(keep)
        : await soundfontTunedClips(keep);
  return items.map((item) => ({
    name: item.name,
    audio: item.audio,
    config: item.config,
    notes: placedNotes(item.notes, item.config),
    strum: item.openStrumNotes,
  }));
}

const timed = (c: readonly NoteCandidate[]): TimedNote[] =>
  c.map((n) => ({ time: n.start / FRAME_RATE, endTime: n.end / FRAME_RATE, pitch: n.pitch }));

function stages(
  output: ModelOutput,
  options: NoteOptions,
  recover: boolean,
): [string, TimedNote[]][] {
  const minPitch = Math.max(21, Math.round(options.minPitch));
  const maxPitch = Math.min(108, Math.round(options.maxPitch));
  const onsets = findOnsets(output, {
    onsetThreshold: options.onsetThreshold,
    amplitudeThreshold: options.amplitudeThreshold,
    minPitch,
    maxPitch,
  });
  const tracked = trackNotes(output, onsets, {
    frameThreshold: options.frameThreshold,
    minNoteFrames: options.minNoteFrames,
    minPitch,
    maxPitch,
    legatoCandidates: ALL_RULES.unattacked !== 'none',
  });
  const amp = tracked.filter((n) => n.amplitude >= options.amplitudeThreshold);
  const ghosts = removeGhosts(amp);
  const legato = keepLegatoContinuations(ghosts);
  const recovered = recover ? recoverStrumNotes(output, legato, options) : legato;
  const poly = limitPolyphony(recovered, options.maxPolyphony).sort(byStart);
  return [
    ['onsets', onsets.map((o) => ({ time: o.frame / FRAME_RATE, endTime: 0, pitch: o.pitch }))],
    ['tracking', timed(tracked)],
    ['amplitude', timed(amp)],
    ['ghosts', timed(ghosts)],
    ['legato', timed(legato)],
    ['recovery', timed(recovered)],
    ['polyphony', timed(poly)],
  ];
}

/** Groups of true strum notes (a strum spreads its strings over at most ~90 ms). */
function strumGroups(strum: readonly TimedNote[]): TimedNote[][] {
  const sorted = [...strum].sort((a, b) => a.time - b.time);
  const groups: TimedNote[][] = [];
  for (const n of sorted) {
    const g = groups.at(-1);
    if (g && n.time - (g[0]?.time ?? 0) < 0.1) g.push(n);
    else groups.push([n]);
  }
  return groups;
}

async function main() {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: 'sf' },
      item: { type: 'string', multiple: true },
      verbose: { type: 'boolean', default: false },
      fp: { type: 'boolean', default: false },
      norecover: { type: 'boolean', default: false },
      candidates: { type: 'string' },
    },
  });
  const items = values.item ?? [];
  const keep = (n: string) => items.length === 0 || items.includes(n);
  const lostAt = new Map<string, number>();
  const lostAll = new Map<string, number>();
  const position = new Map<string, number>();
  let strumTotal = 0;
  const candRows: string[] = [
    'clip\tpitch\tframe\tonset\tbefore\tafter\tringing\tghostLike\tplace\tfromStart\ttoEnd\tinOrder\tplayable\trestrum\ttrue',
  ];
  const totals = { matched: 0, est: 0, ref: 0, sMatched: 0 };
  for (const clip of await clips(values.corpus, keep)) {
    const raw = await cachedModelOutput(clip.audio);
    // The stages read what the pipeline reads: Basic Pitch's activations, refined (notes/refine.ts).
    const { output } = await refineOutput(raw);
    const options = defaultNoteOptions(guitarSetup(clip.config), clip.config);
    const st = stages(output, options, !values.norecover);
    const { tab, notes } = await lessonNotes(raw, clip.audio, clip.config);
    if (values.candidates !== undefined) {
      // The candidates of the recovery at the stage it runs (after legato), labelled by truth.
      const legato = st.find(([name]) => name === 'legato')?.[1] ?? [];
      const cands = strumCandidates(
        output,
        legato.map((x) => ({
          start: Math.round(x.time * FRAME_RATE),
          end: Math.round(x.endTime * FRAME_RATE),
          pitch: x.pitch,
          onset: 0,
          amplitude: 0,
          source: 'attack' as const,
        })),
        options,
      );
      for (const c of cands) {
        const t = c.frame / FRAME_RATE;
        const truth = clip.notes.some((r) => r.pitch === c.pitch && Math.abs(r.time - t) <= 0.05);
        candRows.push(
          [
            clip.name,
            c.pitch,
            c.frame,
            c.onset.toFixed(3),
            c.before.toFixed(3),
            c.after.toFixed(3),
            c.ringing ? 1 : 0,
            c.ghostLike ? 1 : 0,
            c.place,
            c.frame - c.strumStart,
            c.strumEnd - c.frame,
            c.inOrder ? 1 : 0,
            c.playable ? 1 : 0,
            c.restrum ? 1 : 0,
            truth ? 1 : 0,
          ].join('\t'),
        );
      }
    }
    const all: [string, TimedNote[]][] = [
      ...st,
      ['tab', tab.map((n) => ({ time: n.time, endTime: n.endTime, pitch: n.pitch }))],
      ['final', placedNotes(notes, clip.config)],
    ];
    const final = all.at(-1)?.[1] ?? [];
    const s = scoreNotes(clip.notes, final);
    const ss = scoreNotes(clip.strum, final);
    totals.matched += s.matched;
    totals.est += s.estimated;
    totals.ref += s.reference;
    totals.sMatched += ss.matched;
    strumTotal += clip.strum.length;
    console.log(
      `${clip.name.padEnd(32)} P ${s.precision.toFixed(3)} R ${s.recall.toFixed(3)} F1 ${s.f1.toFixed(3)}  strum R ${ss.recall.toFixed(3)} (${clip.strum.length})`,
    );
    // For each stage, which strum notes are matched.
    const matchedAt = all.map(([name, list]) => {
      const sc = scoreNotes(clip.strum, list);
      return [name, new Set(sc.pairs.map(([i]) => i))] as const;
    });
    const matchedAll = all.map(([name, list]) => {
      const sc = scoreNotes(clip.notes, list);
      return [name, new Set(sc.pairs.map(([i]) => i))] as const;
    });
    // A note is lost when the lesson lacks it; it is counted at the first stage without it (it
    // may be missed by the onsets and recovered later, and lost after that).
    const lesson = (sets: readonly (readonly [string, Set<number>])[], i: number) =>
      sets.at(-1)?.[1].has(i) === true;
    clip.notes.forEach((_, i) => {
      if (lesson(matchedAll, i)) return;
      const stage = matchedAll.find(([, set]) => !set.has(i));
      if (stage) lostAll.set(stage[0], (lostAll.get(stage[0]) ?? 0) + 1);
    });
    const groups = strumGroups(clip.strum);
    clip.strum.forEach((n, i) => {
      if (lesson(matchedAt, i)) return;
      const stage = matchedAt.find(([, set]) => !set.has(i));
      if (!stage) return;
      lostAt.set(stage[0], (lostAt.get(stage[0]) ?? 0) + 1);
      const g = groups.find((x) => x.includes(n)) ?? [n];
      const pitches = g.map((x) => x.pitch);
      const pos =
        n.pitch === Math.min(...pitches)
          ? 'lowest'
          : n.pitch === Math.max(...pitches)
            ? 'highest'
            : 'middle';
      const doubled = pitches.some((p) => p !== n.pitch && (p - n.pitch) % 12 === 0);
      const key = `${pos}${doubled ? ' (pitch class doubled)' : ''}`;
      position.set(key, (position.get(key) ?? 0) + 1);
      if (values.verbose) {
        const f = Math.round(n.time * FRAME_RATE);
        const on = peakOver(output.onsets, n.pitch, f - 3, f + 3);
        const fr = peakOver(output.frames, n.pitch, f, f + 10);
        // Why the onset stage missed it: the strongest onset peak near the true onset, and the
        // confirmation test at that peak (rise of the note activation over the frames before).
        let best = f;
        for (let t = f - 4; t <= f + 4; t++)
          if (peakOver(output.onsets, n.pitch, t, t) > peakOver(output.onsets, n.pitch, best, best))
            best = t;
        const before = Math.min(
          peakOver(output.frames, n.pitch, best - 1, best - 1),
          peakOver(output.frames, n.pitch, best - 2, best - 2),
        );
        const after = peakOver(output.frames, n.pitch, best, best + 4);
        const ringing = final.some(
          (e) => e.pitch === n.pitch && e.time < n.time - 0.06 && e.endTime > n.time - 0.1,
        );
        const why = `peak ${peakOver(output.onsets, n.pitch, best, best).toFixed(2)} before ${before.toFixed(2)} after ${after.toFixed(2)}${ringing ? ' RINGING' : ''}`;
        const near = final
          .filter((e) => Math.abs(e.time - n.time) < 0.1)
          .map((e) => e.pitch)
          .join(',');
        console.log(
          `   lost at ${stage[0].padEnd(9)} t=${n.time.toFixed(2)} p=${n.pitch} ${pos} strum [${pitches.join(',')}] onset ${on.toFixed(2)} frame ${fr.toFixed(2)} found near [${near}] ${why}`,
        );
      }
    });
    if (values.fp) {
      const matchedEst = new Set(s.pairs.map(([, j]) => j));
      final.forEach((e, j) => {
        if (matchedEst.has(j)) return;
        const near = clip.notes.filter((r) => Math.abs(r.time - e.time) < 0.06);
        const rel = near.map((r) => e.pitch - r.pitch);
        const late = clip.notes.filter(
          (r) => r.time < e.time && r.endTime > e.time && r.pitch === e.pitch,
        );
        console.log(
          `   FP t=${e.time.toFixed(2)} p=${e.pitch} intervals to true onsets ${JSON.stringify(rel)}${late.length > 0 ? ' (pitch ringing)' : ''}`,
        );
      });
    }
  }
  const p = totals.matched / totals.est;
  const r = totals.matched / totals.ref;
  console.log(
    `all: P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${((2 * p * r) / (p + r)).toFixed(3)} strum R ${(totals.sMatched / strumTotal).toFixed(3)} (${strumTotal})`,
  );
  console.log('strum notes lost, by first stage without them:', Object.fromEntries(lostAt));
  console.log('all notes lost, by first stage without them:', Object.fromEntries(lostAll));
  console.log('lost strum notes by place in the strum:', Object.fromEntries(position));
  if (values.candidates !== undefined)
    await writeFile(values.candidates, candRows.join('\n') + '\n');
}

await main();
