import {
  suggestionCounts,
  vibratoSplits,
  type SuggestionCounts,
  type VibratoSplits,
} from './corpus/technique-metrics.js';
import type { NoteEvent, UploadConfig } from '@riffscribe/core';
import { transcribeAudio, type Transcription } from '@riffscribe/engine';
import {
  beatCounts,
  type BeatCounts,
  detectChords,
  detectKey,
  downbeatTimes,
  medianTempo,
  midi,
  openPitch,
  placeNotes,
  SAMPLE_RATE,
  seconds,
  tempoAgrees,
} from '@riffscribe/engine/stages';
import {
  chordAccuracy,
  fingeringAccuracy,
  keysAgree,
  noteScores,
  reviewCounts,
  tabScores,
  type ChordAccuracy,
  type ChordSpan,
  type FingeringAccuracy,
  type PlacedNote,
  type ReviewCounts,
  type Scores,
  type TechniqueCounts,
} from './metrics.js';

/**
 * Scores of one clip: the whole pipeline on its audio against the truth, and the fingering,
 * chord and key stages fed the true notes.
 */

/** Per-technique scores of predicted notes against true ones (corpus/technique-metrics.ts). */
export type TechniqueScorer = (
  truth: NoteEvent[],
  predicted: NoteEvent[],
  setup: { tuning: readonly number[]; capo: number },
) => Record<string, TechniqueCounts>;

/** What the truth of one clip holds. */
export interface ClipTruth {
  name: string;
  source: 'dataset' | 'corpus';
  audio: Float32Array;
  config: UploadConfig;
  /** Pitched true notes with their strings and frets (dead notes left out). */
  notes: PlacedNote[];
  /** The true notes as events with technique flags (the corpus), for per-technique scores. */
  noteEvents: NoteEvent[] | null;
  /** True chords (GuitarSet: as performed), or null when the truth has none. */
  chords: ChordSpan[] | null;
  /** A second chord reference (GuitarSet: the lead sheet), reported alongside. */
  leadSheetChords: ChordSpan[] | null;
  key: string | null;
  /**
   * The true notes of strummed open chords (with or without a capo), for strum note recall, or
   * null when the clip's truth does not mark strums.
   */
  openStrumNotes: PlacedNote[] | null;
  /** What the truth says about beats and tempo, or null when nothing. */
  rhythm: RhythmTruth | null;
  /**
   * The guitar's sound where the clip says (SoundFont programs: 24-27 clean, 28 muted, 29-30
   * overdrive and distortion), for the note figures by sound; absent elsewhere.
   */
  sound?: GuitarSound;
}

/** How a SoundFont clip's guitar sounds (issue 20: driven guitars within 0.05 of clean). */
export const GUITAR_SOUNDS = ['clean', 'muted', 'driven'] as const;
export type GuitarSound = (typeof GUITAR_SOUNDS)[number];

/** The sound of a General MIDI guitar program. */
export function soundOfProgram(program: number): GuitarSound {
  if (program === 28) return 'muted';
  return program >= 29 ? 'driven' : 'clean';
}

/** True beats and tempo of a clip (GuitarSet JAMS; the rendered corpora know only a tempo). */
export interface RhythmTruth {
  /** Quarter notes a minute, or null. */
  bpm: number | null;
  /** Beat times, seconds, or null when the truth has no beats. */
  beats: number[] | null;
  /** Bar starts, seconds, or null. */
  downbeats: number[] | null;
}

/** The rhythm stage's grid scored against the truth (rhythm/metrics.ts). */
export interface RhythmResult {
  /** True tempo, or null. */
  bpm: number | null;
  /** The grid's median tempo, quarter notes a minute. */
  estimatedBpm: number;
  /** Within 4 % (acc1), or also at ×2, ×1/2, ×3, ×1/3 (acc2); null without a true tempo. */
  tempo: { acc1: boolean; acc2: boolean } | null;
  /** Beat and downbeat matches within ±70 ms, or null without true beats. */
  beats: BeatCounts | null;
  downbeats: BeatCounts | null;
  /** Beats a bar the grid chose (of its first bar). */
  perBar: number;
}

