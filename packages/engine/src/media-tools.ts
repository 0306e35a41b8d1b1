/**
 * The one owner of ffmpeg and ffprobe processes (issue 13): which binaries (the npm static builds
 * the project ships), and how every one of them is run: an argument list and never a shell,
 * stdin closed, a wall-clock limit, cancellation that kills the process (SIGKILL), bounded stderr.
 * The engine's probing and decoding and the server's video and thumbnail stages all go through
 * `runTool`. A subpath of its own (`@riffscribe/engine/media-tools`), so the API server can run
 * ffmpeg without loading the engine's models.
 */
export { findFfmpeg, findFfprobe } from './adapters/binaries.js';
export {
  TOOL_OWNER_VARIABLE,
  processStartTicks,
  runTool,
  type ToolOptions,
  type ToolResult,
} from './adapters/process.js';
export { progressReader, whitelistedInput } from './adapters/ffmpeg-args.js';
export { EngineError } from './errors.js';
