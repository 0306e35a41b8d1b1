/** The engine's public surface for the server and the worker. */
export { findFfmpeg, findFfprobe } from './adapters/binaries.js';
/** Where the annotated recordings kept in the repository are (tests, benches, the lab). */
export { FIXTURE_DATASETS, fixtureFile } from './adapters/fixtures.js';
export { decodeAudio, probeMedia } from './adapters/media.js';
export type { MediaInfo } from './adapters/media.js';
export { EngineError } from './errors.js';
export type { EngineErrorCode } from './errors.js';
export {
  ENGINE_VERSION,
  guitarSetup,
  loadModels,
  transcribe,
  transcribeAudio,
} from './pipeline.js';
export { ENGINE_STAGES } from './pipeline-types.js';
export type {
  EngineStage,
  Progress,
  ProgressListener,
  ResultsFile,
  TranscribeOptions,
  Transcription,
} from './pipeline-types.js';
export { refingerSelection } from './refinger.js';
export { RefingerError } from './tab/refinger.js';
export { renderAsciiTab } from './render/ascii-tab.js';
