import {
  EXPORT_OUTPUT,
  EXPORT_VIDEO_BITRATE,
  exportLayout,
  type ExportOverlay,
} from '@riffscribe/core';
import {
  EngineError,
  progressReader,
  runTool,
  whitelistedInput,
} from '@riffscribe/engine/media-tools';

/**
 * The MP4 export's ffmpeg and ffprobe work (conversion-runner.ts), through the engine's tool
 * runner like every media process (argument lists, no shell, a time limit, SIGKILL on cancel).
 * Only Matroska/WebM is read, as `file:<absolute path>` with `-protocol_whitelist file`.
 */

/** The longest recording converted, whatever the lesson (15 minutes). */
export const MAX_RECORDING_SECONDS = 15 * 60;
/** How much longer than its lesson a recording may be (start and stop of the recorder). */
export const RECORDING_SLACK_SECONDS = 5;
/**
 * Bytes per second of recording an upload link accepts: 5 MB/s is 40 Mbit/s, twice the
 * browser's ~20 Mbit/s target (a MediaRecorder overshoots its bitrate on busy frames).
 */
export const RECORDING_BYTES_PER_SECOND = 5_000_000;
/** The smallest upload limit, for very short lessons (header, key frames). */
export const MIN_RECORDING_BYTES = 64_000_000;
/** The largest frame side read (the browser renders 1536x2728). */
export const MAX_FRAME_SIDE = 4096;

/** The longest recording accepted for a lesson of `lessonSeconds` (null: unknown). */
export function recordingLimitSeconds(lessonSeconds: number | null): number {
  if (lessonSeconds === null || !(lessonSeconds > 0)) return MAX_RECORDING_SECONDS;
  return Math.min(MAX_RECORDING_SECONDS, lessonSeconds + RECORDING_SLACK_SECONDS);
}

/**
 * The largest upload accepted for a lesson: its longest recording at RECORDING_BYTES_PER_SECOND
 * (at most 4.5 GB for 15 minutes, under S3's 5 GB limit of one PUT).
 */
export function recordingByteLimit(lessonSeconds: number | null): number {
  return Math.max(
    MIN_RECORDING_BYTES,
    Math.ceil(recordingLimitSeconds(lessonSeconds)) * RECORDING_BYTES_PER_SECOND,
  );
}

/** A conversion that cannot succeed, with the short sentence its status shows. */
export class ConversionRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionRefusal';
  }
}

export const UNREADABLE = 'The recording could not be read.';
export const TOO_LONG = 'The recording is longer than the lesson.';
export const TOO_SLOW = 'Conversion took too long.';

const WEBM_DEMUXERS = ['matroska', 'webm'];

function inputArgs(file: string): string[] {
  return whitelistedInput(file, WEBM_DEMUXERS);
}

/** What the probe found in a recording. */
export interface RecordingFacts {
  width: number;
  height: number;
  hasAudio: boolean;
  /** The container's claim, when there is one (MediaRecorder files often have none). */
  headerSeconds: number | null;
}

interface ProbeJson {
  streams?: {
    codec_type?: string;
    width?: number;
    height?: number;
    disposition?: { attached_pic?: number };
  }[];
  format?: { format_name?: string; duration?: string };
}

async function tool(
  binary: string,
  args: string[],
  options: {
    activity: string;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    onStdout?: (chunk: Buffer) => boolean;
  },
): Promise<{ code: number | null; stderr: string }> {
  try {
    return await runTool(binary, args, options);
  } catch (error) {
    if (error instanceof EngineError && error.code === 'timeout') {
      throw new ConversionRefusal(TOO_SLOW);
    }
    throw error;
  }
}

/**
 * Reads a recording's container and streams with ffprobe: Matroska/WebM only, with a video
 * stream of a sane frame size. The container's duration is only a first check (it can lie):
 * the limit holds on what ffmpeg decodes (`convertRecording`).
 */
export async function probeRecording(
  ffprobe: string,
  file: string,
  options: { limitSeconds: number; signal?: AbortSignal | undefined },
): Promise<RecordingFacts> {
  let stdout = '';
  const result = await tool(
    ffprobe,
    [
      '-v',
      'error',
      '-hide_banner',
      ...inputArgs(file),
      '-show_format',
      '-show_streams',
      '-of',
      'json',
    ],
    {
      activity: 'Reading the recording',
      timeoutMs: 30_000,
      signal: options.signal,
      onStdout: (chunk) => {
        stdout += chunk.toString('utf8');
        return stdout.length < 1024 * 1024;
      },
    },
  );
  if (result.code !== 0) throw new ConversionRefusal(UNREADABLE);
  let json: ProbeJson;
  try {
    json = JSON.parse(stdout) as ProbeJson;
  } catch {
    throw new ConversionRefusal(UNREADABLE);
  }
  const formats = (json.format?.format_name ?? '').split(',');
  if (!formats.includes('matroska') && !formats.includes('webm')) {
    throw new ConversionRefusal(UNREADABLE);
  }
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const width = video?.width ?? 0;
  const height = video?.height ?? 0;
  if (width <= 0 || height <= 0 || width > MAX_FRAME_SIDE || height > MAX_FRAME_SIDE) {
    throw new ConversionRefusal(UNREADABLE);
  }
  const claimed = Number(json.format?.duration);
  const headerSeconds = Number.isFinite(claimed) && claimed > 0 ? claimed : null;
  if (headerSeconds !== null && headerSeconds > options.limitSeconds) {
    throw new ConversionRefusal(TOO_LONG);
  }
  return {
    width,
    height,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    headerSeconds,
  };
}

