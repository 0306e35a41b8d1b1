/**
 * Listen & check (issue 40), without the rest of core (the browser's listening worker loads only
 * this): the microphone's analysis and the judge of what it heard against the tab.
 */
export {
  Fft,
  ListenAnalyzer,
  MAX_MIDI,
  MIN_MIDI,
  PITCH_COUNT,
  SILENCE_RMS,
  midiHz,
  type AnalysisEvents,
  type HeardLevel,
  type HeardOnset,
} from './analysis.js';
export {
  CLEAN_PASS,
  HIT_S,
  LATE_S,
  ListenChecker,
  expectedGroups,
  groupMatches,
  passCountsForTrainer,
  pitchSounds,
  type ExpectedGroup,
  type PassScore,
  type Verdict,
} from './checker.js';
