import { GUITAR_SOUNDS, type ClipResult, type GuitarSound } from './evaluate.js';
import { type BeatCounts, beatScores } from '@riffscribe/engine/stages';
import { DOUBTFUL_CONFIDENCE } from '@riffscribe/core';
import {
  combineSuggestionCounts,
  combineVibratoSplits,
  type SuggestionCounts,
  type VibratoSplits,
} from './corpus/technique-metrics.js';
import {
  REVIEW_THRESHOLDS,
  combineChordAccuracy,
  combineReviewCounts,
  combineScores,
  combineTechniqueScores,
  type ChordAccuracy,
  type ReviewCounts,
  type Scores,
  type TechniqueCounts,
} from './metrics.js';

/** Summaries and the printed tables of `npm run eval` (pure: strings in, strings out). */

/** Totals over a set of clips: counts summed (micro averages), chords time-weighted. */
export interface Summary {
  clips: number;
  note: Scores;
  noteWithOffsets: Scores;
  tab: Scores;
  fingering: { accuracy: number; correct: number; total: number };
  chordsPipeline: ChordAccuracy | null;
  /** The pipeline's chords, root only. */
  chordsPipelineRoot: ChordAccuracy | null;
  chordsTrueNotes: ChordAccuracy | null;
  /** The pipeline's chords, root and bass, against the chords of the true notes. */
  chordsBass: ChordAccuracy | null;
  keysPipeline: { correct: number; judged: number };
  keysTrueNotes: { correct: number; judged: number };
  techniques: Record<string, TechniqueCounts> | null;
  /** True vibrato notes re-struck, summed over the clips whose truth has techniques. */
  vibratoSplits: VibratoSplits | null;
  /** Techniques the gate sent to the review queue, summed over the clips with technique truth. */
  suggestions: SuggestionCounts | null;
  review: ReviewCounts;
  /** Strummed open-chord notes found (recall is what counts), all clips and capo clips only. */
  openStrum: Scores | null;
  openStrumCapo: Scores | null;
  /** Note scores of the clips of each guitar sound (SoundFont clips; empty elsewhere). */
  noteBySound: Partial<Record<GuitarSound, Scores>>;
  /** Beat F1 over the clips with true beats (matches summed), or null when none has them. */
  beat: BeatSummary | null;
  /** Downbeat F1 likewise. */
  downbeat: BeatSummary | null;
  /** Share of the clips with a true tempo whose grid's median tempo is right (acc1, acc2). */
  tempo: { acc1: number; acc2: number; judged: number } | null;
}

/** Beat matches summed over clips, with their precision, recall and F1. */
export interface BeatSummary extends BeatCounts {
  precision: number;
  recall: number;
  f1: number;
  clips: number;
}

function beatSummary(list: readonly (BeatCounts | null | undefined)[]): BeatSummary | null {
  const present = list.filter((x): x is BeatCounts => x !== null && x !== undefined);
  if (present.length === 0) return null;
  const counts = {
    reference: present.reduce((a, c) => a + c.reference, 0),
    estimate: present.reduce((a, c) => a + c.estimate, 0),
    matched: present.reduce((a, c) => a + c.matched, 0),
  };
  return { ...counts, ...beatScores(counts), clips: present.length };
}

function tempoSummary(results: readonly ClipResult[]): Summary['tempo'] {
  const judged = results
    .map((r) => r.rhythm?.tempo)
    .filter((t): t is { acc1: boolean; acc2: boolean } => t !== null && t !== undefined);
  if (judged.length === 0) return null;
  return {
    acc1: judged.filter((t) => t.acc1).length / judged.length,
    acc2: judged.filter((t) => t.acc2).length / judged.length,
    judged: judged.length,
  };
}

function combineOptional(list: readonly (Scores | null)[]): Scores | null {
  const present = list.filter((x): x is Scores => x !== null);
  return present.length === 0 ? null : combineScores(present);
}