/** Root+quality, root+third and root-only chord accuracy, time-weighted. */
export interface ChordScores {
  quality: ChordAccuracy;
  majmin: ChordAccuracy;
  root: ChordAccuracy;
}

export interface ClipResult {
  name: string;
  source: 'dataset' | 'corpus';
  durationSeconds: number;
  runSeconds: number;
  /** The clip's capo (frets). */
  capo: number;
  /** The guitar's sound, where the clip says (ClipTruth.sound). */
  sound?: GuitarSound;
  note: Scores;
  noteWithOffsets: Scores;
  tab: Scores;
  /** String/fret accuracy with the true pitches and times given to the tab stage. */
  fingering: FingeringAccuracy;
  /** True notes the tab stage left out (no string reaches them, more than six at once). */
  fingeringDropped: number;
  chords: {
    pipeline: ChordScores;
    trueNotes: ChordScores;
    /**
     * Root and bass of the pipeline's chords against the chords named from the true notes (the
     * reference names carry no bass): a slash chord where the bass is not there, or none where
     * it is, is wrong.
     */
    bass: ChordAccuracy;
    leadSheetPipeline: ChordScores | null;
    leadSheetTrueNotes: ChordScores | null;
  } | null;
  key: {
    truth: string | null;
    pipeline: string;
    pipelineCorrect: boolean | null;
    trueNotes: string;
    trueNotesCorrect: boolean | null;
  };
  techniques: Record<string, TechniqueCounts> | null;
  /** True vibrato notes the pipeline re-struck (VibratoSplits), where the truth has techniques. */
  vibratoSplits: VibratoSplits | null;
  /** Techniques sent to the review queue instead of the tab, and how many were right. */
  suggestions: SuggestionCounts | null;
  /** The review queue (doubtful notes) as a detector of the wrong notes. */
  review: ReviewCounts;
  /**
   * The notes of strummed open chords against all the pipeline's notes (the note rule): only
   * the recall means something. Null when the truth marks no strums.
   */
  openStrum: Scores | null;
  /** Beats, bars and tempo of the pipeline's grid against the truth, or null without truth. */
  rhythm: RhythmResult | null;
}

function chordScores(reference: readonly ChordSpan[], estimate: readonly ChordSpan[]): ChordScores {
  return {
    quality: chordAccuracy(reference, estimate, 'quality'),
    majmin: chordAccuracy(reference, estimate, 'majmin'),
    root: chordAccuracy(reference, estimate, 'root'),
  };
}

/** The pitched notes of a transcription, placed (pitch from tuning, capo, string and fret). */
export function placedNotes(
  notes: readonly NoteEvent[],
  config: UploadConfig,
): (PlacedNote & { confidence?: number })[] {
  return notes
    .filter((n) => !n.mute)
    .map((n) => ({
      time: n.time,
      endTime: n.end_time,
      pitch: openPitch(config, n.string) + n.fret,
      string: n.string,
      fret: n.fret,
      ...(n.confidence === undefined ? {} : { confidence: n.confidence }),
    }));
}

/**
 * Runs the pipeline on a clip and scores it. `techniqueScores` (from the corpus metrics) scores
 * techniques when the truth has technique flags, matching notes by pitch so that a fingering
 * error does not count as a technique error. `now` reads a clock (milliseconds) for the run
 * time.
 */
