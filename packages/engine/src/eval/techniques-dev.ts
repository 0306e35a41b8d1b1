import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { NoteEvent, UploadConfig } from '@riffscribe/core';
import { guitarSetup, lessonNotes } from '../pipeline.js';
import { openPitch } from '../tab/fingering.js';
import { analyseAttacks, attackAt, energyRiseAt } from '../techniques/attacks.js';
import { buildCorpusItem, CORPUS_ITEM_NAMES } from './corpus/corpus.js';
import { matchNotes, TECHNIQUES, type Technique } from './corpus/technique-metrics.js';
import { FRAME_RATE } from '../units.js';
import { cachedModelOutput } from './model-cache.js';
import { soundfontRecipes, soundfontScore } from './soundfont/recipes.js';
import { ensureFluidSynth, renderSoundfontItem } from './soundfont/render.js';

/**
 * Development measurement (issue 20): every occurrence of a technique on the SoundFont tuned part
 * (or the string-model corpus), found, missed or false, with what the detector read at the note:
 * its attack flux (against the median over the lesson's notes), the rise of the partials' power
 * and the neighbouring notes of the lesson. `--features` instead lists, at the true times, the
 * notes that start where the previous note on their string stops a step away (legato in the truth
 * or picked) with the attack, the rise and the level against the previous note and against the
 * string's last picked note. Never the held part.
 *
 *   npx tsc -b packages/engine && node packages/engine/dist/eval/techniques-dev.js
 *     [--corpus sm] [--tech hammer_on]... [--item NAME]... [--features]
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');
const soundfontCache = path.join(repoRoot, 'packages/engine/eval-cache/soundfont');

interface Clip {
  name: string;
  audio: Float32Array;
  config: UploadConfig;
  truth: NoteEvent[];
}

async function clips(corpus: string, keep: (n: string) => boolean): Promise<Clip[]> {
  if (corpus === 'sm')
    return CORPUS_ITEM_NAMES.filter(keep).map((name) => {
      const item = buildCorpusItem(name);
      return { name, audio: item.audio, config: item.config, truth: item.notes };
    });
  const setup = await ensureFluidSynth(() => undefined);
  const out: Clip[] = [];
  for (const r of soundfontRecipes('tuned').filter((x) => keep(x.name))) {
    const score = soundfontScore(r);
    const { audio } = await renderSoundfontItem(score, setup, soundfontCache);
    out.push({ name: r.name, audio, config: score.truth.config, truth: score.truth.notes });
  }
  return out;
}

function has(n: NoteEvent, tech: Technique): [boolean, boolean] {
  switch (tech) {
    case 'slide':
      return [n.leading_slide, n.trailing_slide];
    case 'hammer_on':
      return [n.leading_hammer_on, n.trailing_hammer_on];
    case 'pull_off':
      return [n.leading_pull_off, n.trailing_pull_off];
    case 'bend':
      return [!n.mute && n.bend_to_fret !== null, false];
    case 'release':
      return [!n.mute && n.bend_to_fret !== null && n.release_to_fret !== null, false];
    case 'vibrato':
      return [!n.mute && n.vibrato !== '', false];
    case 'vibrato_small':
      return [!n.mute && n.vibrato === 'small', false];
    case 'vibrato_big':
      return [!n.mute && n.vibrato === 'big', false];
    case 'mute':
      return [n.mute, false];
  }
}

const flags = (n: NoteEvent) =>
  [
    n.mute ? 'x' : '',
    n.leading_hammer_on ? '<h' : '',
    n.trailing_hammer_on ? 'h>' : '',
    n.leading_pull_off ? '<p' : '',
    n.trailing_pull_off ? 'p>' : '',
    n.leading_slide ? '<s' : '',
    n.trailing_slide ? 's>' : '',
    n.bend_to_fret !== null ? `b${n.bend_to_fret}` : '',
    n.release_to_fret !== null ? `r${n.release_to_fret}` : '',
    n.vibrato !== '' ? `v:${n.vibrato}` : '',
  ]
    .filter(Boolean)
    .join(' ') || '-';

async function main() {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: 'sf' },
      tech: { type: 'string', multiple: true },
      item: { type: 'string', multiple: true },
      features: { type: 'boolean', default: false },
    },
  });
  const items = values.item ?? [];
  const keep = (n: string) => items.length === 0 || items.includes(n);
  const techs = (values.tech ?? ['hammer_on', 'pull_off']) as Technique[];
  for (const t of techs) if (!TECHNIQUES.includes(t)) throw new Error(`unknown technique ${t}`);
  const totals = new Map<Technique, { tp: number; fp: number; fn: number }>();
  for (const clip of await clips(values.corpus, keep)) {
    const raw = await cachedModelOutput(clip.audio);
    const { notes } = await lessonNotes(raw, clip.audio, clip.config);
    const setup = guitarSetup(clip.config);
    const attacks = analyseAttacks(clip.audio);
    const pitch = (n: NoteEvent) => (n.mute ? -1 : openPitch(setup, n.string) + n.fret);
    const pairs = matchNotes(clip.truth, notes, clip.config);
    const byTruth = new Map(pairs.map(([i, j]) => [i, j]));
    const byPred = new Map(pairs.map(([i, j]) => [j, i]));
    const clipAttacks = notes.map((n) => attackAt(attacks, n.time)).sort((a, b) => a - b);
    const typical = clipAttacks[Math.floor(clipAttacks.length / 2)] ?? 1;
    const describe = (n: NoteEvent) => {
      const a = attackAt(attacks, n.time) / typical;
      const rise = energyRiseAt(attacks, n.time);
      return `t=${n.time.toFixed(3)}-${n.end_time.toFixed(3)} s${n.string} f${n.fret} p${pitch(n)} [${flags(n)}] att ${a.toFixed(2)} rise ${rise.toFixed(1)}`;
    };
    const near = (time: number) =>
      notes
        .filter((m) => Math.abs(m.time - time) < 0.4)
        .map((m) => `${m.time.toFixed(2)}:s${m.string}f${m.fret}[${flags(m)}]`)
        .join(' ');
    if (values.features) {
      // Notes that start where the previous note on their string stops, a step away: legato in
      // the truth or picked; what the clip shows at each (true times).
      const E = attacks.energy;
      const peakDb = (time: number) => {
        const f = Math.round(time * FRAME_RATE);
        let m = 0;
        for (let k = f; k <= f + 4; k++) m = Math.max(m, E[k] ?? 0);
        return 10 * Math.log10(m + 1e-12);
      };
      const byString = new Map<number, NoteEvent[]>();
      for (const t of clip.truth)
        if (!t.mute) byString.set(t.string, [...(byString.get(t.string) ?? []), t]);
      for (const list of byString.values()) {
        list.sort((a, b) => a.time - b.time);
        let head: NoteEvent | undefined;
        list.forEach((t, k) => {
          const prev = list[k - 1];
          const legato = t.leading_hammer_on || t.leading_pull_off;
          if (!legato && !t.leading_slide) head = t;
          if (prev === undefined || Math.abs(prev.end_time - t.time) > 0.03) return;
          const step = t.fret - prev.fret;
          if (step === 0 || Math.abs(step) > 5 || t.leading_slide) return;
          const ref = legato ? head : prev;
          const matched = byTruth.get(clip.truth.indexOf(t));
          console.log(
            [
              'F',
              clip.name,
              t.time.toFixed(3),
              legato ? 1 : 0,
              step,
              (attackAt(attacks, t.time) / typical).toFixed(3),
              energyRiseAt(attacks, t.time).toFixed(2),
              (peakDb(t.time) - peakDb(prev.time)).toFixed(2),
              ref ? (peakDb(t.time) - peakDb(ref.time)).toFixed(2) : 'NA',
              matched === undefined || notes[matched] === undefined ? 'NA' : flags(notes[matched]),
            ].join('\t'),
          );
        });
      }
      continue;
    }
    const lines: string[] = [];
    for (const tech of techs) {
      const c = totals.get(tech) ?? { tp: 0, fp: 0, fn: 0 };
      totals.set(tech, c);
      clip.truth.forEach((t, i) => {
        const j = byTruth.get(i);
        const p = j === undefined ? undefined : notes[j];
        const ht = has(t, tech);
        const hp = p ? has(p, tech) : [false, false];
        ht.forEach((on, side) => {
          if (!on) return;
          const found = hp[side] === true;
          if (found) c.tp++;
          else c.fn++;
          lines.push(
            `  ${found ? 'TP' : 'FN'} ${tech}${side === 1 ? ' (trailing)' : ''} truth ${describe(t)} [${flags(t)}]\n      lesson ${p ? describe(p) : 'unmatched'}\n      near ${near(t.time)}`,
          );
        });
      });
      notes.forEach((p, j) => {
        const i = byPred.get(j);
        const t = i === undefined ? undefined : clip.truth[i];
        const hp = has(p, tech);
        const ht = t ? has(t, tech) : [false, false];
        hp.forEach((on, side) => {
          if (!on || ht[side] === true) return;
          c.fp++;
          lines.push(
            `  FP ${tech}${side === 1 ? ' (trailing)' : ''} lesson ${describe(p)}\n      truth ${t ? describe(t) : 'unmatched'}\n      near ${near(p.time)}`,
          );
        });
      });
    }
    console.log(`${clip.name} (${clip.truth.length} true notes, ${notes.length} lesson notes)`);
    for (const l of lines) console.log(l);
  }
  for (const [tech, c] of totals) {
    const p = c.tp / Math.max(1, c.tp + c.fp);
    const r = c.tp / Math.max(1, c.tp + c.fn);
    console.log(
      `${tech}: tp ${c.tp} fp ${c.fp} fn ${c.fn} P ${p.toFixed(2)} R ${r.toFixed(2)} F1 ${((2 * p * r) / Math.max(1e-9, p + r)).toFixed(3)}`,
    );
  }
}

await main();
