import { MediaToolError } from './failures.js';
import type { MediaFacts } from './engine-api.js';
import {
  EngineError,
  progressReader,
  runTool,
  whitelistedInput,
} from '@riffscribe/engine/media-tools';

/**
 * The worker's own ffmpeg work: a browser-safe copy of the upload and a thumbnail. Inputs are
 * read as `file:<absolute path>` with `-protocol_whitelist file` and a whitelist of video
 * demuxers, so no playlist or list of files is ever followed.
 */

const VIDEO_DEMUXERS = ['mov', 'matroska', 'webm', 'avi', 'flv', 'asf', 'mpeg', 'mpegts', 'ogg'];

/** The largest short side of the browser video, in pixels (1080p). */
const MAX_VIDEO_SHORT_SIDE = 1080;

function inputArgs(file: string): string[] {
  return whitelistedInput(file, VIDEO_DEMUXERS);
}

/**
 * Scales so that the short side is at most MAX_VIDEO_SHORT_SIDE, keeping the aspect ratio, with
 * even dimensions (H.264 4:2:0 needs them) and square pixels.
 */
const SCALE_FILTER =
  `scale=w='if(gte(iw,ih),-2,trunc(min(iw,${MAX_VIDEO_SHORT_SIDE})/2)*2)'` +
  `:h='if(gte(iw,ih),trunc(min(ih,${MAX_VIDEO_SHORT_SIDE})/2)*2,-2)',setsar=1`;

/** H.264 profiles every browser decodes (ffprobe's names). */
const BROWSER_H264_PROFILES = ['Constrained Baseline', 'Baseline', 'Main', 'High'];

/**
 * Whether the upload can be the browser video as it is, its streams copied into a faststart MP4
 * instead of encoded again: an MP4/MOV with H.264 (8-bit 4:2:0, a profile every browser plays,
 * square pixels) at most 1080p and 60 fps, and AAC in mono or stereo. Encoding a 30 s clip takes
 * seconds of both CPUs; copying it takes a few milliseconds.
 */
export function canCopyForBrowser(facts: MediaFacts): boolean {
  const shortSide = Math.min(facts.width ?? Infinity, facts.height ?? Infinity);
  return (
    facts.formatName.split(',').includes('mp4') &&
    facts.videoCodec === 'h264' &&
    facts.pixelFormat === 'yuv420p' &&
    BROWSER_H264_PROFILES.includes(facts.videoProfile ?? '') &&
    (facts.sampleAspectRatio === undefined || ['1:1', '0:1'].includes(facts.sampleAspectRatio)) &&
    shortSide <= MAX_VIDEO_SHORT_SIDE &&
    (facts.width ?? 1) % 2 === 0 &&
    (facts.height ?? 1) % 2 === 0 &&
    facts.frameRate !== undefined &&
    facts.frameRate <= MAX_FPS + 0.01 &&
    facts.audioCodec === 'aac' &&
    (facts.audioChannels ?? 0) >= 1 &&
    (facts.audioChannels ?? 0) <= 2
  );
}

export interface TranscodeOptions {
  ffmpeg: string;
  input: string;
  output: string;
  /** Length of the input in seconds (for progress and as an upper bound of the output). */
  durationSeconds: number;
  /** The input's frames per second from the probe, when known: above 60 it is reduced to 60. */
  frameRate?: number | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Percent 0..100 of the encoding done. */
  onProgress?: (percent: number) => void;
  /** Copy the streams instead of encoding them (canCopyForBrowser said the upload plays as is). */
  copy?: boolean;
}

/** How an ffmpeg run ended, for the messages below. */
interface Ended {
  code: number | null;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
}

/**
 * Runs ffmpeg through the engine's tool runner (the one owner of ffmpeg processes: no shell,
 * a time limit, SIGKILL on cancel, bounded stderr), with its timeout and cancellation as flags.
 */
async function ffmpeg(
  binary: string,
  args: string[],
  options: {
    activity: string;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    onStdout?: (chunk: Buffer) => void;
  },
): Promise<Ended> {
  const { onStdout } = options;
  try {
    const result = await runTool(binary, args, {
      activity: options.activity,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      ...(onStdout
        ? {
            onStdout: (chunk: Buffer) => {
              onStdout(chunk);
              return true;
            },
          }
        : {}),
    });
    return { code: result.code, stderr: result.stderr, timedOut: false, aborted: false };
  } catch (error) {
    if (error instanceof EngineError && (error.code === 'timeout' || error.code === 'cancelled')) {
      const timedOut = error.code === 'timeout';
      return { code: null, stderr: '', timedOut, aborted: !timedOut };
    }
    throw error;
  }
}