export async function evaluateClip(
  truth: ClipTruth,
  techniqueScores: TechniqueScorer | null,
  now: () => number,
  options: { gateThreshold?: number } = {},
): Promise<{ result: ClipResult; transcription: Transcription }> {
  const started = now();
  const transcription = await transcribeAudio(truth.audio, truth.config, undefined, options);
  const runSeconds = (now() - started) / 1000;
  const estimate = placedNotes(transcription.notes, truth.config);

  // The pipeline's tab stage, given the true pitches and times.
  const given = await placeNotes(
    truth.notes.map((n) => ({
      time: seconds(n.time),
      endTime: seconds(n.endTime),
      pitch: midi(n.pitch),
      amplitude: 1,
      onset: 1,
      bend: [],
    })),
    truth.config,
  );
  const fingering = fingeringAccuracy(
    truth.notes,
    given.map((n) => ({
      time: n.time,
      endTime: n.endTime,
      pitch: n.pitch,
      string: n.string,
      fret: n.fret,
    })),
  );

  const trueChords = detectChords(truth.notes);
  const chords = truth.chords
    ? {
        pipeline: chordScores(truth.chords, transcription.chords),
        trueNotes: chordScores(truth.chords, trueChords),
        bass: chordAccuracy(trueChords, transcription.chords, 'bass'),
        leadSheetPipeline: truth.leadSheetChords
          ? chordScores(truth.leadSheetChords, transcription.chords)
          : null,
        leadSheetTrueNotes: truth.leadSheetChords
          ? chordScores(truth.leadSheetChords, trueChords)
          : null,
      }
    : null;

  const trueKey = detectKey(truth.notes);
  const pipelineKey = transcription.results.musical_key;
  const techniques =
    techniqueScores && truth.noteEvents
      ? techniqueScores(truth.noteEvents, transcription.notes, {
          tuning: truth.config.tuning,
          capo: truth.config.capo,
        })
      : null;

  return {
    transcription,
    result: {
      name: truth.name,
      source: truth.source,
      durationSeconds: truth.audio.length / SAMPLE_RATE,
      runSeconds,
      capo: truth.config.capo,
      ...(truth.sound === undefined ? {} : { sound: truth.sound }),
      note: noteScores(truth.notes, estimate),
      noteWithOffsets: noteScores(truth.notes, estimate, { withOffsets: true }),
      tab: tabScores(truth.notes, estimate),
      fingering,
      fingeringDropped: truth.notes.length - given.length,
      chords,
      key: {
        truth: truth.key,
        pipeline: pipelineKey,
        pipelineCorrect: truth.key === null ? null : keysAgree(truth.key, pipelineKey),
        trueNotes: trueKey,
        trueNotesCorrect: truth.key === null ? null : keysAgree(truth.key, trueKey),
      },
      techniques,
      vibratoSplits: truth.noteEvents
        ? vibratoSplits(truth.noteEvents, transcription.notes, {
            tuning: truth.config.tuning,
            capo: truth.config.capo,
          })
        : null,
      suggestions: truth.noteEvents
        ? suggestionCounts(truth.noteEvents, transcription.notes, {
            tuning: truth.config.tuning,
            capo: truth.config.capo,
          })
        : null,
      review: reviewCounts(truth.notes, estimate),
      openStrum:
        truth.openStrumNotes && truth.openStrumNotes.length > 0
          ? noteScores(truth.openStrumNotes, estimate)
          : null,
      rhythm: truth.rhythm ? rhythmResult(truth.rhythm, transcription) : null,
    },
  };
}

function rhythmResult(truth: RhythmTruth, transcription: Transcription): RhythmResult {
  const grid = transcription.beats;
  const estimatedBpm = medianTempo(grid.beats) * (4 / grid.beat_unit);
  const first = grid.downbeats[0] ?? 0;
  return {
    bpm: truth.bpm,
    estimatedBpm,
    tempo: truth.bpm === null ? null : tempoAgrees(truth.bpm, estimatedBpm),
    beats: truth.beats ? beatCounts(truth.beats, grid.beats) : null,
    downbeats: truth.downbeats ? beatCounts(truth.downbeats, downbeatTimes(grid)) : null,
    perBar: (grid.downbeats[1] ?? first + 4) - first,
  };
}
