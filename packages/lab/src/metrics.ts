/**
 * Evaluation metrics (pure): note, tab, fingering, chord and key scores, as `npm run eval`
 * reports them. Times in seconds, pitches as integer MIDI numbers.
 *
 * Notes follow mir_eval.transcription: an estimate matches a reference note of the same pitch
 * whose onset is within 50 ms (and, with offsets, whose offset is within max(50 ms, 20% of the
 * reference duration)); the matching is one-to-one and of maximum size.
 */

import { namePitchClass } from '@riffscribe/engine/stages';

/** A note as the metrics see it. */
export interface TimedNote {
  time: number;
  endTime: number;
  pitch: number;
}

/** A placed note: where on the neck a note was played. */
export interface PlacedNote {
  time: number;
  endTime: number;
  pitch: number;
  string: number;
  fret: number;
}

/** Precision, recall and F1 (0..1) with the counts they come from. */
export interface Scores {
  precision: number;
  recall: number;
  f1: number;
  matched: number;
  reference: number;
  estimated: number;
}

export interface MatchOptions {
  /** Seconds; default 0.05. */
  onsetTolerance?: number;
  /** Also require the offset to match; default false. */
  withOffsets?: boolean;
  /** Offset tolerance as a share of the reference duration; default 0.2. */
  offsetRatio?: number;
  /** Smallest offset tolerance, seconds; default 0.05. */
  offsetMin?: number;
}

/** Slack against float rounding at the tolerance edges, as mir_eval allows. */
const EPS = 1e-9;

/** Precision, recall and F1 from counts; 0 where a denominator is 0. */
export function scores(matched: number, reference: number, estimated: number): Scores {
  const precision = estimated === 0 ? 0 : matched / estimated;
  const recall = reference === 0 ? 0 : matched / reference;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, matched, reference, estimated };
}

/**
 * A maximum one-to-one matching between references and estimates where `can(r, e)` allows a
 * pair (augmenting paths; the candidate lists are short because onsets must be close).
 * Returns [reference index, estimate index] pairs.
 */
export function maximumMatching(
  referenceCount: number,
  estimateCount: number,
  can: (r: number, e: number) => boolean,
): [number, number][] {
  const edges: number[][] = [];
  for (let r = 0; r < referenceCount; r += 1) {
    const row: number[] = [];
    for (let e = 0; e < estimateCount; e += 1) if (can(r, e)) row.push(e);
    edges.push(row);
  }
  const owner = new Array<number>(estimateCount).fill(-1);
  const augment = (r: number, seen: Uint8Array): boolean => {
    for (const e of edges[r] ?? []) {
      if (seen[e] === 1) continue;
      seen[e] = 1;
      const current = owner[e] ?? -1;
      if (current < 0 || augment(current, seen)) {
        owner[e] = r;
        return true;
      }
    }
    return false;
  };
  for (let r = 0; r < referenceCount; r += 1) augment(r, new Uint8Array(estimateCount));
  const pairs: [number, number][] = [];
  owner.forEach((r, e) => {
    if (r >= 0) pairs.push([r, e]);
  });
  return pairs.sort((a, b) => a[0] - b[0]);
}

function timingMatches(r: TimedNote, e: TimedNote, opts: MatchOptions): boolean {
  const onset = opts.onsetTolerance ?? 0.05;
  if (Math.abs(e.time - r.time) > onset + EPS) return false;
  if (opts.withOffsets !== true) return true;
  const tolerance = Math.max(
    opts.offsetMin ?? 0.05,
    (opts.offsetRatio ?? 0.2) * (r.endTime - r.time),
  );
  return Math.abs(e.endTime - r.endTime) <= tolerance + EPS;
}