export function summarise(results: readonly ClipResult[]): Summary {
  const withChords = results.filter((r) => r.chords !== null);
  const correct = results.reduce((a, r) => a + r.fingering.correct, 0);
  const total = results.reduce((a, r) => a + r.fingering.total, 0);
  const judged = results.filter((r) => r.key.truth !== null);
  const techniques = results
    .map((r) => r.techniques)
    .filter((t): t is Record<string, TechniqueCounts> => t !== null);
  return {
    clips: results.length,
    note: combineScores(results.map((r) => r.note)),
    noteWithOffsets: combineScores(results.map((r) => r.noteWithOffsets)),
    tab: combineScores(results.map((r) => r.tab)),
    fingering: { accuracy: total === 0 ? 0 : correct / total, correct, total },
    chordsPipeline:
      withChords.length === 0
        ? null
        : combineChordAccuracy(withChords.map((r) => r.chords?.pipeline.quality ?? zeroChords)),
    chordsPipelineRoot:
      withChords.length === 0
        ? null
        : combineChordAccuracy(withChords.map((r) => r.chords?.pipeline.root ?? zeroChords)),
    chordsTrueNotes:
      withChords.length === 0
        ? null
        : combineChordAccuracy(withChords.map((r) => r.chords?.trueNotes.quality ?? zeroChords)),
    chordsBass:
      withChords.length === 0
        ? null
        : combineChordAccuracy(withChords.map((r) => r.chords?.bass ?? zeroChords)),
    keysPipeline: {
      correct: judged.filter((r) => r.key.pipelineCorrect === true).length,
      judged: judged.length,
    },
    keysTrueNotes: {
      correct: judged.filter((r) => r.key.trueNotesCorrect === true).length,
      judged: judged.length,
    },
    techniques: techniques.length === 0 ? null : combineTechniqueScores(techniques),
    vibratoSplits: (() => {
      const list = results
        .map((r) => r.vibratoSplits)
        .filter((v): v is VibratoSplits => v !== null);
      return list.length === 0 ? null : combineVibratoSplits(list);
    })(),
    suggestions: (() => {
      const list = results
        .map((r) => r.suggestions)
        .filter((v): v is SuggestionCounts => v !== null);
      return list.length === 0 ? null : combineSuggestionCounts(list);
    })(),
    review: combineReviewCounts(results.map((r) => r.review)),
    openStrum: combineOptional(results.map((r) => r.openStrum)),
    openStrumCapo: combineOptional(results.filter((r) => r.capo > 0).map((r) => r.openStrum)),
    noteBySound: Object.fromEntries(
      GUITAR_SOUNDS.flatMap((sound) => {
        const list = results.filter((r) => r.sound === sound).map((r) => r.note);
        return list.length === 0 ? [] : [[sound, combineScores(list)]];
      }),
    ),
    beat: beatSummary(results.map((r) => r.rhythm?.beats)),
    downbeat: beatSummary(results.map((r) => r.rhythm?.downbeats)),
    tempo: tempoSummary(results),
  };
}

const zeroChords: ChordAccuracy = { accuracy: 0, seconds: 0 };

const f3 = (x: number) => x.toFixed(3);

