import { stat } from 'node:fs/promises';
import { EngineError } from '../errors.js';
import { SAMPLE_RATE } from '../units.js';
import { findFfmpeg, findFfprobe } from './binaries.js';
import { whitelistedInput } from './ffmpeg-args.js';
import { runTool } from './process.js';

/**
 * The media adapter: ffprobe for facts about a file, ffmpeg to decode its audio. The only code
 * that runs these binaries. Every run:
 * - goes through spawn with an argument list (no shell);
 * - reads the input as `file:<absolute path>` with `-protocol_whitelist file`, so a name such as
 *   `http://...`, `concat:...` or `-i` is never taken for a protocol or an option;
 * - accepts only the container formats below (`-format_whitelist`), so an HLS playlist, an
 *   ffconcat list or a DASH manifest renamed .mp4 is refused instead of followed to other files;
 * - has a time limit and an AbortSignal that kill the process, and a bounded stderr capture.
 */

/** Facts about a media file from ffprobe. */
export interface MediaInfo {
  /** Length in seconds (the container's, else the longest stream's, else measured by demuxing). */
  durationSeconds: number;
  hasAudio: boolean;
  /** True when there is a real video stream (cover art attached to an audio file does not count). */
  hasVideo: boolean;
  /** ffprobe's demuxer name, such as "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm". */
  formatName: string;
  /** Frame size of the first video stream in pixels, when there is one. */
  width?: number;
  height?: number;
  /** Frames per second of the first video stream (its average, else its base rate), when known. */
  frameRate?: number;
  /** ffprobe's codec, pixel format and profile of the first video stream ("h264", "yuv420p", "High"). */
  videoCodec?: string;
  pixelFormat?: string;
  videoProfile?: string;
  /** Sample aspect ratio of the first video stream ("1:1"), when stated. */
  sampleAspectRatio?: string;
  /** Codec and channel count of the first audio stream ("aac", 2). */
  audioCodec?: string;
  audioChannels?: number;
  sizeBytes: number;
}

/**
 * Demuxers we read: common audio and video containers, none of which opens other files or URLs.
 * Matching is by any of a demuxer's names, so "mov" admits "mov,mp4,m4a,3gp,3g2,mj2" and
 * "matroska" admits "matroska,webm".
 */
export const INPUT_FORMATS = [
  'mov',
  'matroska',
  'webm',
  'avi',
  'flv',
  'asf',
  'mpeg',
  'mpegts',
  'wav',
  'w64',
  'aiff',
  'caf',
  'mp3',
  'ogg',
  'flac',
  'aac',
  'ac3',
  'eac3',
  'amr',
  'wv',
] as const;

const DEFAULT_PROBE_TIMEOUT_MS = 20_000;
const DEFAULT_DECODE_TIMEOUT_MS = 180_000;
/** Ten hours: a safety cap on decoded audio when the caller sets no limit (about 3 GB of floats). */
const HARD_MAX_SECONDS = 10 * 3600;

const UNREADABLE =
  'This file could not be read as audio or video: it may be damaged, incomplete or not a media ' +
  'file. Export it again as MP4, MOV, WebM, MP3 or WAV and upload that.';

function inputArgs(file: string): string[] {
  return whitelistedInput(file, INPUT_FORMATS);
}

/** Size of the file in bytes; EngineError for a missing, unreadable or empty file. */
async function checkFile(file: string): Promise<number> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a regular file');
    size = info.size;
  } catch {
    throw new EngineError(
      'unreadable_media',
      'The file could not be opened. Check that it exists and upload it again.',
    );
  }
  if (size === 0) {
    throw new EngineError('empty_file', 'The file is empty (0 bytes). Upload the recording again.');
  }
  return size;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  pix_fmt?: string;
  profile?: string;
  sample_aspect_ratio?: string;
  channels?: number;
  width?: number;
  height?: number;
  duration?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  disposition?: { attached_pic?: number };
}
interface ProbeJson {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string };
}

/** ffprobe's "30000/1001" frame rates as a number; undefined for "0/0" or nonsense. */
const rate = (value: string | undefined): number | undefined => {
  const [num, den = '1'] = (value ?? '').split('/');
  const r = Number(num) / Number(den);
  return Number.isFinite(r) && r > 0 && r < 10_000 ? r : undefined;
};

