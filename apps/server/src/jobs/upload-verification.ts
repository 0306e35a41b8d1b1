import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MESSAGES, REJECT_VIDEO_OVER_SECONDS } from '@riffscribe/core';
import { AppError, badRequest } from '../errors.js';
import type { ObjectStore } from '../storage/object-store.js';
import { asEngineFailure, loadEngine, type MediaFacts } from './engine-api.js';
import { SNIFF_BYTES, isVideoDemuxer, sniffContainer } from './media-sniff.js';

/** A refusal the user can act on: the stored upload is useless and may be deleted. */
export class MediaRefusal extends AppError {
  constructor(
    message: string,
    /** A specific reason for logs and for the job's error. */
    readonly reason: string,
  ) {
    super('bad_request', message);
    this.name = 'MediaRefusal';
  }
}

/**
 * Reads a stream into `file`, but looks at its first bytes before writing the rest: anything
 * that is not a video container is refused without downloading or probing it.
 */
async function download(source: Readable, file: string): Promise<void> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  const kind = sniffContainer(head);
  if (kind !== 'video') {
    source.destroy();
    throw refusalFor(kind);
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    if (ended) return;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      yield next.value;
    }
  }
  await pipeline(all(), createWriteStream(file, { flags: 'wx', mode: 0o600 }));
}

function refusalFor(kind: 'empty' | 'audio' | 'playlist' | 'unknown'): MediaRefusal {
  switch (kind) {
    case 'empty':
      return new MediaRefusal(MESSAGES.invalidVideo, 'The upload is empty (0 bytes).');
    case 'audio':
      return new MediaRefusal(MESSAGES.invalidFileType, 'The upload is an audio file.');
    case 'playlist':
      return new MediaRefusal(
        MESSAGES.invalidVideo,
        'The upload is a playlist or a list of other files, not a video.',
      );
    case 'unknown':
      return new MediaRefusal(MESSAGES.invalidVideo, 'The upload is not a known video container.');
  }
}

/**
 * The rules of spec section 5 on facts read from the file itself: a video container with a
 * video stream, a readable duration, and for ordinary users at most 31 s. (A file without an
 * audio stream never gets here: engine `probeMedia` refuses it with `no_audio_stream`, and the
 * user is told the video has no sound track.)
 */
export function checkMediaFacts(facts: MediaFacts, limited: boolean): void {
  if (!isVideoDemuxer(facts.formatName)) {
    throw new MediaRefusal(
      MESSAGES.invalidVideo,
      `The container (${facts.formatName}) is not a video format.`,
    );
  }
  if (!facts.hasVideo) {
    throw new MediaRefusal(MESSAGES.invalidFileType, 'The file has no video stream.');
  }
  if (!Number.isFinite(facts.durationSeconds) || facts.durationSeconds <= 0) {
    throw new MediaRefusal(MESSAGES.durationUnreadable, 'The duration could not be read.');
  }
  if (limited && facts.durationSeconds > REJECT_VIDEO_OVER_SECONDS) {
    // The spec's sentence wherever it shows: the refused upload and the failed job's error.
    const sentence = MESSAGES.videoTooLong(Math.round(facts.durationSeconds));
    throw new MediaRefusal(sentence, sentence);
  }
}

/** Probes a local file with the engine and applies the rules; throws MediaRefusal or AppError. */
export async function verifyMediaFile(file: string, limited: boolean): Promise<MediaFacts> {
  let facts: MediaFacts;
  try {
    // No maxDurationSeconds: the length is checked below, with the spec's message.
    facts = await (await loadEngine()).probeMedia(file);
  } catch (error) {
    const failure = asEngineFailure(error);
    if (!failure) throw error;
    switch (failure.code) {
      case 'empty_file':
      case 'unreadable_media':
        throw new MediaRefusal(MESSAGES.invalidVideo, failure.message);
      case 'no_audio_stream':
        // A valid video without a sound track: the engine's sentence says what to do about it
        // (issue 37: "Invalid or unsupported video file." sent people looking for a codec).
        throw new MediaRefusal(failure.message, failure.message);
      case 'too_long': // Only with maxDurationSeconds, which is not passed here.
        throw error;
      case 'timeout':
        throw badRequest(MESSAGES.couldNotValidateDuration);
      case 'cancelled':
      case 'model_failed':
        throw new AppError('unavailable', MESSAGES.couldNotValidateDuration);
    }
  }
  checkMediaFacts(facts, limited);
  return facts;
}

/**
 * Checks a stored upload before a job is accepted: its leading bytes, then ffprobe (through the
 * engine, with a protocol and format whitelist) on a private temporary copy.
 *
 * @throws MediaRefusal with the spec's message when the file is not an acceptable video;
 *   AppError 503 when it could not be checked.
 */
export async function verifyStoredUpload(
  store: ObjectStore,
  key: string,
  options: { limited: boolean },
): Promise<MediaFacts> {
  const dir = path.join(tmpdir(), `riffscribe-verify-${randomUUID()}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    const file = path.join(dir, 'upload');
    await download(await store.get(key), file);
    return await verifyMediaFile(file, options.limited);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