/** Left-aligned columns separated by two spaces. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function keyCell(value: string, correct: boolean | null): string {
  const shown = value === '' ? '(none)' : value;
  return correct === null ? shown : `${shown} ${correct ? '(right)' : '(wrong)'}`;
}

const HEADER = [
  'clip',
  'notes',
  'note P',
  'note R',
  'note F1',
  'F1+off',
  'tab F1',
  's/f acc*',
  'chords**',
  'chords true***',
  'key (pipeline)',
  'key (true notes)',
  'key truth',
];

function clipRow(r: ClipResult): string[] {
  const chords = r.chords
    ? [f3(r.chords.pipeline.quality.accuracy), f3(r.chords.trueNotes.quality.accuracy)]
    : ['-', '-'];
  return [
    r.name,
    String(r.note.reference),
    f3(r.note.precision),
    f3(r.note.recall),
    f3(r.note.f1),
    f3(r.noteWithOffsets.f1),
    f3(r.tab.f1),
    f3(r.fingering.accuracy),
    ...chords,
    keyCell(r.key.pipeline, r.key.pipelineCorrect),
    keyCell(r.key.trueNotes, r.key.trueNotesCorrect),
    r.key.truth ?? '-',
  ];
}

function totalRow(label: string, s: Summary): string[] {
  return [
    label,
    String(s.note.reference),
    f3(s.note.precision),
    f3(s.note.recall),
    f3(s.note.f1),
    f3(s.noteWithOffsets.f1),
    f3(s.tab.f1),
    f3(s.fingering.accuracy),
    s.chordsPipeline ? f3(s.chordsPipeline.accuracy) : '-',
    s.chordsTrueNotes ? f3(s.chordsTrueNotes.accuracy) : '-',
    `${s.keysPipeline.correct}/${s.keysPipeline.judged} right`,
    `${s.keysTrueNotes.correct}/${s.keysTrueNotes.judged} right`,
    '',
  ];
}

/** The clip table of one source, with a total row when there are several clips. */
export function clipTable(results: readonly ClipResult[], totalLabel: string): string {
  const rows = [HEADER, ...results.map(clipRow)];
  if (results.length > 1) rows.push(totalRow(totalLabel, summarise(results)));
  return table(rows);
}

/** Chord accuracy at three strictness levels per clip with chords. */
export function chordDetailTable(results: readonly ClipResult[]): string {
  const rows: string[][] = [
    ['clip', 'reference', 'notes from', 'root+quality', 'root+third', 'root', 'seconds'],
  ];
  for (const r of results) {
    if (!r.chords) continue;
    const lines: [string, string, typeof r.chords.pipeline | null][] = [
      ['performed', 'pipeline', r.chords.pipeline],
      ['performed', 'true notes', r.chords.trueNotes],
      ['lead sheet', 'pipeline', r.chords.leadSheetPipeline],
      ['lead sheet', 'true notes', r.chords.leadSheetTrueNotes],
    ];
    for (const [reference, from, s] of lines) {
      if (!s) continue;
      rows.push([
        r.name,
        r.source === 'corpus' ? 'rendered' : reference,
        from,
        f3(s.quality.accuracy),
        f3(s.majmin.accuracy),
        f3(s.root.accuracy),
        s.quality.seconds.toFixed(1),
      ]);
      if (r.source === 'corpus' && reference === 'performed' && from === 'true notes') break;
    }
  }
  return table(rows);
}

/** Per-technique precision, recall and F1 with their counts. */
export function techniqueTable(scores: Readonly<Record<string, TechniqueCounts>>): string {
  const rows: string[][] = [['technique', 'P', 'R', 'F1', 'TP', 'FP', 'FN']];
  for (const [name, s] of Object.entries(scores)) {
    rows.push([
      name,
      f3(s.precision),
      f3(s.recall),
      f3(s.f1),
      s.truePositives === undefined ? '-' : String(s.truePositives),
      s.falsePositives === undefined ? '-' : String(s.falsePositives),
      s.falseNegatives === undefined ? '-' : String(s.falseNegatives),
    ]);
  }
  return table(rows);
}

/**
 * Corpora side by side (one column each, '-' where a corpus has nothing to score): clips, note
 * and tab scores, chord root and root+quality accuracy, strummed open-chord note recall, then
 * F1 with precision/recall and the number of true occurrences for each technique.
 */