const positive = (value: string | undefined): number | undefined => {
  const n = value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * Reads duration and streams with ffprobe, before any decoding.
 *
 * @throws EngineError empty_file, unreadable_media (not media, damaged, a playlist in disguise),
 *   no_audio_stream, too_long (over `maxDurationSeconds`), timeout, cancelled.
 */
export async function probeMedia(
  file: string,
  opts: { maxDurationSeconds?: number; signal?: AbortSignal } = {},
): Promise<MediaInfo> {
  const sizeBytes = await checkFile(file);
  let stdout = '';
  const result = await runTool(
    findFfprobe(),
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
      signal: opts.signal,
      timeoutMs: DEFAULT_PROBE_TIMEOUT_MS,
      activity: 'Reading the file',
      onStdout: (chunk) => {
        stdout += chunk.toString('utf8');
        // Real probe output is a few kilobytes; megabytes mean something is wrong with the file.
        return stdout.length < 4 * 1024 * 1024;
      },
    },
  );
  if (result.code !== 0) throw new EngineError('unreadable_media', UNREADABLE);
  let json: ProbeJson;
  try {
    json = JSON.parse(stdout) as ProbeJson;
  } catch {
    throw new EngineError('unreadable_media', UNREADABLE);
  }
  const streams = json.streams ?? [];
  const formatName = json.format?.format_name;
  if (formatName === undefined || streams.length === 0)
    throw new EngineError('unreadable_media', UNREADABLE);

  const audio = streams.filter((s) => s.codec_type === 'audio');
  const video = streams.filter(
    (s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1,
  );
  if (audio.length === 0) throw noAudio(video.length > 0);
  const durationSeconds =
    positive(json.format?.duration) ??
    Math.max(0, ...streams.map((s) => positive(s.duration) ?? 0));
  const duration = durationSeconds > 0 ? durationSeconds : await measureDuration(file, opts.signal);
  checkDuration(duration, opts.maxDurationSeconds);
  const firstVideo = video[0];
  const info: MediaInfo = {
    durationSeconds: duration,
    hasAudio: true,
    hasVideo: video.length > 0,
    formatName,
    sizeBytes,
  };
  if (firstVideo?.width !== undefined && firstVideo.height !== undefined) {
    info.width = firstVideo.width;
    info.height = firstVideo.height;
  }
  const fps = rate(firstVideo?.avg_frame_rate) ?? rate(firstVideo?.r_frame_rate);
  if (fps !== undefined) info.frameRate = fps;
  if (firstVideo?.codec_name !== undefined) info.videoCodec = firstVideo.codec_name;
  if (firstVideo?.pix_fmt !== undefined) info.pixelFormat = firstVideo.pix_fmt;
  if (firstVideo?.profile !== undefined) info.videoProfile = firstVideo.profile;
  if (firstVideo?.sample_aspect_ratio !== undefined)
    info.sampleAspectRatio = firstVideo.sample_aspect_ratio;
  const firstAudio = audio[0];
  if (firstAudio?.codec_name !== undefined) info.audioCodec = firstAudio.codec_name;
  if (firstAudio?.channels !== undefined) info.audioChannels = firstAudio.channels;
  return info;
}

/** EngineError no_audio_stream, worded for a video or for a file that is not one. */
function noAudio(hasVideo: boolean): EngineError {
  return new EngineError(
    'no_audio_stream',
    hasVideo
      ? 'This video has no sound track. Record or export it with sound and upload it again.'
      : 'This file has no audio in it. Upload a recording with sound.',
  );
}

/** EngineError too_long when `duration` (seconds) is over `maxSeconds`, when one is given. */
export function checkDuration(duration: number, maxSeconds: number | undefined): void {
  if (maxSeconds !== undefined && duration > maxSeconds) throw tooLong(duration, maxSeconds);
}

function tooLong(duration: number, maxSeconds: number): EngineError {
  return new EngineError(
    'too_long',
    `The recording is ${formatDuration(duration)} long; the limit is ${formatDuration(maxSeconds)}. ` +
      'Trim it and upload the part you want to learn.',
    duration,
  );
}

/**
 * Decoded audio may run a little past the length a probe accepted (the last audio frame, encoder
 * padding): `refuseOverSeconds` refuses only beyond its limit plus this.
 */
const DECODED_LENGTH_TOLERANCE_SECONDS = 0.5;

/** How long measuring a refused file's real length may take before the decoded length is used. */
const MEASURE_REFUSED_TIMEOUT_MS = 10_000;

/**
 * The too_long error for a file whose audio went on past the limit while it was decoded (its
 * header claimed less): its real length, measured by demuxing (fast), so the message says how
 * long the file is; when that fails, the audio decoded so far (a lower bound).
 */
async function decodedTooLong(
  file: string,
  decodedSeconds: number,
  maxSeconds: number,
): Promise<EngineError> {
  let length = decodedSeconds;
  try {
    length = Math.max(length, await measureDuration(file, undefined, MEASURE_REFUSED_TIMEOUT_MS));
  } catch {
    // The decoded length is still true as far as it goes.
  }
  return tooLong(length, maxSeconds);
}

/**
 * Duration by reading every audio packet's timestamp, for containers that do not state it (WebM
 * from a browser's MediaRecorder often does not). Demuxing only, so it is fast.
 */
async function measureDuration(
  file: string,
  signal: AbortSignal | undefined,
  timeoutMs = DEFAULT_PROBE_TIMEOUT_MS * 3,
): Promise<number> {
  let last = 0;
  let pending = '';
  const result = await runTool(
    findFfprobe(),
    [
      '-v',
      'error',
      '-hide_banner',
      ...inputArgs(file),
      '-select_streams',
      'a:0',
      '-show_entries',
      'packet=pts_time,duration_time',
      '-of',
      'csv=p=0',
    ],
    {
      signal,
      timeoutMs,
      activity: 'Measuring the length of the file',
      onStdout: (chunk) => {
        const lines = (pending + chunk.toString('utf8')).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const [pts, dur] = line.split(',').map(Number);
          if (pts !== undefined && Number.isFinite(pts))
            last = Math.max(last, pts + (Number.isFinite(dur) ? (dur ?? 0) : 0));
        }
        return true;
      },
    },
  );
  if (result.code !== 0 || last <= 0) throw new EngineError('unreadable_media', UNREADABLE);
  return last;
}