export interface ConvertOptions {
  ffmpeg: string;
  input: string;
  output: string;
  /** The longest output allowed, in seconds, measured on the decoded streams. */
  limitSeconds: number;
  /** The length expected, for progress (the header's, else the lesson's). */
  expectedSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Percent 0..100 of the conversion done. */
  onProgress?: (percent: number) => void;
}

/**
 * Converts the WebM to H.264 (libx264 veryfast, yuv420p, 30 fps, the input's frame size made
 * even) and AAC in an MP4 with the index at the front (faststart). ffmpeg's `-progress` output
 * gives the time written so far: past `limitSeconds` the run is stopped and the recording
 * refused as too long, whatever its header claimed. Returns the seconds written.
 */
export async function convertRecording(options: ConvertOptions): Promise<number> {
  const limitUs = options.limitSeconds * 1e6;
  const expectedUs = Math.max(1, options.expectedSeconds * 1e6);
  let writtenUs = 0;
  const seen = { tooLong: false };
  const result = await tool(
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
      '0:a:0?',
      // A bound on the work whatever the file holds; going past the limit is refused below.
      '-t',
      String(Math.ceil(options.limitSeconds + 1)),
      '-vf',
      'fps=30,scale=trunc(iw/2)*2:trunc(ih/2)*2,setsar=1',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      '-ac',
      '2',
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
      activity: 'Converting the recording',
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onStdout: progressReader((us) => {
        writtenUs = Math.max(writtenUs, us);
        if (writtenUs > limitUs) {
          seen.tooLong = true;
          return false;
        }
        options.onProgress?.(Math.min(100, (writtenUs / expectedUs) * 100));
        return true;
      }),
    },
  );
  if (seen.tooLong) throw new ConversionRefusal(TOO_LONG);
  if (result.code !== 0) throw new ConversionRefusal(UNREADABLE);
  return writtenUs / 1e6;
}

/** Containers the lesson's own video may come in (the pipeline writes MP4). */
const LESSON_DEMUXERS = ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2', 'matroska', 'webm'];
const PNG_DEMUXERS = ['png_pipe', 'image2'];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A logo picture (base64 of a PNG) as bytes, or a refusal when it is not a PNG. */
export function logoBytes(base64: string): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length < PNG_SIGNATURE.length || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new ConversionRefusal('The logo picture could not be read.');
  }
  return bytes;
}

/** What the probe found in the lesson's own video. */
export interface LessonVideoFacts {
  width: number;
  height: number;
  seconds: number;
  hasAudio: boolean;
}

/** Reads the lesson's video (the pipeline's `video.mp4`): its frame size, length and sound. */
export async function probeLessonVideo(
  ffprobe: string,
  file: string,
  signal?: AbortSignal,
): Promise<LessonVideoFacts> {
  let stdout = '';
  const result = await tool(
    ffprobe,
    [
      ...['-v', 'error', '-hide_banner'],
      ...whitelistedInput(file, LESSON_DEMUXERS),
      ...['-show_format', '-show_streams', '-of', 'json'],
    ],
    {
      activity: "Reading the lesson's video",
      timeoutMs: 30_000,
      signal,
      onStdout: (chunk) => {
        stdout += chunk.toString('utf8');
        return stdout.length < 1024 * 1024;
      },
    },
  );
  const unreadable = "The lesson's video could not be read.";
  if (result.code !== 0) throw new ConversionRefusal(unreadable);
  let json: ProbeJson & { streams?: { duration?: string }[] };
  try {
    json = JSON.parse(stdout) as typeof json;
  } catch {
    throw new ConversionRefusal(unreadable);
  }
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const width = video?.width ?? 0;
  const height = video?.height ?? 0;
  const seconds = Number(json.format?.duration);
  if (width <= 0 || height <= 0 || !(seconds > 0)) throw new ConversionRefusal(unreadable);
  return { width, height, seconds, hasAudio: streams.some((s) => s.codec_type === 'audio') };
}

const even = (n: number) => 2 * Math.round(n / 2);

/**
 * The filter graph that puts the tab overlay over the lesson's video, placed as the browser's
 * preview places it (core's exportLayout): a black EXPORT_OUTPUT picture, the visible part of
 * the video cropped and scaled into its box (never scaled past the picture, however far it is
 * zoomed), the band (input 1) at its top, the logo (input 2) at its corner. Positions and sizes
 * are whole even pixels (4:2:0 video): at most a pixel from the preview.
 */