export function comparisonTable(
  columns: readonly { label: string; summary: Summary | null }[],
): string {
  const cell = (f: (s: Summary) => string | null) =>
    columns.map((c) => (c.summary === null ? '-' : (f(c.summary) ?? '-')));
  const rows: string[][] = [
    ['', ...columns.map((c) => c.label)],
    ['clips', ...cell((s) => String(s.clips))],
    ['true notes', ...cell((s) => String(s.note.reference))],
    ['note P', ...cell((s) => f3(s.note.precision))],
    ['note R', ...cell((s) => f3(s.note.recall))],
    ['note F1', ...cell((s) => f3(s.note.f1))],
    ['tab F1', ...cell((s) => f3(s.tab.f1))],
    [
      'chord root',
      ...cell((s) => (s.chordsPipelineRoot ? f3(s.chordsPipelineRoot.accuracy) : null)),
    ],
    [
      'chord root+quality',
      ...cell((s) => (s.chordsPipeline ? f3(s.chordsPipeline.accuracy) : null)),
    ],
    ['chord root+bass', ...cell((s) => (s.chordsBass ? f3(s.chordsBass.accuracy) : null))],
    [
      'open-chord strum note R',
      ...cell((s) =>
        s.openStrum ? `${f3(s.openStrum.recall)} (n${s.openStrum.reference})` : null,
      ),
    ],
    [
      '  with a capo',
      ...cell((s) =>
        s.openStrumCapo ? `${f3(s.openStrumCapo.recall)} (n${s.openStrumCapo.reference})` : null,
      ),
    ],
    ...GUITAR_SOUNDS.map((sound) => [
      `  note F1, ${sound} guitar`,
      ...cell((s) => {
        const sc = s.noteBySound[sound];
        return sc ? `${f3(sc.f1)} (n${sc.reference})` : null;
      }),
    ]),
  ];
  rows.push(
    ['beat F1', ...cell((s) => (s.beat ? `${f3(s.beat.f1)} (n${s.beat.reference})` : null))],
    [
      'downbeat F1',
      ...cell((s) => (s.downbeat ? `${f3(s.downbeat.f1)} (n${s.downbeat.reference})` : null)),
    ],
    [
      'tempo acc/acc2',
      ...cell((s) =>
        s.tempo ? `${f3(s.tempo.acc1)}/${f3(s.tempo.acc2)} (n${s.tempo.judged})` : null,
      ),
    ],
  );
  const names = new Set<string>();
  for (const c of columns)
    for (const name of Object.keys(c.summary?.techniques ?? {})) names.add(name);
  for (const name of names) {
    rows.push([
      `${name} F1 (P/R n)`,
      ...cell((s) => {
        const t = s.techniques?.[name];
        if (t === undefined) return null;
        const n = (t.truePositives ?? 0) + (t.falseNegatives ?? 0);
        if (n === 0 && (t.falsePositives ?? 0) === 0) return null;
        return `${f3(t.f1)} (${t.precision.toFixed(2)}/${t.recall.toFixed(2)} n${n})`;
      }),
    ]);
  }
  return table(rows);
}

/**
 * The review queue as a detector of wrong notes, one row per confidence threshold: precision
 * (doubtful notes that are wrong), recall (wrong notes that are doubtful), the share of notes
 * flagged. The row of DOUBTFUL_CONFIDENCE (what the player uses) is starred.
 */
/**
 * Vibrato splits per corpus (issue 39): true vibrato notes written as more than one note of
 * their pitch (a swell of the level read as a new pick), and the extra notes.
 */
export function vibratoSplitTable(
  rows: readonly { label: string; splits: VibratoSplits | null }[],
): string {
  const body = rows
    .filter((r) => r.splits !== null)
    .map(({ label, splits }) => {
      const s = splits ?? { notes: 0, split: 0, extra: 0 };
      return [
        label,
        String(s.notes),
        String(s.split),
        s.notes === 0 ? '-' : f3(s.split / s.notes),
        String(s.extra),
      ];
    });
  return table([['corpus', 'vibrato notes', 'split', 'share split', 'extra notes'], ...body]);
}

/**
 * The technique gate's suggestions per corpus and technique (issue 39): marks sent to the review
 * queue instead of the tab, and the share of them the truth has (low: the gate saved precision;
 * high: it cost recall).
 */
export function suggestionTable(
  rows: readonly { label: string; suggestions: SuggestionCounts | null }[],
): string {
  const body = rows.flatMap(({ label, suggestions }) =>
    Object.entries(suggestions ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([tech, c]) => [
        label,
        tech,
        String(c.suggested),
        String(c.right),
        c.suggested === 0 ? '-' : f3(c.right / c.suggested),
      ]),
  );
  return table([['corpus', 'technique', 'suggested', 'right', 'share right'], ...body]);
}

