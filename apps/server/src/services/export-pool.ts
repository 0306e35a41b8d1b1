import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { BeatGrid, ExportFormat, NotationMeta, NoteEvent } from '@riffscribe/core';
import { compiledModule, withoutConditions } from '../compiled-module.js';

/** What the worker is asked: one export of one lesson's notes. */
export interface ExportTask {
  id: number;
  format: ExportFormat;
  notes: readonly NoteEvent[];
  grid: BeatGrid;
  meta: NotationMeta;
}
export type ExportTaskResult =
  { id: number; ok: true; bytes: Uint8Array } | { id: number; ok: false; message: string };

/** An export that ran past its time, or a worker that died under it. */
export class ExportFailed extends Error {}

interface Pending {
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Runs exports on one worker thread (issue 38 row 1): `scoreOf` and the writers are CPU work in
 * proportion to the notes, and on the request thread a 50,000-note lesson held every other
 * request (`/api/health` included) for the whole export. One thread, started on the first
 * export: the API keeps the other core. Tasks queue in order; one that runs past `timeoutMs`
 * ends the worker (the next export starts a fresh one) and fails.
 */
export class ExportPool {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly timeoutMs = 60_000) {}

  run(task: Omit<ExportTask, 'id'>): Promise<Uint8Array> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new ExportFailed('The export took too long.'));
      }, this.timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ ...task, id } satisfies ExportTask);
    });
  }

  /** Stops the worker (shutdown); exports still waiting fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.rejectAll(new ExportFailed('The server is stopping.'));
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const entry = compiledModule(import.meta.url, 'services', 'export-worker');
    if (!existsSync(entry)) {
      throw new Error(
        `The export worker ${entry} is missing: build the server (npx tsc -b apps/server).`,
      );
    }
    const worker = new Worker(entry, { execArgv: withoutConditions(process.execArgv) });
    worker.unref();
    worker.on('message', (answer: ExportTaskResult) => {
      const pending = this.pending.get(answer.id);
      if (!pending) return;
      this.pending.delete(answer.id);
      clearTimeout(pending.timer);
      if (answer.ok) pending.resolve(answer.bytes);
      else pending.reject(new Error(answer.message));
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.fail(error);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.fail(new ExportFailed('The export stopped unexpectedly.'));
    });
    this.worker = worker;
    return worker;
  }

  /** The worker is gone or stuck: everything waiting on it fails, the next export starts anew. */
  private fail(error: Error): void {
    const worker = this.worker;
    this.worker = null;
    this.rejectAll(error);
    if (worker) void worker.terminate();
  }

  private rejectAll(error: Error): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
  }
}

/** The process's export pool. */
export const exportPool = new ExportPool();
