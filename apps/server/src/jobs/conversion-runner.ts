import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { findFfmpeg, findFfprobe } from '@riffscribe/engine/media-tools';
import type { Database } from '../db/database.js';
import {
  ConversionsRepository,
  type LeasedConversion,
} from '../repositories/conversions.repository.js';
import { jobObjectKey } from '../storage/keys.js';
import { ObjectNotFoundError, type ObjectStore } from '../storage/object-store.js';
import { putFile } from '../storage/put-file.js';
import { JobFilesRepository } from '../repositories/job-files.repository.js';
import {
  ConversionRefusal,
  TOO_SLOW,
  composeOverlay,
  convertRecording,
  logoBytes,
  probeLessonVideo,
  probeRecording,
  recordingLimitSeconds,
} from './conversion-media.js';
import type { WorkerLog } from './job-runner.js';
import {
  CONVERT_WORK_PREFIX,
  killOrphanTools,
  makeWorkFolder,
  removeStaleWorkFolders,
} from './startup-cleanup.js';

export { recordingByteLimit } from './conversion-media.js';

/** The job file the MP4 becomes (download-result serves it). */
export const CONVERTED_FILE_NAME = 'webm_converted.mp4';
/** The job file a WebM export with the overlay put on by the server becomes. */
export const OVERLAID_WEBM_FILE_NAME = 'video_with_tabs.webm';

/** What a conversion stores: the job file's name, type and extension. */
function outputOf(conversion: LeasedConversion) {
  return conversion.overlay?.format === 'webm'
    ? { name: OVERLAID_WEBM_FILE_NAME, contentType: 'video/webm', extension: 'webm' }
    : { name: CONVERTED_FILE_NAME, contentType: 'video/mp4', extension: 'mp4' };
}

/**
 * Emitted (`queued`) when a conversion is started in this process, so this process's runner
 * takes it at once instead of at its next poll.
 */
export const conversionQueued = new EventEmitter();
conversionQueued.setMaxListeners(0);

export interface ConversionRunnerDeps {
  database: Database;
  store: ObjectStore;
  log: WorkerLog;
  /** The longest ffmpeg run (CONVERT_TIME_LIMIT_SECONDS). */
  timeLimitSeconds: number;
  /** A lease lasts this long unless renewed (every third of it). */
  leaseSeconds: number;
  /** Pause between polls of an empty queue; default one second. */
  pollMs?: number;
  /** Where working folders go; default the system's temporary directory. */
  workRoot?: string;
}

type AbortCause = 'shutdown' | 'lease_lost';

const FAILED = 'The conversion failed. Please try again.';

/**
 * Converts MP4 exports (services/convert.service.ts), one at a time per process, from the
 * conversions table: claims the oldest queued row with a lease (renewed while it runs; every
 * write fenced by its token), downloads the WebM into a working folder of its own, probes and
 * converts it with ffmpeg (conversion-media.ts), stores the MP4 as the job's
 * `webm_converted.mp4`, and deletes the upload. A runner that dies leaves its lease to run out:
 * the conversion is taken again once, then failed. Stopping gives the running one back.
 */
export class ConversionRunner {
  private readonly conversions: ConversionsRepository;
  private readonly holder = `${hostname()}:${process.pid}`;
  private readonly pollMs: number;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private current: AbortController | null = null;
  private wake: (() => void) | null = null;
  private readonly onQueued = () => {
    this.wake?.();
  };

  constructor(private readonly deps: ConversionRunnerDeps) {
    this.conversions = new ConversionsRepository(deps.database.db);
    this.pollMs = deps.pollMs ?? 1000;
  }

  start(): void {
    if (this.loopDone) return;
    conversionQueued.on('queued', this.onQueued);
    this.loopDone = this.clearLeftovers().then(() => this.loop());
  }

  /** Stops taking conversions and gives the running one back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    conversionQueued.off('queued', this.onQueued);
    this.current?.abort('shutdown' satisfies AbortCause);
    this.wake?.();
    await this.loopDone;
  }

  private get workRoot(): string {
    return this.deps.workRoot ?? tmpdir();
  }

  /** What a SIGKILLed predecessor left: orphaned ffmpeg, and working folders nobody holds. */
  private async clearLeftovers(): Promise<void> {
    try {
      const killed = killOrphanTools([findFfmpeg(), findFfprobe()]);
      const removed = await removeStaleWorkFolders(
        this.workRoot,
        this.conversions,
        CONVERT_WORK_PREFIX,
      );
      if (killed.length > 0 || removed.length > 0) {
        this.deps.log.warn({ killed, removed }, 'cleared what a stopped conversion left');
      }
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not clear what a stopped conversion left');
    }
  }