export function reviewTable(c: ReviewCounts): string {
  const rows: string[][] = [
    ['doubtful if confidence <', 'precision', 'recall', 'flagged', 'doubtful', 'wrong found'],
  ];
  REVIEW_THRESHOLDS.forEach((t, k) => {
    const doubtful = c.doubtful[k] ?? 0;
    const hit = c.doubtfulWrong[k] ?? 0;
    rows.push([
      `${t.toFixed(2)}${t === DOUBTFUL_CONFIDENCE ? ' *' : ''}`,
      doubtful === 0 ? '-' : f3(hit / doubtful),
      c.wrong === 0 ? '-' : f3(hit / c.wrong),
      c.notes === 0 ? '-' : f3(doubtful / c.notes),
      String(doubtful),
      `${String(hit)}/${String(c.wrong)}`,
    ]);
  });
  return table(rows);
}

/** Per clip: true and estimated tempo, beat and downbeat F1, the meter chosen. */
export function rhythmTable(results: readonly ClipResult[]): string {
  const rows: string[][] = [
    ['clip', 'true BPM', 'grid BPM', 'tempo', 'beat F1', 'downbeat F1', 'beats a bar'],
  ];
  for (const r of results) {
    const m = r.rhythm;
    if (!m) continue;
    const one = (c: BeatCounts | null) => (c ? f3(beatScores(c).f1) : '-');
    rows.push([
      r.name,
      m.bpm === null ? '-' : m.bpm.toFixed(1),
      m.estimatedBpm.toFixed(1),
      m.tempo === null ? '-' : m.tempo.acc1 ? 'right' : m.tempo.acc2 ? 'octave' : 'wrong',
      one(m.beats),
      one(m.downbeats),
      String(m.perBar),
    ]);
  }
  const s = summarise(results);
  rows.push([
    'all',
    '',
    '',
    s.tempo ? `${f3(s.tempo.acc1)}/${f3(s.tempo.acc2)}` : '-',
    s.beat ? f3(s.beat.f1) : '-',
    s.downbeat ? f3(s.downbeat.f1) : '-',
    '',
  ]);
  return table(rows);
}

export const FOOTNOTES = [
  'note P/R/F1: onset within 50 ms, exact MIDI pitch, one-to-one matching (mir_eval rule); F1+off also needs the offset within max(50 ms, 20% of the duration).',
  'tab F1: onset within 50 ms on the same string and fret.',
  '* s/f acc: string/fret accuracy when the tab stage is given the true pitches and times.',
  '** chords: time-weighted root+quality accuracy of the pipeline where the truth has chords (GuitarSet: the performed chords).',
  '*** chords true: the same with the true notes given to the chord stage.',
  'chord root+bass: time-weighted share of the chords named from the true notes whose root and bass (the slash of "C/G") the pipeline names too: a slash chord where the bass is not there is wrong, and so is a missing one.',
  'open-chord strum note R: the notes of strummed chord shapes of four strings or more with an open string (with or without a capo) found by the note rule.',
  'technique F1 (P/R n): notes matched by onset (50 ms) and pitch, dead notes by onset; n = true occurrences (corpus/technique-metrics.ts).',
  'beat F1 / downbeat F1: a grid beat (bar start) matches a true one within ±70 ms, one to one (mir_eval.beat.f_measure), matches summed over clips; true beats come from the real excerpts (GuitarSet JAMS beat_position) and the rhythm corpora (below); the string-model and SoundFont corpora string phrases together after random gaps, so they have a nominal tempo but no beat grid.',
  "tempo acc/acc2: share of clips whose grid median tempo is within 4 % of the true (rendered: the recipe's nominal) tempo; acc2 also at x2, x1/2, x3, x1/3.",
  'review queue: a pitched note is wrong when no true note has its string and fret with an onset within 50 ms (wrong pitch, string or fret, or spurious); * marks the player threshold.',
];
