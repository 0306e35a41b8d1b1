import { parseArgs } from 'node:util';
import type { NoteEvent } from '@riffscribe/core';
import { guitarSetup } from '@riffscribe/engine';
import {
  analyseAttacks,
  type AttackAnalysis,
  attackAt,
  energyRiseAt,
  FRAME_RATE,
  lessonNotes,
  median,
  openPitch,
} from '@riffscribe/engine/stages';
import type { CorpusItem } from './corpus/corpus.js';
import { matchNotes, occurrences, TECHNIQUES, type Technique } from './corpus/technique-metrics.js';
import { soundfontTunedClips, stringModelClips } from './dev-clips.js';
import { scores } from './metrics.js';
import { cachedModelOutput } from './model-cache.js';

/**
 * Development measurement (issue 20): every occurrence of a technique on the SoundFont tuned part
 * (or the string-model corpus), found, missed or false, with what the detector read at the note:
 * its attack flux (against the median over the lesson's notes), the rise of the partials' power
 * and the neighbouring notes of the lesson. `--features` instead lists, at the true times, the
 * notes that start where the previous note on their string stops a step away (legato in the truth
 * or picked) with the attack, the rise and the level against the previous note and against the
 * string's last picked note. Never the held part.
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/techniques-dev.js
 *     [--corpus sm] [--tech hammer_on]... [--item NAME]... [--features]
 */

/** A note's techniques in tab shorthand (x, <h, h>, <p, p>, <s, s>, bN, rN, v:depth), or "-". */
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

/** Peak power of the partials (dB) over the five frames from `time`. */
function peakDb(attacks: AttackAnalysis, time: number): number {
  const f = Math.round(time * FRAME_RATE);
  let m = 0;
  for (let k = f; k <= f + 4; k++) m = Math.max(m, attacks.energy[k] ?? 0);
  return 10 * Math.log10(m + 1e-12);
}

/**
 * `--features`: one tab-separated row per true note that starts where the previous note on its
 * string stops, a fret step away (slides aside): legato in the truth (1) or picked (0), the step,
 * the attack against `typical`, the power rise, the level against the previous note and against
 * the string's last picked note, and the matched lesson note's techniques.
 */
function printFeatures(
  clip: CorpusItem,
  lesson: readonly NoteEvent[],
  byTruth: ReadonlyMap<number, number>,
  attacks: AttackAnalysis,
  typical: number,
): void {
  const byString = new Map<number, NoteEvent[]>();
  for (const t of clip.notes)
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
      const matched = lesson[byTruth.get(clip.notes.indexOf(t)) ?? -1];
      console.log(
        [
          'F',
          clip.name,
          t.time.toFixed(3),
          legato ? 1 : 0,
          step,
          (attackAt(attacks, t.time) / typical).toFixed(3),
          energyRiseAt(attacks, t.time).toFixed(2),
          (peakDb(attacks, t.time) - peakDb(attacks, prev.time)).toFixed(2),
          ref ? (peakDb(attacks, t.time) - peakDb(attacks, ref.time)).toFixed(2) : 'NA',
          matched ? flags(matched) : 'NA',
        ].join('\t'),
      );
    });
  }
}

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
  const clips = values.corpus === 'sm' ? stringModelClips(keep) : await soundfontTunedClips(keep);
  const totals = new Map<Technique, { tp: number; fp: number; fn: number }>();
  for (const clip of clips) {
    const raw = await cachedModelOutput(clip.audio);
    const { notes } = await lessonNotes(raw, clip.audio, clip.config);
    const setup = guitarSetup(clip.config);
    const attacks = analyseAttacks(clip.audio);
    const pitch = (n: NoteEvent) => (n.mute ? -1 : openPitch(setup, n.string) + n.fret);
    const pairs = matchNotes(clip.notes, notes, clip.config);
    const byTruth = new Map(pairs.map(([i, j]) => [i, j]));
    const byPred = new Map(pairs.map(([i, j]) => [j, i]));
    const typical = median(
      notes.map((n) => attackAt(attacks, n.time)),
      1,
    );
    if (values.features) {
      printFeatures(clip, notes, byTruth, attacks, typical);
      continue;
    }
    const describe = (n: NoteEvent) =>
      `t=${n.time.toFixed(3)}-${n.end_time.toFixed(3)} s${n.string} f${n.fret} p${pitch(n)} [${flags(n)}] ` +
      `att ${(attackAt(attacks, n.time) / typical).toFixed(2)} rise ${energyRiseAt(attacks, n.time).toFixed(1)}`;
    const near = (time: number) =>
      notes
        .filter((m) => Math.abs(m.time - time) < 0.4)
        .map((m) => `${m.time.toFixed(2)}:s${m.string}f${m.fret}[${flags(m)}]`)
        .join(' ');
    const lines: string[] = [];
    for (const tech of techs) {
      const c = totals.get(tech) ?? { tp: 0, fp: 0, fn: 0 };
      totals.set(tech, c);
      const side = (s: number) => `${tech}${s === 1 ? ' (trailing)' : ''}`;
      clip.notes.forEach((t, i) => {
        const p = notes[byTruth.get(i) ?? -1];
        const lessonHas = p ? occurrences(p)[tech] : [];
        occurrences(t)[tech].forEach((on, s) => {
          if (on === 0) return;
          const found = (lessonHas[s] ?? 0) > 0;
          if (found) c.tp++;
          else c.fn++;
          lines.push(
            `  ${found ? 'TP' : 'FN'} ${side(s)} truth ${describe(t)}\n      lesson ${p ? describe(p) : 'unmatched'}\n      near ${near(t.time)}`,
          );
        });
      });
      notes.forEach((p, j) => {
        const t = clip.notes[byPred.get(j) ?? -1];
        const truthHas = t ? occurrences(t)[tech] : [];
        occurrences(p)[tech].forEach((on, s) => {
          if (on === 0 || (truthHas[s] ?? 0) > 0) return;
          c.fp++;
          lines.push(
            `  FP ${side(s)} lesson ${describe(p)}\n      truth ${t ? describe(t) : 'unmatched'}\n      near ${near(p.time)}`,
          );
        });
      });
    }
    console.log(`${clip.name} (${clip.notes.length} true notes, ${notes.length} lesson notes)`);
    for (const l of lines) console.log(l);
  }
  for (const [tech, c] of totals) {
    const s = scores(c.tp, c.tp + c.fn, c.tp + c.fp);
    console.log(
      `${tech}: tp ${c.tp} fp ${c.fp} fn ${c.fn} P ${s.precision.toFixed(2)} R ${s.recall.toFixed(2)} F1 ${s.f1.toFixed(3)}`,
    );
  }
}

await main();