  private isStopping(): boolean {
    return this.stopping;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private async loop(): Promise<void> {
    while (!this.isStopping()) {
      let claimed: LeasedConversion | null = null;
      try {
        await this.failExpired();
        claimed = await this.conversions.claim({
          token: randomUUID(),
          holder: this.holder,
          seconds: this.deps.leaseSeconds,
        });
      } catch (error) {
        this.deps.log.warn({ err: error }, 'conversion queue poll failed');
      }
      if (!claimed) {
        await this.sleep(this.pollMs);
        continue;
      }
      try {
        await this.run(claimed);
      } catch (error) {
        // Bookkeeping failed (database down): the lease runs out and another run takes it.
        this.deps.log.error({ err: error, jobId: claimed.jobId }, 'conversion bookkeeping failed');
      }
    }
  }

  /** Conversions whose runner died on their last run fail; their uploads are deleted. */
  private async failExpired(): Promise<void> {
    for (const lost of await this.conversions.failExpired()) {
      this.deps.log.warn({ jobId: lost.jobId }, 'conversion failed: its runner stopped twice');
      await this.deps.store.delete(lost.uploadKey).catch(() => undefined);
    }
  }

  private async run(conversion: LeasedConversion): Promise<void> {
    const { jobId, token } = conversion;
    const log = {
      info: (o: object, m: string) => {
        this.deps.log.info({ jobId, ...o }, m);
      },
      warn: (o: object, m: string) => {
        this.deps.log.warn({ jobId, ...o }, m);
      },
    };
    const controller = new AbortController();
    this.current = controller;
    if (this.stopping) controller.abort('shutdown' satisfies AbortCause);
    const heartbeat = setInterval(
      () => {
        this.conversions.renew(jobId, token, this.deps.leaseSeconds).then(
          (held) => {
            if (!held && !controller.signal.aborted) controller.abort('lease_lost');
          },
          (error: unknown) => {
            log.warn({ err: error }, 'conversion lease renewal failed');
          },
        );
      },
      (this.deps.leaseSeconds * 1000) / 3,
    );
    // A folder of this run's own (its start time): a run handed back at shutdown is taken again
    // with the same attempt number, and the first run's clean-up, still finishing, removed the
    // second's folder from under its ffmpeg when both used `<job>-<attempt>` (a rare flake of
    // convert.test: ENOENT on the converted file).
    const dir = path.join(this.workRoot, `${CONVERT_WORK_PREFIX}${jobId}-${String(Date.now())}`);
    const made = outputOf(conversion);
    const outputKey = jobObjectKey(
      jobId,
      `${made.name.replace(/\.\w+$/, '')}-${randomUUID()}.${made.extension}`,
      'original',
    );
    const output = { stored: false };
    const started = Date.now();
    log.info({ attempt: conversion.attempts }, 'conversion started');
    try {
      const size = await this.convert(conversion, dir, outputKey, controller.signal, () => {
        output.stored = true;
      });
      const replaced = await this.conversions.complete(jobId, token, {
        jobId,
        name: made.name,
        version: 'original',
        key: outputKey,
        contentType: made.contentType,
        size,
      });
      if (replaced === false) {
        log.warn({}, 'conversion lease lost before completion; output discarded');
        await this.deps.store.delete(outputKey).catch(() => undefined);
        return;
      }
      if (replaced !== null) await this.deps.store.delete(replaced).catch(() => undefined);
      await this.deps.store.delete(conversion.uploadKey).catch(() => undefined);
      log.info({ ms: Date.now() - started }, 'conversion completed');
    } catch (thrown) {
      if (output.stored) await this.deps.store.delete(outputKey).catch(() => undefined);
      const cause = controller.signal.aborted ? (controller.signal.reason as AbortCause) : null;
      if (cause === 'lease_lost') {
        log.warn({}, 'conversion lease lost; another run or a new upload owns it');
        return;
      }
      if (cause === 'shutdown') {
        await this.conversions.release(jobId, token);
        log.info({}, 'conversion handed back: shutting down');
        return;
      }
      const message = thrown instanceof ConversionRefusal ? thrown.message : FAILED;
      log.warn({ err: thrown }, `conversion failed: ${message}`);
      if (await this.conversions.fail(jobId, token, message)) {
        await this.deps.store.delete(conversion.uploadKey).catch(() => undefined);
      }
    } finally {
      clearInterval(heartbeat);
      this.current = null;
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Download, probe, convert, store; returns the MP4's size. */
  private async convert(
    conversion: LeasedConversion,
    dir: string,
    outputKey: string,
    signal: AbortSignal,
    onStored: () => void,
  ): Promise<number> {
    const { jobId, token } = conversion;
    await makeWorkFolder(dir);
    const input = path.join(dir, 'recording.webm');
    const made = outputOf(conversion);
    const output = path.join(dir, `converted.${made.extension}`);
    await this.copyObject(
      conversion.uploadKey,
      input,
      signal,
      'The recording was not found. Please export the video again.',
    );
    await this.report(jobId, token, 2, signal);
    const limitSeconds = recordingLimitSeconds(conversion.lessonSeconds);
    const ffprobe = findFfprobe();
    const facts = await probeRecording(ffprobe, input, { limitSeconds, signal });
    await this.report(jobId, token, 5, signal);
    const deadline = Date.now() + this.deps.timeLimitSeconds * 1000;
    let lastWrite = 0;
    const onProgress = (percent: number) => {
      // At most one progress write a second; the poll reads every two.
      const now = Date.now();
      if (now - lastWrite < 1000) return;
      lastWrite = now;
      void this.report(jobId, token, 5 + percent * 0.9, signal).catch(() => undefined);
    };
    if (conversion.overlay) {
      const lessonVideo = await this.lessonVideo(jobId, dir, signal);
      const logo = path.join(dir, 'logo.png');
      await writeFile(logo, logoBytes(conversion.overlay.logo_png), { mode: 0o600 });
      await composeOverlay({
        ffmpeg: findFfmpeg(),
        lessonVideo,
        facts: await probeLessonVideo(ffprobe, lessonVideo, signal),
        band: input,
        logo,
        overlay: conversion.overlay,
        output,
        limitSeconds,
        timeoutMs: this.deps.timeLimitSeconds * 1000,
        signal,
        onProgress,
      });
    } else {
      await convertRecording({
        ffmpeg: findFfmpeg(),
        input,
        output,
        limitSeconds,
        expectedSeconds: Math.min(
          limitSeconds,
          facts.headerSeconds ?? conversion.lessonSeconds ?? limitSeconds,
        ),
        timeoutMs: this.deps.timeLimitSeconds * 1000,
        signal,
        onProgress,
      });
    }
    if (Date.now() > deadline) throw new ConversionRefusal(TOO_SLOW);
    const { size } = await stat(output);
    if (size === 0) throw new ConversionRefusal('The recording could not be read.');
    await this.report(jobId, token, 96, signal);
    onStored();
    await putFile(this.deps.store, outputKey, output, made.contentType);
    return size;
  }

  /** The lesson's own video (`video.mp4`), copied into the working folder. */
  private async lessonVideo(jobId: string, dir: string, signal: AbortSignal): Promise<string> {
    const file = await new JobFilesRepository(this.deps.database.db).find(
      jobId,
      'video.mp4',
      'original',
    );
    const missing = "The lesson's video is not available.";
    if (!file) throw new ConversionRefusal(missing);
    const local = path.join(dir, 'lesson-video');
    await this.copyObject(file.key, local, signal, missing);
    return local;
  }

  /** Copies a stored object into a file; a missing object is refused with `missing`. */
  private async copyObject(
    key: string,
    file: string,
    signal: AbortSignal,
    missing: string,
  ): Promise<void> {
    try {
      await pipeline(await this.deps.store.get(key), createWriteStream(file, { mode: 0o600 }), {
        signal,
      });
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new ConversionRefusal(missing);
      throw error;
    }
  }

  /** Writes the percent done; throws when the run was aborted or its lease is gone. */
  private async report(
    jobId: string,
    token: string,
    percent: number,
    signal: AbortSignal,
  ): Promise<void> {
    if (signal.aborted) throw new Error('conversion aborted');
    const held = await this.conversions.progress(jobId, token, percent);
    if (!held) throw new Error('conversion lease lost');
  }
}
