import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { compiledModule, withoutConditions } from '../compiled-module.js';
import { badRequest, payloadTooLarge, serviceUnavailable } from '../errors.js';
import { WorkFailed, WorkRefused, type WorkAnswer, type WorkTask } from './work-tasks.js';

interface Queued {
  task: WorkTask & { id: number };
  resolve: (answer: { bytes: Uint8Array; count: number }) => void;
  reject: (error: Error) => void;
}

/**
 * Runs CPU work a request needs on a worker thread (issue 38 build item 1), so that it never
 * holds the API's event loop: on the request thread a 50,000-note export held every other request
 * (`/api/health` included) for the whole export, and a 16 MB edit-notes save for 0.6 s. One
 * thread per pool, started on first use. Tasks run one at a time in order, at most `maxQueued`
 * waiting or running (past that one is refused at once); one that runs past `timeoutMs` ends the
 * worker and fails, and the next starts on a fresh worker.
 */
export class WorkerPool {
  private worker: Worker | null = null;
  private readonly queue: Queued[] = [];
  private current: (Queued & { timer: NodeJS.Timeout }) | null = null;
  private nextId = 1;

  constructor(
    /** What the user is told when the queue is full. */
    private readonly busy: string,
    private readonly timeoutMs = 60_000,
    private readonly maxQueued = 16,
  ) {}

  /**
   * The task's answer for a request: a refusal is the request's 400 (413 for too many notes), a
   * full queue, a time-out or a stopping server its 503.
   */
  async answer(task: WorkTask): Promise<{ bytes: Uint8Array; count: number }> {
    try {
      return await this.run(task);
    } catch (error) {
      if (error instanceof WorkFailed) throw serviceUnavailable(error.message);
      if (error instanceof WorkRefused) {
        throw error.status === 413 ? payloadTooLarge(error.message) : badRequest(error.message);
      }
      throw error;
    }
  }

  run(task: WorkTask): Promise<{ bytes: Uint8Array; count: number }> {
    if (this.queue.length + (this.current ? 1 : 0) >= this.maxQueued) {
      return Promise.reject(new WorkFailed(this.busy));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ task: { ...task, id: this.nextId++ }, resolve, reject });
      this.next();
    });
  }

  /** Stops the worker (shutdown); exports still waiting fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    const stopping = new WorkFailed('The server is stopping.');
    for (const queued of this.queue.splice(0)) queued.reject(stopping);
    this.settle(stopping);
    if (worker) await worker.terminate();
  }

  /** Sends the next waiting export to the worker when none is running. */
  private next(): void {
    if (this.current) return;
    const queued = this.queue.shift();
    if (!queued) return;
    let worker: Worker;
    try {
      worker = this.ensureWorker();
    } catch (error) {
      queued.reject(error instanceof Error ? error : new Error(String(error)));
      this.next();
      return;
    }
    const timer = setTimeout(() => {
      this.fail(new WorkFailed('This took too long. Please try again later.'));
    }, this.timeoutMs);
    timer.unref();
    this.current = { ...queued, timer };
    worker.postMessage(queued.task);
  }

  /** Ends the running export with `answer` and starts the next. */
  private settle(answer: WorkAnswer | Error): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    clearTimeout(current.timer);
    if (answer instanceof Error) current.reject(answer);
    else if (answer.ok) current.resolve({ bytes: answer.bytes, count: answer.count });
    else if (answer.refused) current.reject(new WorkRefused(answer.message, answer.refused));
    else current.reject(new Error(answer.message));
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const entry = compiledModule(import.meta.url, 'services', 'worker-thread');
    if (!existsSync(entry)) {
      throw new Error(
        `The worker thread ${entry} is missing: build the server (npx tsc -b apps/server).`,
      );
    }
    const worker = new Worker(entry, { execArgv: withoutConditions(process.execArgv) });
    worker.unref();
    worker.on('message', (answer: WorkAnswer) => {
      if (this.worker !== worker || answer.id !== this.current?.task.id) return;
      this.settle(answer);
      this.next();
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.fail(error);
    });
    worker.on('exit', () => {
      if (this.worker === worker)
        this.fail(new WorkFailed('This stopped unexpectedly. Please try again.'));
    });
    this.worker = worker;
    return worker;
  }

  /** The worker is gone or stuck: its export fails, the next starts on a fresh worker. */
  private fail(error: Error): void {
    const worker = this.worker;
    this.worker = null;
    this.settle(error);
    if (worker) void worker.terminate();
    this.next();
  }
}

/** The process's exports (GET /api/export). */
export const exportPool = new WorkerPool(
  'The server is busy with other exports. Please try again in a minute.',
);

/**
 * The process's edit saves (edit-notes, edit-chords), on a thread of their own so that an
 * auto-save never waits behind an export.
 */
export const editsPool = new WorkerPool(
  'The server is busy saving other edits. Please try again in a moment.',
);
