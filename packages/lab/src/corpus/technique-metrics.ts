import type { NoteEvent, SuggestedTechnique, SuggestionFields } from '@riffscribe/core';
import { openPitch } from '@riffscribe/engine/stages';
import {
  combineTechniqueScores as combineCounts,
  maximumMatching,
  scores,
  type TechniqueCounts,
} from '../metrics.js';

/**
 * Per-technique precision, recall and F1 of predicted notes against true notes (pure).
 *
 * Notes are matched one to one: a pitched note matches a pitched note whose onset is within
 * ONSET_TOLERANCE and which has the same pitch (when a setup is given: tuning[6 - string] + capo +
 * fret, so a note written on another string still matches) or else the same string and fret,
 * as many pairs as possible (metrics.ts's maximumMatching, as for the note scores). A dead note
 * has no pitch, so in a second pass a muted note on either side matches any note left over with
 * an onset within the tolerance.
 *
 * Then each technique is counted per occurrence: a slide, hammer-on or pull-off once per side of a
 * note that carries it (leading and trailing are separate occurrences, so the two notes of a
 * hammer-on give two), a bend, a release, a vibrato (of any depth, and of each depth) or a mute
 * once per note. An occurrence on a matched pair is a true positive when both notes carry it; an
 * occurrence on only the predicted note, or on an unmatched predicted note, is a false positive;
 * on only the true note, a false negative.
 * Precision, recall and F1 come from those counts by metrics.ts's `scores` (0 where a denominator
 * is 0, so a technique with no occurrences on either side scores 0, with all three counts 0).
 */

/**
 * `release` is a bend let down again (release_to_fret set); `vibrato` counts a vibrato of any
 * depth, `vibrato_small` and `vibrato_big` only one of that depth (a small vibrato reported as big
 * is a miss of vibrato_small and a false alarm of vibrato_big, but a hit of vibrato).
 */
export const TECHNIQUES = [
  'bend',
  'release',
  'vibrato',
  'vibrato_small',
  'vibrato_big',
  'slide',
  'hammer_on',
  'pull_off',
  'mute',
] as const;
export type Technique = (typeof TECHNIQUES)[number];

/** Onset tolerance of the match, seconds (the usual transcription criterion). */
export const ONSET_TOLERANCE = 0.05;

/** Precision, recall and F1 of one technique with their counts. */
export type TechniqueScore = Required<TechniqueCounts>;

export type TechniqueScores = Record<Technique, TechniqueScore>;

/** Open-string pitches low to high and capo, to match notes by pitch rather than place. */
export interface MatchSetup {
  tuning: readonly number[];
  capo: number;
}

/** Occurrences of each technique on a note, as [leading, trailing] sides or a single count. */
export function occurrences(n: NoteEvent): Record<Technique, number[]> {
  const pitched = !n.mute;
  return {
    bend: [pitched && n.bend_to_fret !== null ? 1 : 0],
    release: [pitched && n.bend_to_fret !== null && n.release_to_fret !== null ? 1 : 0],
    vibrato: [pitched && n.vibrato !== '' ? 1 : 0],
    vibrato_small: [pitched && n.vibrato === 'small' ? 1 : 0],
    vibrato_big: [pitched && n.vibrato === 'big' ? 1 : 0],
    slide: [n.leading_slide ? 1 : 0, n.trailing_slide ? 1 : 0],
    hammer_on: [n.leading_hammer_on ? 1 : 0, n.trailing_hammer_on ? 1 : 0],
    pull_off: [n.leading_pull_off ? 1 : 0, n.trailing_pull_off ? 1 : 0],
    mute: [n.mute ? 1 : 0],
  };
}

/**
 * Pairs of indices (truth, predicted), one to one: a maximum matching (metrics.ts) of pitched
 * notes of the same pitch, then one of the notes left over where either is a dead note.
 */
