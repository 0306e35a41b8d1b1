import type { NoteEvent, UploadConfig } from '@riffscribe/core';
import { checkDuration, streamAudio, type DeclaredInput } from './adapters/media.js';
import { loadModel, ModelStream, runModel, windowCount } from './adapters/model.js';
import { SpilledAudio, SpilledRows, SpilledWords } from './adapters/spill.js';
import { EngineError } from './errors.js';
import { detectBeats } from './rhythm/beats.js';
import { extractNotes } from './notes/extract.js';
import { defaultNoteOptions } from './notes/options.js';
import type {
  EngineStage,
  ProgressListener,
  ResultsFile,
  TranscribeOptions,
  Transcription,
} from './pipeline-types.js';
import { fingerNotes, loadFingeringModel } from './adapters/fingering-model.js';
import { loadRefiner, refineOutput, type RefinedOutput } from './adapters/refiner-model.js';
import { gateTechniques, loadTechniqueGate } from './adapters/technique-model.js';
import { strumsOf } from './tab/groups.js';
import { guitarClassOfType } from './tab/learned/features.js';
import { guitarSetup } from './guitar.js';
import { withConfidence } from './tab/confidence.js';
import { keepHandInPosition } from './tab/hand-position.js';
import { oneNotePerString } from './tab/strings.js';
import { keepEventsInPosition } from './techniques/in-position.js';
import { techniqueStage } from './techniques/detect.js';
import { glideLinks, type GlideLink } from './techniques/glide-links.js';
import type { Follow } from './tab/learned/decode.js';
import { positionsOf } from './tab/fingering.js';
import { CONTOUR_BINS } from './notes/posteriorgram.js';
import { clipRms } from './techniques/spectrum.js';
import type { AttackAnalysis } from './techniques/attacks.js';
import {
  analyseAttacksAside,
  nameHarmonyAside,
  startSideThread,
  type Harmony,
} from './adapters/aside.js';
import type { ClipAudio, DetectedNote, GuitarSetup, ModelOutput, TabNote } from './types.js';
import { fret, FRAME_RATE, SAMPLE_RATE, stringNumber } from './units.js';

export const ENGINE_VERSION = '1.0.0';

/** Overall percent at the start of each stage; the model's own progress fills `transcribing`. */
const STAGE_START: Record<EngineStage, number> = {
  probing: 0,
  extracting_audio: 4,
  transcribing: 10,
  assigning_tabs: 80,
  detecting_techniques: 86,
  detecting_chords: 94,
};

const STAGE_MESSAGE: Record<EngineStage, string> = {
  probing: 'Checking the video',
  extracting_audio: 'Extracting the audio',
  transcribing: 'Listening for notes',
  assigning_tabs: 'Choosing strings and frets',
  detecting_techniques: 'Finding bends, slides, hammer-ons and pull-offs',
  detecting_chords: 'Naming chords and the key',
};

/** Decoder time limit before the clip's own length is added (see transcribe). */
const DECODE_TIMEOUT_MS = 180_000;

/** RMS below this (about -60 dBFS) is treated as silence. */
const SILENCE_RMS = 0.001;

export { guitarSetup };

