import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  MAX_NOTES_PER_LESSON,
  MAX_UPLOAD_BYTES,
  MESSAGES,
  REJECT_VIDEO_OVER_SECONDS,
  TOO_MANY_NOTES,
  formatMegabytes,
  isPrivileged,
  uploadConfigSchema,
  type JobStage,
  type UploadConfig,
} from '@riffscribe/core';
import type {
  CompletedOutputs,
  LeasedJob,
  StageUpdate,
} from '../repositories/job-leases.repository.js';
import type { JobFile } from '../repositories/job-files.repository.js';
import { jobObjectKey } from '../storage/keys.js';
import type { ObjectStore } from '../storage/object-store.js';
import { putFile } from '../storage/put-file.js';
import { asEngineFailure } from './engine-api.js';
import type { EngineHost } from './engine-host.js';
import { PermanentJobError } from './failures.js';
import { STAGE_MESSAGES, progressPlan, spanPercent } from './stages.js';
import { MediaRefusal, checkMediaFacts } from './upload-verification.js';
import { canCopyForBrowser, makeThumbnail, transcodeForBrowser } from './video.js';
import { JOB_WORK_PREFIX, makeWorkFolder } from './startup-cleanup.js';

/** Output files of a job and where they are stored. Keys are fixed per job, so a rerun overwrites. */
const OUTPUT_FILES = {
  results: {
    key: (id: string) => jobObjectKey(id, 'results.json', 'original'),
    type: 'application/json',
  },
  notes: {
    key: (id: string) => jobObjectKey(id, 'notes.json', 'original'),
    type: 'application/json',
  },
  chords: {
    key: (id: string) => jobObjectKey(id, 'chords.json', 'original'),
    type: 'application/json',
  },
  // The beat grid the engine heard (bars and tempo for the notation and the exports); absent
  // when the engine gives none, and the exports then assume a steady 120 bpm in 4/4.
  beats: {
    key: (id: string) => jobObjectKey(id, 'beats.json', 'original'),
    type: 'application/json',
  },
  'video.mp4': {
    key: (id: string) => jobObjectKey(id, 'video.mp4', 'original'),
    type: 'video/mp4',
  },
} as const;

/** The thumbnail the worker makes when the owner's browser sent none. */
export const generatedThumbnailKey = (jobId: string) => jobObjectKey(jobId, 'poster.jpg');

/** Every object key a job's processing may write. */
function outputKeys(jobId: string): string[] {
  return [...Object.values(OUTPUT_FILES).map((f) => f.key(jobId)), generatedThumbnailKey(jobId)];
}

/** Deletes whatever a failed job's attempts stored (its upload and the owner's thumbnail stay). */
export async function removeOutputs(store: ObjectStore, jobId: string): Promise<void> {
  await Promise.allSettled(outputKeys(jobId).map((key) => store.delete(key)));
}

export interface HandlerDeps {
  store: ObjectStore;
  engine: EngineHost;
  /** ffmpeg binary for the browser video and the thumbnail. */
  ffmpeg: () => Promise<string>;
  /** Writes stage, percent and message to the job (lease-checked by the caller). */
  report: (update: StageUpdate) => Promise<void>;
  /**
   * Called right before the outputs are stored: renews the lease and throws when this attempt
   * no longer holds it, so that a stale attempt does not overwrite the outputs of a newer one.
   */
  confirmLease: () => Promise<void>;
  signal: AbortSignal;
  /** Upper bound of one ffmpeg run, in milliseconds. */
  toolTimeoutMs: number;
  /** Directory for per-job working files (default: the system temp directory). */
  workRoot?: string;
  log: { warn: (object: object, message: string) => void };
}

function update(stage: JobStage, progress: number, message?: string): StageUpdate {
  return { stage, progress, message: message ?? STAGE_MESSAGES[stage] };
}

/**
 * The engine's too_long (an ordinary user's file held more audio than its header claimed, found
 * while decoding) as the spec's refusal; any other error as it is.
 */