function failure(what: string, result: { code: number | null; stderr: string }): Error {
  const detail = result.stderr.trim().split('\n').at(-1) ?? '';
  if (result.code === null) {
    // Killed (out of memory, or by the machine): not the file's fault, so retryable.
    return new Error(`ffmpeg was stopped while ${what}.`);
  }
  return new MediaToolError(
    `The video could not be converted for playback (${what}: ${detail.slice(0, 200)}).`,
  );
}

/** The most frames per second the browser copy keeps. */
const MAX_FPS = 60;

/**
 * Scaling, plus an `fps` filter when the input is faster than MAX_FPS. (ffmpeg's `-fpsmax` would
 * do this on its own, but only from ffmpeg 4.4; the static ffmpeg that npm ships is older.)
 */
export function videoFilter(frameRate: number | undefined): string {
  return frameRate !== undefined && frameRate > MAX_FPS + 0.01
    ? `${SCALE_FILTER},fps=${MAX_FPS}`
    : SCALE_FILTER;
}

/**
 * Writes `output`: H.264 (yuv420p, high profile) and AAC in MP4 with the index at the front
 * (faststart), at most 1080p and 60 fps, so that it plays and seeks in every browser; with
 * `copy`, the upload's own streams in a faststart MP4.
 */
export async function transcodeForBrowser(options: TranscodeOptions): Promise<void> {
  const totalUs = Math.max(1, options.durationSeconds * 1e6);
  const result = await ffmpeg(
    options.ffmpeg,
    [
      '-nostdin',
      '-hide_banner',
      '-v',
      'error',
      ...inputArgs(options.input),
      '-map',
      '0:v:0',
      '-map',
      '0:a:0',
      '-t',
      String(Math.ceil(options.durationSeconds + 1)),
      ...(options.copy === true
        ? ['-c', 'copy']
        : [
            '-vf',
            videoFilter(options.frameRate),
            '-c:v',
            'libx264',
            '-preset',
            'veryfast',
            '-crf',
            '23',
            '-profile:v',
            'high',
            '-pix_fmt',
            'yuv420p',
            '-c:a',
            'aac',
            '-b:a',
            '160k',
            '-ac',
            '2',
          ]),
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '-progress',
      'pipe:1',
      '-nostats',
      '-y',
      options.output,
    ],
    {
      activity: 'Converting the video for playback',
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onStdout: progressReader((us) => {
        options.onProgress?.(Math.min(100, (us / totalUs) * 100));
        return true;
      }),
    },
  );
  if (result.aborted) throw new Error('The video conversion was cancelled.');
  // A tool timeout is the machine's problem, not the file's (jobs/CONTEXT.md): retried.
  if (result.timedOut) throw new Error('The video took too long to convert for playback.');
  if (result.code !== 0) throw failure('encoding', result);
}

export interface ThumbnailOptions {
  ffmpeg: string;
  input: string;
  output: string;
  /** Where to take the frame, in seconds from the start. */
  atSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** Writes a JPEG frame of the video, at most 640 pixels wide. */
export async function makeThumbnail(options: ThumbnailOptions): Promise<void> {
  const result = await ffmpeg(
    options.ffmpeg,
    [
      '-nostdin',
      '-hide_banner',
      '-v',
      'error',
      '-ss',
      options.atSeconds.toFixed(3),
      ...inputArgs(options.input),
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-vf',
      "scale='min(640,iw)':-2",
      '-q:v',
      '4',
      '-f',
      'image2',
      '-c:v',
      'mjpeg',
      '-y',
      options.output,
    ],
    { activity: 'Making the thumbnail', timeoutMs: options.timeoutMs, signal: options.signal },
  );
  if (result.aborted) throw new Error('The thumbnail was cancelled.');
  if (result.timedOut) throw new Error('Making the thumbnail took too long.');
  if (result.code !== 0) throw failure('making the thumbnail', result);
}
