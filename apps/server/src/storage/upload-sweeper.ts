import type { UploadsRepository } from '../repositories/uploads.repository.js';
import type { ObjectStore } from './object-store.js';

/** An upload link not submitted as a job within this many seconds is forgotten, its file deleted. */
export const UNSUBMITTED_UPLOAD_SECONDS = 60 * 60;
/** How often the server sweeps, in seconds. */
export const UPLOAD_SWEEP_INTERVAL_SECONDS = 5 * 60;
/** Where browser uploads live (storage/keys.ts `newUploadKey`). */
const UPLOADS_PREFIX = 'uploads/';

export interface UploadSweeperDeps {
  uploads: UploadsRepository;
  store: ObjectStore;
  /** The clock (tests move it). */
  now?: () => Date;
  log: { info(object: object, message: string): void; warn(object: object, message: string): void };
}

/** What one sweep deleted. */
export interface SweepResult {
  /** Files of links handed out over an hour ago and never submitted (their rows removed too). */
  unsubmitted: string[];
  /** Files under uploads/ that no job and no upload link refers to. */
  orphaned: string[];
}

/**
 * Keeps storage to what lessons need: an upload link hands out room for a file until it is
 * submitted, so files never submitted within an hour are deleted with their link, and so is any
 * file under `uploads/` that nothing refers to (its job's owner deleted, a crash between writes).
 * The API server runs one; two at once only delete the same files twice.
 */
export class UploadSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(private readonly deps: UploadSweeperDeps) {}

  start(intervalSeconds = UPLOAD_SWEEP_INTERVAL_SECONDS): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .catch((error: unknown) => {
          this.deps.log.warn({ err: error }, 'upload sweep failed');
        })
        .finally(() => {
          this.running = null;
        });
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: unsubmitted links past the hour, then orphaned files. */
  async sweep(): Promise<SweepResult> {
    const { uploads, store, log } = this.deps;
    const now = this.deps.now?.() ?? new Date();
    const cutoff = new Date(now.getTime() - UNSUBMITTED_UPLOAD_SECONDS * 1000);
    // The rows go first: once removed, process-video no longer accepts the link (404), so a
    // file is never deleted under a job being created from it.
    const unsubmitted = await uploads.removeUnsubmitted(cutoff);
    for (const key of unsubmitted) await store.delete(key);
    // A link's row is written before the link is handed out, so every file being uploaded has
    // one: a file without a row (or a job) is an orphan.
    const listed = await store.list(UPLOADS_PREFIX);
    const referenced = await uploads.referenced(listed.map((o) => o.key));
    const orphaned = listed.map((o) => o.key).filter((key) => !referenced.has(key));
    for (const key of orphaned) await store.delete(key);
    if (unsubmitted.length > 0 || orphaned.length > 0) {
      log.info(
        { unsubmitted: unsubmitted.length, orphaned: orphaned.length },
        'deleted uploads nobody submitted or refers to',
      );
    }
    return { unsubmitted, orphaned };
  }
}