function tooLongRefusal(error: unknown, limited: boolean): unknown {
  const failure = asEngineFailure(error);
  if (!limited || failure?.code !== 'too_long') return error;
  const message = MESSAGES.videoTooLong(
    Math.round(failure.durationSeconds ?? REJECT_VIDEO_OVER_SECONDS),
  );
  return new MediaRefusal(message, message);
}

/** The job's stored config, completed with the spec's defaults. */
function jobConfig(job: LeasedJob): UploadConfig {
  const parsed = uploadConfigSchema.safeParse(job.config);
  if (!parsed.success) throw new PermanentJobError('The job settings are not valid.');
  return parsed.data;
}

/**
 * Processes one leased job and returns its outputs, stored but not yet recorded: downloads the
 * upload, checks it again (it could have been replaced since it was accepted), transcribes it in
 * the engine child, makes the browser video and the thumbnail, and writes every output to
 * storage. The caller records them and completes the job only if it still holds the lease.
 *
 * @throws PermanentJobError, MediaRefusal, engine errors, storage errors (see failures.ts).
 */
export async function processJob(job: LeasedJob, deps: HandlerDeps): Promise<CompletedOutputs> {
  const config = jobConfig(job);
  const limited = !isPrivileged(job.ownerRole);
  const withVideo = !config.skip_video_generation;
  const plan = progressPlan(withVideo);
  const workDir = path.join(
    deps.workRoot ?? tmpdir(),
    `${JOB_WORK_PREFIX}${job.id}-${String(job.attempts)}`,
  );
  await makeWorkFolder(workDir);
  try {
    await deps.report(update('probing', 1));
    const stored = await deps.store.head(job.uploadKey);
    if (!stored) throw new PermanentJobError('The uploaded file is no longer in storage.');
    if (limited && stored.size > MAX_UPLOAD_BYTES) {
      throw new PermanentJobError(MESSAGES.fileTooLarge(formatMegabytes(stored.size)));
    }
    const input = path.join(workDir, 'input');
    await pipeline(await deps.store.get(job.uploadKey), createWriteStream(input, { mode: 0o600 }));

    const facts = await deps.engine.probe(input, deps.signal);
    checkMediaFacts(facts, limited);

    // The browser video and the thumbnail need only the upload: ffmpeg makes them while the
    // engine transcribes (a copy takes a fraction of a second, an encode takes longer than the
    // engine). A failure of either side stops the other and fails the job with its own error.
    // Progress stays in stage order: the video's own progress is reported once the engine is done.
    const ffmpeg = await deps.ffmpeg();
    const sideWork = new AbortController();
    const sideSignal = AbortSignal.any([deps.signal, sideWork.signal]);
    const videoFile = path.join(workDir, 'video.mp4');
    let engineDone = false;
    let reported = -1;
    const reportVideo = (percent: number) => {
      const overall = spanPercent(plan.videoFrom, plan.videoTo, percent);
      if (overall <= reported) return;
      reported = overall;
      void deps.report(update('final_video_generation', overall)).catch(() => undefined);
    };
    let videoPercent = 0;
    const video = withVideo
      ? transcodeForBrowser({
          ffmpeg,
          input,
          output: videoFile,
          durationSeconds: facts.durationSeconds,
          frameRate: facts.frameRate,
          copy: canCopyForBrowser(facts),
          timeoutMs: deps.toolTimeoutMs,
          signal: sideSignal,
          onProgress: (percent) => {
            videoPercent = percent;
            if (engineDone) reportVideo(percent);
          },
        })
      : Promise.resolve();
    const posterFile = path.join(workDir, 'poster.jpg');
    const poster: Promise<string | null> =
      job.thumbnailKey === null
        ? makeThumbnail({
            ffmpeg,
            input,
            output: posterFile,
            atSeconds: Math.min(1, facts.durationSeconds / 2),
            timeoutMs: Math.min(deps.toolTimeoutMs, 60_000),
            signal: sideSignal,
          }).then(
            () => posterFile,
            (error: unknown) => {
              // A lesson without a picture in the lists is still a lesson.
              deps.log.warn({ err: error, jobId: job.id }, 'thumbnail failed');
              return null;
            },
          )
        : Promise.resolve(null);
    // A failed video stops the engine at once (and is awaited below, so it is not unhandled).
    const videoFailure: { error?: unknown } = {};
    video.catch((error: unknown) => {
      videoFailure.error = error;
      sideWork.abort();
    });

    let transcription: Awaited<ReturnType<EngineHost['transcribe']>>;
    try {
      transcription = await deps.engine.transcribe(input, config, {
        signal: sideSignal,
        ...(limited ? { maxDurationSeconds: REJECT_VIDEO_OVER_SECONDS } : {}),
        // The probe above is the job's only one: the engine decodes straight away.
        durationSeconds: facts.durationSeconds,
        onProgress: (p) => {
          const stage = p.stage;
          const percent = spanPercent(plan.engineFrom, plan.engineTo, p.percent);
          const message = p.message.trim() || STAGE_MESSAGES[stage];
          void deps.report(update(stage, percent, message)).catch(() => undefined);
        },
      });
    } catch (error) {
      // Whichever side failed first is the cause: the other one was only stopped because of it.
      const videoFirst = 'error' in videoFailure;
      sideWork.abort();
      await Promise.allSettled([video, poster]);
      throw videoFirst ? videoFailure.error : tooLongRefusal(error, limited);
    }
    const duration =
      Number.isFinite(transcription.results.duration) && transcription.results.duration > 0
        ? transcription.results.duration
        : facts.durationSeconds;

    engineDone = true;
    if (withVideo) {
      await deps.report(update('final_video_generation', plan.videoFrom));
      reported = Math.max(reported, plan.videoFrom);
      reportVideo(videoPercent);
    }
    try {
      await video;
    } catch (error) {
      sideWork.abort();
      await poster;
      throw error;
    }
    const thumbnail = await poster;

    await deps.report(
      update(
        withVideo ? 'final_video_generation' : 'detecting_chords',
        plan.storing,
        'Saving your lesson...',
      ),
    );
    await deps.confirmLease();
    const files: JobFile[] = [];
    /** Stores one output, from memory or from a file of the work folder (storage/put-file.ts). */
    const putOutput = async (name: keyof typeof OUTPUT_FILES, body: Buffer | { file: string }) => {
      const spec = OUTPUT_FILES[name];
      const key = spec.key(job.id);
      let size: number;
      if (Buffer.isBuffer(body)) {
        await deps.store.put(key, body, spec.type);
        size = body.length;
      } else {
        size = await putFile(deps.store, key, body.file, spec.type);
      }
      files.push({ jobId: job.id, name, version: 'original', key, contentType: spec.type, size });
    };
    const putJson = (name: 'results' | 'notes' | 'chords' | 'beats', value: unknown) =>
      putOutput(name, Buffer.from(JSON.stringify(value)));
    // The results say which audio files exist besides the video, so the player asks for no stem
    // that is not there (the pipeline writes none yet).
    // One limit on notes a lesson, the engine's output included (edit-notes and exports keep it).
    if (transcription.notes.length > MAX_NOTES_PER_LESSON) {
      throw new PermanentJobError(TOO_MANY_NOTES);
    }
    await putJson('results', { ...transcription.results, duration, audio_files: [] });
    await putJson('notes', transcription.notes);
    await putJson('chords', transcription.chords);
    if (transcription.beats) await putJson('beats', transcription.beats);
    if (withVideo) {
      await putOutput('video.mp4', { file: videoFile });
    }
    let generatedThumbnail: string | null = null;
    if (thumbnail !== null) {
      generatedThumbnail = generatedThumbnailKey(job.id);
      await putFile(deps.store, generatedThumbnail, thumbnail, 'image/jpeg');
    }
    return {
      files,
      duration,
      generatedThumbnailKey: generatedThumbnail,
      message: MESSAGES.processingComplete,
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