export function matchNotes(
  truth: readonly NoteEvent[],
  predicted: readonly NoteEvent[],
  setup?: MatchSetup,
): [number, number][] {
  const pitchOf = (n: NoteEvent) =>
    setup ? openPitch(setup, n.string) + n.fret : n.string * 100 + n.fret;
  const usedT = new Set<number>();
  const usedP = new Set<number>();
  const pass = (accept: (t: NoteEvent, p: NoteEvent) => boolean) => {
    const pairs = maximumMatching(truth.length, predicted.length, (i, j) => {
      const t = truth[i];
      const p = predicted[j];
      if (t === undefined || p === undefined || usedT.has(i) || usedP.has(j)) return false;
      return Math.abs(t.time - p.time) <= ONSET_TOLERANCE + 1e-9 && accept(t, p);
    });
    for (const [i, j] of pairs) {
      usedT.add(i);
      usedP.add(j);
    }
    return pairs;
  };
  const pitched = pass((t, p) => !t.mute && !p.mute && pitchOf(t) === pitchOf(p));
  const dead = pass((t, p) => t.mute || p.mute);
  return [...pitched, ...dead].sort((a, b) => a[0] - b[0]);
}

function score(tp: number, fp: number, fn: number): TechniqueScore {
  const { precision, recall, f1 } = scores(tp, tp + fn, tp + fp);
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, precision, recall, f1 };
}

/** Per-technique scores of `predicted` against `truth` (one clip). */
export function techniqueScores(
  truth: readonly NoteEvent[],
  predicted: readonly NoteEvent[],
  setup?: MatchSetup,
): TechniqueScores {
  const counts = Object.fromEntries(TECHNIQUES.map((t) => [t, { tp: 0, fp: 0, fn: 0 }])) as Record<
    Technique,
    { tp: number; fp: number; fn: number }
  >;
  const pairs = matchNotes(truth, predicted, setup);
  const matchedT = new Set(pairs.map(([i]) => i));
  const matchedP = new Set(pairs.map(([, j]) => j));
  for (const [i, j] of pairs) {
    const t = truth[i];
    const p = predicted[j];
    if (t === undefined || p === undefined) continue;
    const ot = occurrences(t);
    const op = occurrences(p);
    for (const tech of TECHNIQUES) {
      ot[tech].forEach((a, side) => {
        const b = op[tech][side] ?? 0;
        counts[tech].tp += Math.min(a, b);
        counts[tech].fn += Math.max(0, a - b);
        counts[tech].fp += Math.max(0, b - a);
      });
    }
  }
  truth.forEach((t, i) => {
    if (matchedT.has(i)) return;
    const o = occurrences(t);
    for (const tech of TECHNIQUES) counts[tech].fn += o[tech].reduce((s, v) => s + v, 0);
  });
  predicted.forEach((p, j) => {
    if (matchedP.has(j)) return;
    const o = occurrences(p);
    for (const tech of TECHNIQUES) counts[tech].fp += o[tech].reduce((s, v) => s + v, 0);
  });
  return Object.fromEntries(
    TECHNIQUES.map((tech) => [tech, score(counts[tech].tp, counts[tech].fp, counts[tech].fn)]),
  ) as TechniqueScores;
}

/** Scores over several clips: counts summed, then precision, recall and F1 (micro average). */
export function combineTechniqueScores(list: readonly TechniqueScores[]): TechniqueScores {
  const combined = combineCounts(list);
  return Object.fromEntries(
    TECHNIQUES.map((tech) => {
      const c = combined[tech];
      return [tech, score(c?.truePositives ?? 0, c?.falsePositives ?? 0, c?.falseNegatives ?? 0)];
    }),
  ) as TechniqueScores;
}

/**
 * Vibrato splits (issue 39): a held note under a vibrato that the pipeline wrote as several
 * notes of its pitch, the swell of the string's level read as new picks. `notes` counts the true
 * vibrato notes, `split` those under which the pipeline started another note of the same pitch
 * (within a semitone) more than ONSET_TOLERANCE after the true start and before its end, and
 * `extra` how many such notes it started in all.
 */