export function overlayFilter(
  overlay: ExportOverlay,
  video: { width: number; height: number },
): string {
  const output = EXPORT_OUTPUT;
  const layout = exportLayout(overlay.framing, video, output);
  const parts = [`color=c=black:s=${String(output.width)}x${String(output.height)}:r=30[bg]`];
  let base = '[bg]';
  const box = layout.video;
  if (box) {
    const x0 = Math.max(0, box.x);
    const y0 = Math.max(0, box.y);
    const x1 = Math.min(output.width, box.x + box.width);
    const y1 = Math.min(output.height, box.y + box.height);
    const dx = even(x0);
    const dy = even(y0);
    const dw = even(x1) - dx;
    const dh = even(y1) - dy;
    if (dw >= 2 && dh >= 2) {
      // The source pixels that land in the visible box.
      const perX = video.width / box.width;
      const perY = video.height / box.height;
      const sx = Math.max(0, Math.floor((x0 - box.x) * perX));
      const sy = Math.max(0, Math.floor((y0 - box.y) * perY));
      const sw = Math.max(1, Math.min(video.width - sx, Math.round((x1 - x0) * perX)));
      const sh = Math.max(1, Math.min(video.height - sy, Math.round((y1 - y0) * perY)));
      parts.push(
        `[0:v]fps=30,crop=${String(sw)}:${String(sh)}:${String(sx)}:${String(sy)},` +
          `scale=${String(dw)}:${String(dh)},setsar=1[v]`,
        `[bg][v]overlay=${String(dx)}:${String(dy)}[withvideo]`,
      );
      base = '[withvideo]';
    }
  }
  const bandY = even(Math.min(layout.band.top, output.height - layout.band.height));
  parts.push(
    `${base}[1:v]overlay=0:${String(Math.max(0, bandY))}[withband]`,
    `[withband][2:v]overlay=${String(Math.round(layout.logo.x))}:${String(Math.round(layout.logo.y))},format=yuv420p[out]`,
  );
  return parts.join(';');
}

const ENCODERS: Record<ExportOverlay['format'], string[]> = {
  // x264's fastest preset at the spec's 20 Mbit/s: the picture is clean at that rate, and a
  // 20 s lesson takes seconds, not minutes, on two cores.
  mp4: [
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', String(EXPORT_VIDEO_BITRATE)],
    ...['-maxrate', String(EXPORT_VIDEO_BITRATE), '-bufsize', String(EXPORT_VIDEO_BITRATE * 2)],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '160k', '-ac', '2'],
    ...['-movflags', '+faststart', '-f', 'mp4'],
  ],
  webm: [
    ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-threads', '2'],
    ...['-b:v', String(EXPORT_VIDEO_BITRATE), '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'libopus', '-b:a', '128k', '-f', 'webm'],
  ],
};

export interface ComposeOptions {
  ffmpeg: string;
  /** The lesson's own video, its facts (probeLessonVideo), the band and the logo PNG. */
  lessonVideo: string;
  facts: LessonVideoFacts;
  band: string;
  logo: string;
  overlay: ExportOverlay;
  output: string;
  /** The longest output allowed, in seconds. */
  limitSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  onProgress?: (percent: number) => void;
}

/**
 * Makes the exported video on the server: the lesson's video framed as the user framed it,
 * the tab overlay band the browser rendered and the logo over it, the lesson's sound, encoded
 * as MP4 (H.264/AAC) or WebM (VP8/Opus) at 30 fps and the spec's 20 Mbit/s. The output lasts
 * as long as the lesson's video (at most `limitSeconds`). Returns the seconds written.
 */
export async function composeOverlay(options: ComposeOptions): Promise<number> {
  const seconds = Math.min(options.facts.seconds, options.limitSeconds);
  const expectedUs = Math.max(1, seconds * 1e6);
  let writtenUs = 0;
  const result = await tool(
    options.ffmpeg,
    [
      ...['-nostdin', '-hide_banner', '-v', 'error'],
      ...whitelistedInput(options.lessonVideo, LESSON_DEMUXERS),
      ...inputArgs(options.band),
      ...whitelistedInput(options.logo, PNG_DEMUXERS),
      '-filter_complex',
      overlayFilter(options.overlay, options.facts),
      ...['-map', '[out]', ...(options.facts.hasAudio ? ['-map', '0:a:0'] : [])],
      ...['-t', seconds.toFixed(3), '-r', '30'],
      ...ENCODERS[options.overlay.format],
      ...['-progress', 'pipe:1', '-nostats', '-y', options.output],
    ],
    {
      activity: 'Putting the tabs over the video',
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onStdout: progressReader((us) => {
        writtenUs = Math.max(writtenUs, us);
        options.onProgress?.(Math.min(100, (writtenUs / expectedUs) * 100));
        return true;
      }),
    },
  );
  if (result.code !== 0) throw new ConversionRefusal(UNREADABLE);
  return writtenUs / 1e6;
}