/** Note precision/recall/F1: same MIDI pitch, onset within 50 ms (and offset, when asked). */
export function noteScores(
  reference: readonly TimedNote[],
  estimate: readonly TimedNote[],
  opts: MatchOptions = {},
): Scores {
  const pairs = maximumMatching(reference.length, estimate.length, (i, j) => {
    const r = reference[i];
    const e = estimate[j];
    if (!r || !e) return false;
    return r.pitch === e.pitch && timingMatches(r, e, opts);
  });
  return scores(pairs.length, reference.length, estimate.length);
}

/** Tab precision/recall/F1: onset within 50 ms on the same string and fret. */
export function tabScores(
  reference: readonly PlacedNote[],
  estimate: readonly PlacedNote[],
  opts: MatchOptions = {},
): Scores {
  const pairs = maximumMatching(reference.length, estimate.length, (i, j) => {
    const r = reference[i];
    const e = estimate[j];
    if (!r || !e) return false;
    return r.string === e.string && r.fret === e.fret && timingMatches(r, e, opts);
  });
  return scores(pairs.length, reference.length, estimate.length);
}

/** Share of true notes given the true string and fret when the fingering stage gets true notes. */
export interface FingeringAccuracy {
  accuracy: number;
  correct: number;
  total: number;
  /** True notes the fingering stage left out (out of range or unplayable). */
  unplaced: number;
}

/**
 * String/fret accuracy with true pitches: `assigned` is the fingering stage's output for the
 * true notes; each true note is paired with the assigned note of the same onset (within 1 ms)
 * and pitch, and counts when string and fret agree. Unplaced true notes count as wrong.
 */
export function fingeringAccuracy(
  truth: readonly PlacedNote[],
  assigned: readonly PlacedNote[],
): FingeringAccuracy {
  const pairs = maximumMatching(truth.length, assigned.length, (i, j) => {
    const t = truth[i];
    const a = assigned[j];
    if (!t || !a) return false;
    return t.pitch === a.pitch && Math.abs(t.time - a.time) < 1e-3;
  });
  let correct = 0;
  for (const [i, j] of pairs) {
    const t = truth[i];
    const a = assigned[j];
    if (!t || !a) continue;
    if (t.string === a.string && t.fret === a.fret) correct += 1;
  }
  return {
    accuracy: truth.length === 0 ? 0 : correct / truth.length,
    correct,
    total: truth.length,
    unplaced: truth.length - pairs.length,
  };
}

const mod12 = (v: number) => ((v % 12) + 12) % 12;

/** Net semitones of a run of accidentals ("#", "b", "##"). */
function accidentals(marks: string): number {
  let shift = 0;
  for (const c of marks) shift += c === '#' ? 1 : -1;
  return shift;
}

/** Pitch class of a note name ("Eb", "F#", "Cb", "D##"), or null (harmony/spelling.ts). */
export const pitchClassOf = namePitchClass;

/** The engine's chord qualities (suffixes after the root). */
export const CHORD_QUALITIES = [
  '',
  'm',
  '5',
  '6',
  '7',
  'maj7',
  'm7',
  'sus2',
  'sus4',
  'dim',
  'aug',
  'add9',
] as const;
export type ChordQuality = (typeof CHORD_QUALITIES)[number];

/** A chord label reduced to root, quality (the engine's vocabulary) and bass pitch class. */
export interface ChordLabel {
  root: number;
  quality: ChordQuality;
  bass: number;
}

/** Harte shorthands (JAMS `chord` namespace) reduced to the engine's vocabulary. */
const HARTE: Record<string, ChordQuality> = {
  maj: '',
  min: 'm',
  '5': '5',
  maj6: '6',
  '7': '7',
  '9': '7',
  '11': '7',
  '13': '7',
  maj7: 'maj7',
  maj9: 'maj7',
  maj13: 'maj7',
  min7: 'm7',
  min9: 'm7',
  min11: 'm7',
  min13: 'm7',
  min6: 'm',
  minmaj7: 'm',
  sus2: 'sus2',
  sus4: 'sus4',
  dim: 'dim',
  dim7: 'dim',
  hdim7: 'dim',
  aug: 'aug',
};