export interface VibratoSplits {
  notes: number;
  split: number;
  extra: number;
}

export function vibratoSplits(
  truth: readonly NoteEvent[],
  found: readonly NoteEvent[],
  setup: MatchSetup,
): VibratoSplits {
  const pitch = (n: NoteEvent) => (setup.tuning[6 - n.string] ?? 0) + setup.capo + n.fret;
  const pitched = found.filter((n) => !n.mute);
  const out: VibratoSplits = { notes: 0, split: 0, extra: 0 };
  for (const t of truth) {
    if (t.mute || t.vibrato === '') continue;
    out.notes += 1;
    const p = pitch(t);
    const restruck = pitched.filter(
      (n) =>
        n.time > t.time + ONSET_TOLERANCE &&
        n.time < t.end_time - ONSET_TOLERANCE &&
        Math.abs(pitch(n) - p) <= 1,
    ).length;
    if (restruck > 0) out.split += 1;
    out.extra += restruck;
  }
  return out;
}

/** Vibrato splits summed over clips. */
export function combineVibratoSplits(list: readonly VibratoSplits[]): VibratoSplits {
  return list.reduce(
    (a, s) => ({ notes: a.notes + s.notes, split: a.split + s.split, extra: a.extra + s.extra }),
    { notes: 0, split: 0, extra: 0 },
  );
}

/**
 * The technique gate's suggestions (issue 39, precision first): per technique, the marks the
 * pipeline moved to the review queue ("bend?") instead of the tab, and how many of them the
 * truth has (on the true note matched to the suggesting note, same side): a gate that suggests
 * mostly right marks costs recall; one whose suggestions are mostly wrong saves precision.
 */
const SIDES = ['leading', 'trailing'] as const;

export type SuggestionCounts = Record<string, { suggested: number; right: number }>;

export function suggestionCounts(
  truth: readonly NoteEvent[],
  found: readonly NoteEvent[],
  setup: MatchSetup,
): SuggestionCounts {
  const out: SuggestionCounts = {};
  const matched = new Map(matchNotes(truth, found, setup).map(([i, j]) => [j, i]));
  found.forEach((n, j) => {
    for (const s of n.suggestions ?? []) {
      const i = matched.get(j);
      const t = i === undefined ? undefined : truth[i];
      const side =
        SIDES.find((k) => s.fields[`${k}_${s.technique}` as keyof SuggestionFields] === true) ??
        null;
      const c = (out[s.technique] ??= { suggested: 0, right: 0 });
      c.suggested += 1;
      if (t !== undefined && carriesMark(t, s.technique, side)) c.right += 1;
    }
  });
  return out;
}

/**
 * Whether a true note carries a technique mark: a bend, a release (a bend let down), a vibrato of
 * any depth, or a slide, hammer-on or pull-off on the given side. The technique gate's training
 * labels (technique-data.ts) and the eval's count of its suggestions read the same rule.
 */
export function carriesMark(
  t: NoteEvent,
  technique: SuggestedTechnique,
  side: 'leading' | 'trailing' | null,
): boolean {
  switch (technique) {
    case 'bend':
      return t.bend_to_fret !== null;
    case 'release':
      return t.bend_to_fret !== null && t.release_to_fret !== null;
    case 'vibrato':
      return t.vibrato !== '';
    default:
      return side !== null && t[`${side}_${technique}`];
  }
}

/** Suggestions summed over clips. */
export function combineSuggestionCounts(list: readonly SuggestionCounts[]): SuggestionCounts {
  const out: SuggestionCounts = {};
  for (const counts of list) {
    for (const [tech, c] of Object.entries(counts)) {
      const sum = (out[tech] ??= { suggested: 0, right: 0 });
      sum.suggested += c.suggested;
      sum.right += c.right;
    }
  }
  return out;
}
