/**
 * Listen & check (issue 40), without the rest of core (the browser's listening worker loads only
 * this): the microphone's analysis and the judge of what it heard against the tab.
 */
export { ListenAnalyzer, type HeardLevel, type HeardOnset } from './analysis.js';
export {
  ListenChecker,
  expectedGroups,
  groupMatches,
  passCountsForTrainer,
  type ExpectedGroup,
  type PassScore,
  type Verdict,
} from './checker.js';
export {
  CALIBRATION_AFTER_S,
  CALIBRATION_CLICKS,
  CALIBRATION_NEEDED,
  calibratedLatency,
  clicksAnswered,
} from './calibration.js';
