/**
 * The engine's stages one by one (`@riffscribe/engine/stages`), for tools that run or measure a
 * stage on its own: the evaluation lab and its training-material generators (packages/lab), and
 * anything else that studies one step of the pipeline. The product (server and worker) uses the
 * package's main entry; nothing here is needed to transcribe a clip.
 */

// Units, the frame grid and the contracts between stages.
export {
  FRAME_RATE,
  HOP,
  SAMPLE_RATE,
  fret,
  midi,
  midiToHz,
  seconds,
  stringNumber,
} from './units.js';
export type { DetectedNote, ModelOutput, TabNote } from './types.js';

// The note model and the note refiner, run alone.
export { loadModel, runModel } from './adapters/model.js';
export { refineOutput } from './adapters/refiner-model.js';
export { onPath } from './adapters/binaries.js';

// Note extraction, rule by rule.
export {
  Activation,
  activationRows,
  CONTOUR_BINS,
  NOTE_BINS,
  peakOver,
} from './notes/posteriorgram.js';
export { ALL_RULES, extractNotes, type NoteRuleSwitches } from './notes/extract.js';
export { defaultNoteOptions, type NoteOptions } from './notes/options.js';
export { byStart, type NoteCandidate } from './notes/candidate.js';
export { findOnsets } from './notes/onsets.js';
export { trackNotes } from './notes/tracking.js';
export { removeGhosts } from './notes/ghosts.js';
export { keepLegatoContinuations } from './notes/legato.js';
export { limitPolyphony } from './notes/polyphony.js';
export { recoverStrumNotes, strumCandidates } from './notes/strums.js';

// The pipeline's later stages on notes already found.
export { lessonNotes, placeNotes } from './pipeline.js';
export { openPitch } from './tab/fingering.js';
export { assignTab } from './tab/assign.js';
export {
  analyseAttacks,
  attackAt,
  energyRiseAt,
  type AttackAnalysis,
} from './techniques/attacks.js';
export { median } from './techniques/curves.js';
export { yinPitch } from './techniques/junction.js';
export { strikeInputs } from './techniques/detect.js';
export {
  demoteMarks,
  GATE_FEATURES,
  gateFeatures,
  markOccurrences,
  type MarkOccurrence,
} from './techniques/gate.js';
export { STRIKE_FEATURES } from './techniques/chains.js';
export { detectChords, detectKey } from './harmony/index.js';
export { namePitchClass, SHARP_NAMES } from './harmony/spelling.js';
export { detectBeats } from './rhythm/beats.js';
export {
  beatCounts,
  beatScores,
  downbeatTimes,
  medianTempo,
  tempoAgrees,
  type BeatCounts,
} from './rhythm/metrics.js';

// Made-up material: a seeded random generator and a WAV encoder.
export { between, gaussian, seededRandom, type Random } from './random.js';
export { wavBytes } from './render/wav.js';
