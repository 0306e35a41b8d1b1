import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { UploadConfig } from '@riffscribe/core';
import { ENGINE_EXEC_ARGV, engineProcessEnv } from '@riffscribe/engine/process-settings';
import { compiledModule, withoutConditions } from '../compiled-module.js';
import type { EngineProgress, EngineTranscription, MediaFacts } from './engine-api.js';
import { isEngineResponse, type EngineRequest, type EngineResponse } from './engine-protocol.js';
import { EngineCrashError } from './failures.js';

/** The parent's environment without Node options that change module resolution. */
function childEnv(): NodeJS.ProcessEnv {
  const tokens = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter((t) => t !== '');
  return engineProcessEnv({ ...process.env, NODE_OPTIONS: withoutConditions(tokens).join(' ') });
}

/** An engine failure that crossed the process boundary, rebuilt as an error with a code. */
export class RemoteEngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
    name = 'EngineError',
    /** With `too_long`: the media's measured length in seconds. */
    readonly durationSeconds?: number,
  ) {
    super(message);
    this.name = name;
  }
}

interface Pending {
  resolve: (response: EngineResponse) => void;
  reject: (error: Error) => void;
  onProgress?: ((progress: EngineProgress) => void) | undefined;
}

export interface EngineHostOptions {
  /** The child's entry file (default: the compiled engine-child.js). */
  entry?: string;
  /** Seconds a cancelled request may take to stop before the child is killed. */
  cancelGraceMs?: number;
  /** Called when the child exits unexpectedly (for logs). */
  onExit?: (info: { code: number | null; signal: NodeJS.Signals | null }) => void;
}

/**
 * Owns one engine child process: forks it, sends it one request at a time, restarts it when it
 * dies (with a growing pause when it keeps dying at once), and kills it on stop. A request in
 * flight when the child dies fails with EngineCrashError, which the worker retries.
 */
export class EngineHost {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped = false;
  private restarts = 0;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly entry: string;

  constructor(private readonly options: EngineHostOptions = {}) {
    this.entry = options.entry ?? compiledModule(import.meta.url, 'jobs', 'engine-child');
  }

  /** The child's process id, while one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the child now rather than on the first request. */
  start(): void {
    this.ensureChild();
  }

  private ensureChild(): ChildProcess {
    if (this.stopped) throw new Error('The engine host is stopped.');
    if (this.child) return this.child;
    if (!existsSync(this.entry)) {
      throw new Error(
        `The engine child ${this.entry} is missing: build the server first (npx tsc -b apps/server).`,
      );
    }
    const child = fork(this.entry, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      // Not the parent's flags: a test runner's resolve conditions would point the child at
      // TypeScript sources it cannot run. The engine's own flags keep its memory down.
      execArgv: [...ENGINE_EXEC_ARGV],
      env: childEnv(),
    });
    this.child = child;
    this.startedAt = Date.now();
    child.on('message', (message: unknown) => {
      if (isEngineResponse(message)) this.onMessage(message);
    });
    child.once('exit', (code, signal) => {
      this.onExit(child, code, signal);
    });
    // A failed send (the child just died) surfaces through 'exit'.
    child.on('error', () => undefined);
    return child;
  }

  private onMessage(message: EngineResponse): void {
    if (message.type === 'ready') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === 'progress') {
      pending.onProgress?.(message.progress);
      return;
    }
    this.pending.delete(message.id);
    pending.resolve(message);
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) {
    if (this.child !== child) return;
    this.child = null;
    const detail = signal ? `signal ${signal}` : `exit code ${String(code)}`;
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.reject(new EngineCrashError(detail));
    }
    if (this.stopped) return;
    this.options.onExit?.({ code, signal });
    // A child that dies right after starting (a broken install) is restarted ever more slowly.
    this.restarts = Date.now() - this.startedAt < 10_000 ? this.restarts + 1 : 0;
    const delay = Math.min(30_000, this.restarts === 0 ? 0 : 500 * 2 ** this.restarts);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopped && !this.child) {
        try {
          this.ensureChild();
        } catch {
          // Reported again on the next request.
        }
      }
    }, delay);
    this.restartTimer.unref();
  }

  private request(
    build: (id: number) => EngineRequest,
    signal: AbortSignal | undefined,
    onProgress?: (progress: EngineProgress) => void,
  ): Promise<EngineResponse> {
    if (signal?.aborted === true) {
      return Promise.reject(new RemoteEngineError('cancelled', 'The work was cancelled.'));
    }
    const child = this.ensureChild();
    const id = this.nextId++;
    return new Promise<EngineResponse>((resolve, reject) => {
      let killTimer: NodeJS.Timeout | null = null;
      const onAbort = () => {
        child.send({ type: 'cancel', id } satisfies EngineRequest, () => undefined);
        // A child that does not stop in time is killed; it is restarted for the next job.
        killTimer = setTimeout(() => {
          if (this.pending.has(id)) child.kill('SIGKILL');
        }, this.options.cancelGraceMs ?? 5000);
      };
      const settle = () => {
        signal?.removeEventListener('abort', onAbort);
        if (killTimer) clearTimeout(killTimer);
      };
      this.pending.set(id, {
        resolve: (response) => {
          settle();
          resolve(response);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        onProgress,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      child.send(build(id), (error) => {
        if (error && this.pending.delete(id)) {
          settle();
          reject(new EngineCrashError(`could not send the request: ${error.message}`));
        }
      });
    });
  }

  private static unwrap<T extends EngineResponse['type']>(
    response: EngineResponse,
    type: T,
  ): Extract<EngineResponse, { type: T }> {
    if (response.type === 'failed') {
      const f = response.failure;
      throw f.code === 'internal'
        ? new RemoteEngineError('internal', f.message, f.name)
        : new RemoteEngineError(f.code, f.message, 'EngineError', f.durationSeconds);
    }
    if (response.type !== type) throw new Error(`Unexpected engine answer ${response.type}`);
    return response as Extract<EngineResponse, { type: T }>;
  }

  /** ffprobe facts about a local file (engine `probeMedia`, run in the child). */
  async probe(file: string, signal?: AbortSignal): Promise<MediaFacts> {
    const response = await this.request((id) => ({ type: 'probe', id, file }), signal);
    return EngineHost.unwrap(response, 'probed').facts;
  }

  /** Transcribes a local file in the child (engine `transcribe`). */
  async transcribe(
    file: string,
    config: UploadConfig,
    options: {
      maxDurationSeconds?: number | undefined;
      /** The duration a probe of this file found, so that the engine does not probe again. */
      durationSeconds?: number | undefined;
      signal?: AbortSignal | undefined;
      onProgress?: (progress: EngineProgress) => void;
    } = {},
  ): Promise<EngineTranscription> {
    const response = await this.request(
      (id) => ({
        type: 'transcribe',
        id,
        file,
        config,
        ...(options.maxDurationSeconds === undefined
          ? {}
          : { maxDurationSeconds: options.maxDurationSeconds }),
        ...(options.durationSeconds === undefined
          ? {}
          : { durationSeconds: options.durationSeconds }),
      }),
      options.signal,
      options.onProgress,
    );
    return EngineHost.unwrap(response, 'transcribed').transcription;
  }

  /** Kills the child and refuses further requests. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        resolve();
      }),
    );
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }
}