/** Semitones of a Harte degree ("b3", "5", "#11"). */
function degreeSemitones(degree: string): number | null {
  const m = /^([#b]*)(\d+)$/.exec(degree.trim());
  if (!m?.[2]) return null;
  const n = Number(m[2]);
  const major = [0, 2, 4, 5, 7, 9, 11][(n - 1) % 7];
  if (major === undefined) return null;
  return mod12(major + accidentals(m[1] ?? ''));
}

/**
 * Parses a chord label: the engine's own ("Ebmaj7/G", "C#m", "F5", "Gadd9") or a JAMS Harte
 * label ("D#:maj7/1", "G#:maj6(*5)/3", "C:min", "N"). Returns null for no chord or a label
 * outside the vocabulary. Harte extensions are dropped, except an added 9 (or 2) on a major
 * triad without a seventh, which is add9.
 */
export function parseChordLabel(label: string): ChordLabel | null {
  const text = label.trim();
  if (text === '' || text === 'N' || text === 'X') return null;
  const harte = /^([A-G][#b]*)(?::([a-z0-9]*)(?:\(([^)]*)\))?)?(?:\/([#b]*\d+))?$/.exec(text);
  if (harte?.[1] && (text.includes(':') || /\/[#b]*\d+$/.test(text))) {
    const root = pitchClassOf(harte[1]);
    if (root === null) return null;
    const shorthand = harte[2] === undefined || harte[2] === '' ? 'maj' : harte[2];
    let quality = HARTE[shorthand];
    if (quality === undefined) return null;
    const extensions = (harte[3] ?? '').split(',').map((s) => s.trim());
    if (quality === '' && extensions.some((x) => x === '9' || x === '2')) quality = 'add9';
    const bassDegree = harte[4] === undefined ? 0 : degreeSemitones(harte[4]);
    if (bassDegree === null) return null;
    return { root, quality, bass: mod12(root + bassDegree) };
  }
  const ours = /^([A-G][#b]?)(maj7|m7|add9|sus2|sus4|dim|aug|m|5|6|7)?(?:\/([A-G][#b]?))?$/.exec(
    text,
  );
  if (!ours?.[1]) return null;
  const root = pitchClassOf(ours[1]);
  const bass = ours[3] === undefined ? root : pitchClassOf(ours[3]);
  if (root === null || bass === null) return null;
  return { root, quality: (ours[2] ?? '') as ChordQuality, bass };
}

/**
 * How strictly two chords must agree: root only, root and third, root and full quality, or root
 * and bass (the slash: "C/G" agrees with "C/G" and "Cmaj7/G", not with "C").
 */
export type ChordLevel = 'root' | 'majmin' | 'quality' | 'bass';

/** The third a quality implies: major, minor or none (sus, power chords). */
function third(quality: ChordQuality): 'maj' | 'min' | 'none' {
  if (quality === 'm' || quality === 'm7' || quality === 'dim') return 'min';
  if (quality === 'sus2' || quality === 'sus4' || quality === '5') return 'none';
  return 'maj';
}

/** Whether an estimated chord label agrees with a reference label at a level. */
export function chordsAgree(reference: ChordLabel, estimate: ChordLabel, level: ChordLevel) {
  if (reference.root !== estimate.root) return false;
  if (level === 'root') return true;
  if (level === 'bass') return reference.bass === estimate.bass;
  if (level === 'majmin') return third(reference.quality) === third(estimate.quality);
  return reference.quality === estimate.quality;
}

/** A chord over a time span (seconds). */
export interface ChordSpan {
  time: number;
  end_time: number;
  chord: string;
}

/** Time-weighted chord accuracy and the annotated seconds it was measured over. */
export interface ChordAccuracy {
  accuracy: number;
  /** Seconds of reference chords (labels in the vocabulary) the accuracy is measured over. */
  seconds: number;
}

/**
 * Time-weighted chord accuracy: the share of the reference's chord time (spans with a chord in
 * the vocabulary; "N" and unknown labels are left out) during which the estimate names a chord
 * that agrees at `level`. Where the estimate names nothing, it is wrong.
 */
export function chordAccuracy(
  reference: readonly ChordSpan[],
  estimate: readonly ChordSpan[],
  level: ChordLevel = 'quality',
): ChordAccuracy {
  let total = 0;
  let right = 0;
  const parsed = estimate.map((e) => ({ span: e, label: parseChordLabel(e.chord) }));
  for (const r of reference) {
    const want = parseChordLabel(r.chord);
    if (!want || r.end_time <= r.time) continue;
    total += r.end_time - r.time;
    // Estimates should not overlap; if they do, each instant counts once.
    const cuts = [r.time, r.end_time];
    for (const { span } of parsed) {
      if (span.time > r.time && span.time < r.end_time) cuts.push(span.time);
      if (span.end_time > r.time && span.end_time < r.end_time) cuts.push(span.end_time);
    }
    cuts.sort((a, b) => a - b);
    for (let k = 1; k < cuts.length; k += 1) {
      const from = cuts[k - 1] ?? 0;
      const to = cuts[k] ?? 0;
      if (to <= from) continue;
      const mid = (from + to) / 2;
      const hit = parsed.find(
        (p) =>
          p.span.time <= mid &&
          p.span.end_time > mid &&
          p.label !== null &&
          chordsAgree(want, p.label, level),
      );
      if (hit) right += to - from;
    }
  }
  return { accuracy: total === 0 ? 0 : right / total, seconds: total };
}

/** A key: tonic pitch class and mode. */
export interface KeyLabel {
  tonic: number;
  mode: 'major' | 'minor';
}

/** Parses "Eb major", "F# minor", "A:minor" or "Am"; null when it is not a key. */
export function parseKey(text: string): KeyLabel | null {
  const m = /^([A-G][#b]*)\s*(?::|\s)?\s*(major|minor|maj|min|m)?$/i.exec(text.trim());
  if (!m?.[1]) return null;
  const tonic = pitchClassOf(m[1]);
  if (tonic === null) return null;
  const mode = /^(minor|min|m)$/i.test(m[2] ?? '') ? 'minor' : 'major';
  return { tonic, mode };
}

/** Whether two key names denote the same key (enharmonic spellings agree: D# major = Eb major). */
export function keysAgree(reference: string, estimate: string): boolean {
  const r = parseKey(reference);
  const e = parseKey(estimate);
  return r !== null && e !== null && r.tonic === e.tonic && r.mode === e.mode;
}

/** Mean of numbers, or null for none. */
export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Precision, recall and F1 of one technique, with counts when known. */
export interface TechniqueCounts {
  precision: number;
  recall: number;
  f1: number;
  truePositives?: number;
  falsePositives?: number;
  falseNegatives?: number;
}

/**
 * Per-technique scores over several clips: counts summed, then precision, recall and F1 (micro
 * average); a technique without counts in every clip is averaged over the clips instead.
 */
export function combineTechniqueScores(
  list: readonly Readonly<Record<string, TechniqueCounts>>[],
): Record<string, TechniqueCounts> {
  const names = [...new Set(list.flatMap((s) => Object.keys(s)))];
  const out: Record<string, TechniqueCounts> = {};
  for (const name of names) {
    const all = list.map((s) => s[name]).filter((s): s is TechniqueCounts => s !== undefined);
    const counted = all.every(
      (s) =>
        s.truePositives !== undefined &&
        s.falsePositives !== undefined &&
        s.falseNegatives !== undefined,
    );
    if (counted) {
      const tp = all.reduce((a, s) => a + (s.truePositives ?? 0), 0);
      const fp = all.reduce((a, s) => a + (s.falsePositives ?? 0), 0);
      const fn = all.reduce((a, s) => a + (s.falseNegatives ?? 0), 0);
      const { precision, recall, f1 } = scores(tp, tp + fn, tp + fp);
      out[name] = {
        precision,
        recall,
        f1,
        truePositives: tp,
        falsePositives: fp,
        falseNegatives: fn,
      };
    } else {
      out[name] = {
        precision: mean(all.map((s) => s.precision)) ?? 0,
        recall: mean(all.map((s) => s.recall)) ?? 0,
        f1: mean(all.map((s) => s.f1)) ?? 0,
      };
    }
  }
  return out;
}

/** Sums of note-score counts over clips, re-scored (micro average). */
export function combineScores(list: readonly Scores[]): Scores {
  return scores(
    list.reduce((a, s) => a + s.matched, 0),
    list.reduce((a, s) => a + s.reference, 0),
    list.reduce((a, s) => a + s.estimated, 0),
  );
}

/** Time-weighted chord accuracy over clips. */
export function combineChordAccuracy(list: readonly ChordAccuracy[]): ChordAccuracy {
  const seconds = list.reduce((a, c) => a + c.seconds, 0);
  const right = list.reduce((a, c) => a + c.accuracy * c.seconds, 0);
  return { accuracy: seconds === 0 ? 0 : right / seconds, seconds };
}

/** Confidence thresholds the evaluation reports the review queue at (DOUBTFUL_CONFIDENCE among them). */
export const REVIEW_THRESHOLDS = [0.3, 0.4, 0.5, 0.6, 0.7] as const;

/**
 * The review queue as a detector of wrong notes, at each of REVIEW_THRESHOLDS: `notes` pitched
 * notes written, `wrong` of them not matched by the tab rule (same string and fret, onset within
 * 50 ms: wrong pitch, string or fret, or spurious), and per threshold `doubtful` (confidence below
 * it) and `doubtfulWrong` (both).
 */
export interface ReviewCounts {
  notes: number;
  wrong: number;
  doubtful: number[];
  doubtfulWrong: number[];
}

/**
 * Counts for the review queue: which estimated notes are wrong (no one-to-one tab match with a
 * reference note) and which of them the queue would flag. A note without a confidence (checked by
 * a person) is never doubtful.
 */
export function reviewCounts(
  reference: readonly PlacedNote[],
  estimate: readonly (PlacedNote & { confidence?: number })[],
  opts: MatchOptions = {},
): ReviewCounts {
  const pairs = maximumMatching(reference.length, estimate.length, (i, j) => {
    const r = reference[i];
    const e = estimate[j];
    if (!r || !e) return false;
    return r.string === e.string && r.fret === e.fret && timingMatches(r, e, opts);
  });
  const right = new Set(pairs.map(([, e]) => e));
  const doubtful = REVIEW_THRESHOLDS.map(() => 0);
  const doubtfulWrong = REVIEW_THRESHOLDS.map(() => 0);
  estimate.forEach((e, j) => {
    REVIEW_THRESHOLDS.forEach((t, k) => {
      if (e.confidence === undefined || e.confidence >= t) return;
      doubtful[k] = (doubtful[k] ?? 0) + 1;
      if (!right.has(j)) doubtfulWrong[k] = (doubtfulWrong[k] ?? 0) + 1;
    });
  });
  return { notes: estimate.length, wrong: estimate.length - right.size, doubtful, doubtfulWrong };
}

/** Sums review counts over clips. */
export function combineReviewCounts(list: readonly ReviewCounts[]): ReviewCounts {
  const sum = (pick: (c: ReviewCounts) => number[]) =>
    REVIEW_THRESHOLDS.map((_, k) => list.reduce((a, c) => a + (pick(c)[k] ?? 0), 0));
  return {
    notes: list.reduce((a, c) => a + c.notes, 0),
    wrong: list.reduce((a, c) => a + c.wrong, 0),
    doubtful: sum((c) => c.doubtful),
    doubtfulWrong: sum((c) => c.doubtfulWrong),
  };
}