function formatDuration(secondsTotal: number): string {
  if (secondsTotal < 60) return `${Number(secondsTotal.toFixed(1))} seconds`;
  const s = Math.round(secondsTotal);
  const m = Math.floor(s / 60);
  const rest = s % 60;
  return rest === 0 ? `${m} minutes` : `${m} min ${rest} s`;
}

/** ffmpeg's "Duration: 00:01:02.50," line of the input, in seconds. */
function declaredDuration(stderr: string): number | undefined {
  const m = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(stderr);
  if (m === null) return undefined;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/**
 * Whether ffmpeg's description of its input lists a video stream (cover art attached to an audio
 * file is listed with "(attached pic)" and does not count).
 */
function declaresVideo(stderr: string): boolean {
  return /^ {2}Stream #0:\d+.*: Video: (?!.*\(attached pic\)).*$/m.test(stderr);
}

/** What the decoder's own description of its input says, before any audio (DecodeOptions). */
export interface DeclaredInput {
  /** The container's duration (seconds), when it states one. */
  durationSeconds: number | undefined;
  hasVideo: boolean;
}

/** Lines in which the demuxer or decoder reports damage (truncated files, corrupt packets). */
const DAMAGE = /partial file|corrupt|invalid data|error while decoding|truncat/i;

/** Options of `streamAudio` and `decodeAudio`. */
export interface DecodeOptions {
  signal?: AbortSignal;
  /**
   * Kill ffmpeg after this long (default 3 minutes); a promise of it when it depends on a probe
   * running beside the decoder (runTool).
   */
  timeoutMs?: number | Promise<number>;
  /** Decode at most this many seconds from the start. */
  maxSeconds?: number;
  /**
   * Refuse the file (EngineError too_long) as soon as more than this many seconds of audio (plus
   * DECODED_LENGTH_TOLERANCE_SECONDS) have been decoded, whatever its header says: ffmpeg is
   * stopped there, and nothing past the limit is handed to `onSamples`. A container's duration is
   * only a claim; this holds on what is decoded.
   */
  refuseOverSeconds?: number;
  /**
   * Cut what ffmpeg gives into pieces that end on multiples of this many samples (from the start
   * of the clip) before handing them on: tests put a piece boundary exactly where they want it.
   */
  chunkSamples?: number;
  /**
   * Called once with what ffmpeg says of its input (its "Input #0" lines) before the first
   * samples are handed on, which wait for it: a caller that has not probed the file learns its
   * declared length here, from the decoder itself, and may refuse it (a rejection stops ffmpeg
   * and is rethrown).
   */
  onInput?: (input: DeclaredInput) => void | Promise<void>;
}

/** How long the decoder's description of its input may lag its first samples (pipes race). */
const INPUT_DESCRIPTION_WAIT_MS = 2_000;

/**
 * Decodes the first audio stream to mono float samples at SAMPLE_RATE (22050 Hz), channels
 * averaged, values nominally in -1..1, and hands them to `onSamples` in order as ffmpeg produces
 * them (pieces of any length). When `onSamples` returns a promise, ffmpeg waits on its pipe until
 * it settles, so a slow consumer holds back the decoder instead of letting audio pile up; its
 * rejection stops ffmpeg and is rethrown. The samples passed are only valid during the call.
 *
 * @returns the number of samples delivered.
 * @throws EngineError empty_file, unreadable_media (also a truncated file: ffmpeg reports damage
 *   and much less audio than the container declares, checked once the stream ends),
 *   no_audio_stream, too_long (more audio than `refuseOverSeconds`), timeout, cancelled.
 */
export async function streamAudio(
  file: string,
  onSamples: (samples: Float32Array) => void | Promise<void>,
  opts: DecodeOptions = {},
): Promise<number> {
  await checkFile(file);
  const maxSeconds = Math.min(opts.maxSeconds ?? HARD_MAX_SECONDS, HARD_MAX_SECONDS);
  const maxSamples = Math.ceil(maxSeconds * SAMPLE_RATE);
  const refuseOver =
    opts.refuseOverSeconds === undefined
      ? Number.POSITIVE_INFINITY
      : Math.floor((opts.refuseOverSeconds + DECODED_LENGTH_TOLERANCE_SECONDS) * SAMPLE_RATE);
  /** Set in the reader callback (an object: the compiler does not follow callbacks). */
  const limit = { passed: false };
  let samples = 0;
  /** A sample split between two pipe reads (1 to 3 bytes). */
  let carry = Buffer.alloc(0);
  // ffmpeg describes its input on stderr before it writes any audio; the two pipes are read
  // separately, so the first samples wait for the description (at most a moment).
  let stderrSoFar = '';
  let described: (() => void) | undefined;
  const description = new Promise<void>((resolve) => {
    described = resolve;
  });
  const onStderr = opts.onInput
    ? (text: string) => {
        if (described === undefined) return;
        stderrSoFar += text;
        if (/^(Stream mapping:|Output #0)/m.test(stderrSoFar) || stderrSoFar.length > 1 << 16) {
          described();
          described = undefined;
        }
      }
    : undefined;
  let inputSeen: Promise<void> | undefined;
  const seeInput = (onInput: NonNullable<DecodeOptions['onInput']>): Promise<void> => {
    inputSeen ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        description,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, INPUT_DESCRIPTION_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      await onInput({
        durationSeconds: declaredDuration(stderrSoFar),
        hasVideo: declaresVideo(stderrSoFar),
      });
    })();
    return inputSeen;
  };
  /** Hands a chunk of ffmpeg's output on as samples; false or a promise of it as runTool wants. */
  const handOn = (chunk: Buffer): boolean | Promise<boolean> => {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    if (samples + Math.floor(bytes.length / 4) > refuseOver) {
      // Past the limit: stop ffmpeg now; nothing more is decoded or handed on.
      limit.passed = true;
      samples += Math.floor(bytes.length / 4);
      return false;
    }
    const whole = Math.min(Math.floor(bytes.length / 4), maxSamples - samples);
    carry = Buffer.from(bytes.subarray(whole * 4, whole * 4 + (bytes.length % 4)));
    if (whole <= 0) return samples < maxSamples;
    // Copied into an aligned array: a Buffer's offset in its pool need not be a multiple of 4.
    const piece = new Float32Array(whole);
    new Uint8Array(piece.buffer).set(bytes.subarray(0, whole * 4));
    const first = samples;
    samples += whole;
    const more = samples < maxSamples;
    const size = opts.chunkSamples;
    if (size === undefined) {
      const waited = onSamples(piece);
      return waited instanceof Promise ? waited.then(() => more) : more;
    }
    return (async () => {
      for (let at = 0; at < whole;) {
        const end = Math.min(whole, (Math.floor((first + at) / size) + 1) * size - first);
        await onSamples(piece.subarray(at, end));
        at = end;
      }
      return more;
    })();
  };
  const result = await runTool(
    findFfmpeg(),
    [
      '-nostdin',
      '-hide_banner',
      '-nostats',
      // info level: the input's declared duration is needed to recognise a truncated file.
      '-v',
      'info',
      ...inputArgs(file),
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-ac',
      '1',
      '-ar',
      String(SAMPLE_RATE),
      '-t',
      String(maxSeconds),
      '-f',
      'f32le',
      'pipe:1',
    ],
    {
      signal: opts.signal,
      timeoutMs: opts.timeoutMs ?? DEFAULT_DECODE_TIMEOUT_MS,
      activity: 'Extracting the audio',
      ...(onStderr ? { onStderr } : {}),
      onStdout: (chunk) => {
        if (opts.onInput !== undefined && inputSeen === undefined) {
          // The first chunk waits for the input's description and the caller's verdict on it.
          const onInput = opts.onInput;
          return seeInput(onInput).then(() => handOn(chunk));
        }
        return handOn(chunk);
      },
    },
  );
  if (limit.passed) {
    throw await decodedTooLong(file, samples / SAMPLE_RATE, opts.refuseOverSeconds ?? maxSeconds);
  }
  if (result.code !== 0) {
    if (/matches no streams|does not contain any stream/i.test(result.stderr)) {
      throw noAudio(declaresVideo(result.stderr));
    }
    throw new EngineError('unreadable_media', UNREADABLE);
  }
  if (samples === 0) throw new EngineError('unreadable_media', UNREADABLE);
  const declared = declaredDuration(result.stderr);
  const decodedSeconds = samples / SAMPLE_RATE;
  if (declared !== undefined && DAMAGE.test(result.stderr)) {
    const expected = Math.min(declared, maxSeconds);
    if (decodedSeconds < 0.9 * expected - 0.25) {
      throw new EngineError(
        'unreadable_media',
        `The file looks incomplete: only ${decodedSeconds.toFixed(1)} of its ${expected.toFixed(1)} seconds could be ` +
          'read. Upload the complete recording again.',
      );
    }
  }
  return samples;
}

/**
 * Growing mono audio: pieces appended in order, kept in one array that grows by a quarter when
 * full, so that the clip ends up in one Float32Array without a list of pieces beside it.
 */
class AudioBuffer {
  private data = new Float32Array(SAMPLE_RATE);
  private size = 0;

  append(samples: Float32Array): void {
    if (this.size + samples.length > this.data.length) {
      const grown = new Float32Array(
        Math.max(this.size + samples.length, Math.ceil(this.data.length * 1.25)),
      );
      grown.set(this.data.subarray(0, this.size));
      this.data = grown;
    }
    this.data.set(samples, this.size);
    this.size += samples.length;
  }

  /** The samples appended so far (a view, not a copy). */
  samples(): Float32Array {
    return this.data.subarray(0, this.size);
  }
}

/**
 * Decodes the first audio stream whole: `streamAudio` into one array.
 *
 * @throws as streamAudio.
 */
export async function decodeAudio(file: string, opts: DecodeOptions = {}): Promise<Float32Array> {
  const audio = new AudioBuffer();
  await streamAudio(
    file,
    (piece) => {
      audio.append(piece);
    },
    opts,
  );
  return audio.samples();
}
