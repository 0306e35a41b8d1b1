import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/database.js';

/** How an attempt at a job ended, as the worker counts it. */
export type AttemptOutcome = 'completed' | 'failed' | 'retried' | 'lease_lost';

/** What the worker reports (jobs/job-runner.ts). */
export interface JobMetrics {
  /** One stage of one attempt took `seconds` (wall clock). */
  stageFinished(stage: string, seconds: number): void;
  attemptEnded(outcome: AttemptOutcome): void;
}

/** Job statuses always exported, so a dashboard sees 0 rather than no series. */
const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;

/** Resident memory of a process in bytes from /proc (Linux); null where it cannot be read. */
async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/**
 * The server's Prometheus metrics (prom-client), one registry per app:
 * - `riffscribe_http_request_duration_seconds{method,route,status_class}`: latency by route
 *   pattern (never the raw URL, which carries ids and signatures);
 * - `riffscribe_jobs{status}`: jobs per status, read from the database at each scrape, so it is
 *   the whole deployment's view whichever process serves it;
 * - `riffscribe_job_attempts_total{outcome}` and `riffscribe_job_stage_duration_seconds{stage}`:
 *   reported by this process's worker (embedded mode);
 * - `riffscribe_engine_resident_memory_bytes{slot}`: RSS of each engine child of this process;
 * - prom-client's default process metrics (`process_resident_memory_bytes`, event loop lag...).
 */
export class Metrics implements JobMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  private readonly stageDuration: Histogram<'stage'>;
  private readonly attempts: Counter<'outcome'>;
  private enginePids: () => number[] = () => [];

  constructor(options: { database?: Database } = {}) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'riffscribe_http_request_duration_seconds',
      help: 'HTTP request latency by route pattern, method and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.stageDuration = new Histogram({
      name: 'riffscribe_job_stage_duration_seconds',
      help: 'Wall-clock time of each processing stage of a job attempt',
      labelNames: ['stage'],
      buckets: [0.05, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900],
      registers,
    });
    this.attempts = new Counter({
      name: 'riffscribe_job_attempts_total',
      help: "Job attempts run by this process's worker, by outcome",
      labelNames: ['outcome'],
      registers,
    });
    const database = options.database;
    if (database) {
      new Gauge({
        name: 'riffscribe_jobs',
        help: 'Jobs by status (queued, processing, completed, failed), from the database',
        labelNames: ['status'],
        registers,
        async collect() {
          const rows = await database.db
            .selectFrom('jobs')
            .select(['status', sql<string>`count(*)`.as('n')])
            .groupBy('status')
            .execute();
          this.reset();
          for (const status of JOB_STATUSES) this.set({ status }, 0);
          for (const row of rows) this.set({ status: row.status }, Number(row.n));
        },
      });
    }
    const enginePids = () => this.enginePids();
    new Gauge({
      name: 'riffscribe_engine_resident_memory_bytes',
      help: 'Resident memory of each engine child process of this server or worker',
      labelNames: ['slot'],
      registers,
      async collect() {
        this.reset();
        const pids = enginePids();
        const sizes = await Promise.all(pids.map(residentBytes));
        sizes.forEach((bytes, slot) => {
          if (bytes !== null) this.set({ slot: String(slot) }, bytes);
        });
      },
    });
  }

  /** Where to find the engine children's process ids (the worker's, once it runs). */
  watchEngines(pids: () => number[]): void {
    this.enginePids = pids;
  }

  /** One answered HTTP request; `route` is the route pattern, or 'unmatched'. */
  requestFinished(method: string, route: string, status: number, seconds: number): void {
    const statusClass = `${String(Math.floor(status / 100))}xx`;
    this.httpDuration.observe({ method, route, status_class: statusClass }, seconds);
  }

  stageFinished(stage: string, seconds: number): void {
    this.stageDuration.observe({ stage }, seconds);
  }

  attemptEnded(outcome: AttemptOutcome): void {
    this.attempts.inc({ outcome });
  }
}

/**
 * Times the stages of one attempt from the stage updates it reports: a stage ends when the next
 * one starts, the last when the attempt ends.
 */
export class StageClock {
  private stage: string | null;
  private since: number;

  constructor(
    private readonly metrics: JobMetrics | undefined,
    first: string,
  ) {
    this.stage = first;
    this.since = performance.now();
  }

  enter(stage: string): void {
    if (stage === this.stage) return;
    this.end();
    this.stage = stage;
    this.since = performance.now();
  }

  end(): void {
    if (this.stage === null) return;
    this.metrics?.stageFinished(this.stage, (performance.now() - this.since) / 1000);
    this.stage = null;
  }
}