function reporter(onProgress: ProgressListener | undefined) {
  let last = -1;
  return (stage: EngineStage, fraction = 0) => {
    const start = STAGE_START[stage];
    const stages = Object.values(STAGE_START);
    const next = stages.find((p) => p > start) ?? 100;
    const percent = Math.max(last, Math.round(start + (next - start) * fraction));
    last = percent;
    onProgress?.({ stage, percent, message: STAGE_MESSAGE[stage] });
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EngineError('cancelled', 'The transcription was cancelled.');
}

/** The notes of a lesson, with the stages' intermediate results. */
export interface LessonNotes {
  /** The notes stage's notes (pitch and timing), also what chords and key are named from. */
  detected: DetectedNote[];
  /** The same notes placed on strings and frets. */
  tab: TabNote[];
  /** The lesson's notes with their techniques, in the spec's format. */
  notes: NoteEvent[];
}

export interface LessonNoteOptions {
  /** Places the detected notes instead of the tab stage (measurement: the true strings). */
  place?: (detected: readonly DetectedNote[]) => TabNote[] | Promise<TabNote[]>;
  /** Called before the tab and the techniques stages (progress, cancellation). */
  onStage?: (stage: 'assigning_tabs' | 'detecting_techniques') => void;
  /** Called with the notes as soon as they are extracted (work that needs only them can start). */
  onDetected?: (detected: readonly DetectedNote[]) => void;
  /**
   * The technique gate's threshold (adapters/technique-model.ts): undefined for the model card's,
   * 0 to keep every mark the rules wrote (measurement, training data).
   */
  gateThreshold?: number;
}

/**
 * Loads the note model, the note refiner, the fingering model and the technique gate once per
 * process (later callers share them), and starts the side thread (adapters/aside.ts).
 * Call at start-up to keep model loading out of the first transcription.
 */
export async function loadModels(): Promise<void> {
  await Promise.all([
    loadModel(),
    loadFingeringModel(),
    loadRefiner(),
    loadTechniqueGate(),
    startSideThread(),
  ]);
}

/**
 * The tab stage: string and fret for each detected note from the learned fingering model
 * (adapters/fingering-model.ts: scores learned from human tabs, decoded under the hand's rules),
 * then one note per string. The notes of a strum reach the model as one chord (tabs write a
 * chord's notes at one time, a recording spreads them over 20-80 ms: tab/groups.ts); a group of
 * more than six keeps its six strongest; a note no string reaches is left out. Each note keeps
 * the model's probability of its string (`fingeringProbability`) for its confidence. `links`
 * (techniques/glide-links.ts, by index in `detected`): a note the clip glides to stays on the
 * string of the note it glides from, both fretted where a fret can play them (decode.ts Follow).
 */
export async function placeNotes(
  detected: readonly DetectedNote[],
  config: UploadConfig,
  links: ReadonlyMap<number, GlideLink> = new Map(),
): Promise<TabNote[]> {
  const setup = guitarSetup(config);
  const { groups, time } = strumsOf(detected);
  const notes = groups.flat().flatMap((i) => {
    const note = detected[i];
    return note ? [{ index: i, note, time: time[i] ?? note.time }] : [];
  });
  // Glide links (techniques/glide-links.ts) by position in `notes`: the second note on the
  // first's string, both fretted where a fret can play them.
  const at = new Map(notes.map(({ index }, k) => [index, k]));
  const follows = new Map<number, Follow>();
  const allowed = new Map<number, number[]>();
  const fretted = (pitch: number) =>
    positionsOf(pitch, setup)
      .filter(([, f]) => f > 0)
      .map(([s]) => s);
  for (const [i, { from: j, slide }] of links) {
    const k = at.get(i);
    const m = at.get(j);
    if (k === undefined || m === undefined) continue;
    follows.set(k, { of: m, slide });
    for (const [index, input] of [
      [k, i],
      [m, j],
    ] as const) {
      const strings = fretted(detected[input]?.pitch ?? -1);
      if (strings.length > 0) allowed.set(index, strings);
    }
  }
  const fingered = await fingerNotes(
    notes.map(({ note, time }) => ({ time, pitch: note.pitch })),
    { tuning: setup.tuning, capo: setup.capo, maxFret: setup.frets },
    guitarClassOfType(config.guitar_type),
    undefined,
    allowed,
    follows,
    config.hand_position,
  );
  const tab: TabNote[] = [];
  // Index in `tab` of each note of `notes` that got a string (for the glide runs below).
  const placed = new Map<number, number>();
  notes.forEach(({ note }, i) => {
    const f = fingered[i];
    if (f?.string == null || f.fret == null) return;
    placed.set(i, tab.length);
    tab.push({
      ...note,
      string: stringNumber(f.string),
      fret: fret(f.fret),
      fingeringProbability: f.confidence,
      stringProbabilities: f.probabilities,
      ...(follows.has(i) ? { glidesIn: true } : {}),
    });
  });
  return oneNotePerString(keepTabInPosition(tab, setup, glideRuns(follows, placed)));
}

/** Notes the clip glides through (follows: note -> the note it continues), as runs in `tab`. */
function glideRuns(
  follows: ReadonlyMap<number, Follow>,
  placed: ReadonlyMap<number, number>,
): number[][] {
  const runOf = new Map<number, number[]>();
  for (const [k, { of: m }] of [...follows].sort((a, b) => a[1].of - b[1].of)) {
    const to = placed.get(k);
    const from = placed.get(m);
    if (to === undefined || from === undefined) continue;
    const run = runOf.get(from) ?? [from];
    run.push(to);
    runOf.set(from, run);
    runOf.set(to, run);
  }
  return [...new Set(runOf.values())];
}

/**
 * The tab with the hand's position rule applied (tab/hand-position.ts): a note the model put out
 * of the hand's reach moves to the string in reach it thinks likeliest, and takes that string's
 * probability.
 */
function keepTabInPosition(
  tab: readonly TabNote[],
  setup: GuitarSetup,
  runs: readonly (readonly number[])[] = [],
): TabNote[] {
  return keepHandInPosition(tab, setup, {
    pitchOf: (n) => n.pitch,
    runs,
    preference: (n, s) => n.stringProbabilities?.[s - 1],
    moveTo: (n, s, f) => ({
      ...n,
      string: stringNumber(s),
      fret: fret(f),
      ...(n.stringProbabilities ? { fingeringProbability: n.stringProbabilities[s - 1] ?? 0 } : {}),
    }),
  });
}

/**
 * From the model's output to the lesson's notes: notes (notes/extract.ts) without those
 * starting too close to the end, tab (placeNotes), techniques, and each note's confidence
 * (tab/confidence.ts). `output` is null for a silent clip. transcribeAudio and the corpus
 * measurement both use this, so they score the same notes.
 */
export async function lessonNotes(
  output: ModelOutput | null,
  audio: ClipAudio,
  config: UploadConfig,
  options: LessonNoteOptions = {},
): Promise<LessonNotes> {
  // Basic Pitch's onset and note activations refined (notes/refine.ts) before extraction.
  const refined = output ? await refineOutput(output) : null;
  // The clip's attack analysis reads only the clip: it runs on another thread while this one
  // extracts and places the notes (after the refiner, whose runtime has both cores).
  const analysing = audio.length > 0 ? analyseAttacksAside(audio) : undefined;
  try {
    return await notesOfLesson(refined, audio, config, options, analysing);
  } finally {
    // The thread reads the clip (a long one through its file): done before the caller closes it.
    await analysing?.catch(() => undefined);
  }
}

async function notesOfLesson(
  refined: RefinedOutput | null,
  audio: ClipAudio,
  config: UploadConfig,
  options: LessonNoteOptions,
  analysing: Promise<AttackAnalysis> | undefined,
): Promise<LessonNotes> {
  const setup = guitarSetup(config);
  const duration = audio.length / SAMPLE_RATE;
  // A note that starts closer to the end of the audio than the minimum note length cannot be
  // heard whole: at the edge the model sees the sound stop, not a new note.
  const lastStart = duration - config.minimum_note_length / FRAME_RATE;
  let detected: DetectedNote[];
  try {
    detected = refined
      ? extractNotes(refined.output, defaultNoteOptions(setup, config)).filter(
          (n) => n.time < lastStart,
        )
      : [];
  } finally {
    refined?.close();
  }
  options.onDetected?.(detected);
  options.onStage?.('assigning_tabs');
  const tab = options.place
    ? await options.place(detected)
    : await placeNotes(detected, config, glideLinks(detected, audio));
  options.onStage?.('detecting_techniques');
  // The technique stage can move a note (a slur kept on one string): the hand's position rule
  // again, then each note's confidence (the player's review queue) from what the model heard
  // and how sure the fingering model was of the string the note ended on.
  const { events, attacks } = techniqueStage(tab, audio, setup, await analysing);
  const placed = withConfidence(keepEventsInPosition(events, tab, setup), tab, setup);
  // Precision first: a mark the technique gate doubts goes to the review queue, not the tab.
  const notes =
    options.gateThreshold === 0
      ? placed
      : await gateTechniques(placed, attacks, setup, options.gateThreshold);
  return { detected, tab, notes };
}

/** Decoder time limit when the clip's length is not known (no probe, no length in its header). */
const UNKNOWN_LENGTH_SECONDS = 3600;

/**
 * Transcribes a video or audio file in one media pass: ffmpeg decodes it to mono 22050 Hz and
 * the note model runs as the audio comes, a batch of windows as soon as the decoder has produced
 * it (the decoder waits for the model, so undecoded audio never piles up), then the stages after
 * the model run on the whole clip. The clip's length comes from `options.probed` (what the
 * caller's probe found) or else from the decoder's own description of its input, before any
 * audio is used (no separate probe: streamAudio's onInput); either is checked against
 * `options.maxDurationSeconds`, and the decoded audio is held to it whatever the header claims.
 * The notes come out exactly as `transcribeAudio` gives them for the decoded clip: the model's
 * batches do not depend on how the audio arrives.
 * Throws EngineError for media it cannot use (empty, unreadable, no audio, too long).
 */
export async function transcribe(
  file: string,
  config: UploadConfig,
  onProgress?: ProgressListener,
  options: TranscribeOptions = {},
): Promise<Transcription> {
  const report = reporter(onProgress);
  const { signal } = options;
  report('probing');
  let windows: number | undefined;
  /** The clip's length is known (or known to be unknown): check it, size the progress. */
  const lengthKnown = (seconds: number | undefined): number => {
    if (seconds !== undefined) {
      checkDuration(seconds, options.maxDurationSeconds);
      windows = windowCount(Math.ceil(seconds * SAMPLE_RATE));
    }
    throwIfAborted(signal);
    report('extracting_audio');
    // The decoder waits for the model: allow for both, at a generous real-time factor.
    return (
      DECODE_TIMEOUT_MS + (seconds ?? options.maxDurationSeconds ?? UNKNOWN_LENGTH_SECONDS) * 1000
    );
  };
  let decodeLimit: number | Promise<number>;
  let setLimit: (ms: number) => void = () => undefined;
  let unknownLimit: NodeJS.Timeout | undefined;
  if (options.probed) {
    decodeLimit = lengthKnown(options.probed.durationSeconds);
  } else {
    decodeLimit = new Promise<number>((resolve) => {
      setLimit = resolve;
    });
    // Until the decoder has described its input, it has the limit it would have for no audio.
    unknownLimit = setTimeout(() => {
      setLimit(DECODE_TIMEOUT_MS);
    }, DECODE_TIMEOUT_MS);
  }
  // What grows with the video's length goes to disk (adapters/spill.ts): the samples, which the
  // techniques stage reads back around each note, and the model's outputs.
  const audio = new SpilledAudio();
  const stores = {
    contours: new SpilledRows(CONTOUR_BINS),
    frames: new SpilledWords(),
    onsets: new SpilledWords(),
  };
  try {
    const model = new ModelStream((done) => {
      if (windows !== undefined) report('transcribing', Math.min(1, done / windows));
    }, stores);
    await streamAudio(
      file,
      (piece) => {
        audio.append(piece);
        return model.push(piece);
      },
      {
        ...(signal ? { signal } : {}),
        ...(options.chunkSamples === undefined ? {} : { chunkSamples: options.chunkSamples }),
        // The header's duration is only a claim: the limit holds on the audio itself.
        ...(options.maxDurationSeconds === undefined
          ? {}
          : { refuseOverSeconds: options.maxDurationSeconds }),
        timeoutMs: decodeLimit,
        ...(options.probed
          ? {}
          : {
              onInput: (input: DeclaredInput) => {
                clearTimeout(unknownLimit);
                setLimit(lengthKnown(input.durationSeconds));
              },
            }),
      },
    );
    const output = await model.end();
    throwIfAborted(signal);
    return await finishTranscription(
      audio,
      clipRms(audio) < SILENCE_RMS ? null : output,
      config,
      report,
      signal,
      options.gateThreshold,
    );
  } finally {
    clearTimeout(unknownLimit);
    audio.close();
    stores.contours.close();
    stores.frames.close();
    stores.onsets.close();
  }
}

/** Transcribes decoded audio (mono, 22050 Hz) into the spec's results, notes and chords. */
export async function transcribeAudio(
  audio: Float32Array,
  config: UploadConfig,
  onProgress?: ProgressListener,
  options: TranscribeOptions = {},
): Promise<Transcription> {
  const report = reporter(onProgress);
  const { signal } = options;
  const silent = clipRms(audio) < SILENCE_RMS;

  report('transcribing');
  const output = silent
    ? null
    : await runModel(audio, (fraction) => {
        report('transcribing', fraction);
      });
  throwIfAborted(signal);
  return finishTranscription(audio, output, config, report, signal, options.gateThreshold);
}

/**
 * The stages after the model: notes, tab, techniques, chords and key, beats and bars, and the
 * results file.
 */
async function finishTranscription(
  audio: ClipAudio,
  output: ModelOutput | null,
  config: UploadConfig,
  report: ReturnType<typeof reporter>,
  signal: AbortSignal | undefined,
  gateThreshold?: number,
): Promise<Transcription> {
  const duration = audio.length / SAMPLE_RATE;
  const silent = output === null;
  // The chords and key need only the notes: named on the side thread during the later stages.
  let naming: Promise<Harmony> | undefined;
  const { detected, notes } = await lessonNotes(output, audio, config, {
    onStage: (stage) => {
      throwIfAborted(signal);
      report(stage);
    },
    onDetected: (found) => {
      naming = nameHarmonyAside(found);
    },
    ...(gateThreshold === undefined ? {} : { gateThreshold }),
  }).finally(() => {
    // Not left to fail unseen when a later stage throws.
    naming?.catch(() => undefined);
  });
  throwIfAborted(signal);

  report('detecting_chords');
  const { chords, musicalKey } = await (naming ?? nameHarmonyAside(detected));
  // Beats and bars from the same posteriorgrams and notes; a silent clip gets the steady grid.
  const beats = detectBeats(output, detected, duration);

  const results: ResultsFile = {
    capo: config.capo,
    tuning: [...config.tuning],
    tuning_name: config.tuning_name,
    musical_key: musicalKey,
    config,
    duration,
    note_count: notes.length,
    message: silent
      ? 'The video is silent, so there were no notes to write.'
      : notes.length === 0
        ? 'No guitar notes were heard in this video.'
        : null,
    engine_version: ENGINE_VERSION,
  };
  return { results, notes, chords, beats };
}
