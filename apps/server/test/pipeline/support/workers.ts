import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_DIST } from './build.js';

/** A `npm run worker` process (apps/server/dist/worker.js) started by a test. */
export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** Everything it printed (pino JSON lines), for failure messages. */
  output(): string;
  /** Process ids of its children (the engine child), read from /proc. */
  children(): number[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after 10 s; resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts a standalone worker with `env` on top of a minimal environment. `serverDist`: where the
 * compiled server is, for callers that run from a build themselves (the soak script).
 */
export function startWorker(
  env: Record<string, string>,
  serverDist: string = SERVER_DIST,
): WorkerProcess {
  return startServerEntry('worker.js', env, serverDist);
}

/**
 * Starts one of the built server's entry points (`worker.js`, or `main.js`: `npm start`'s
 * process) with `env` on top of a minimal environment.
 */
export function startServerEntry(
  entry: 'worker.js' | 'main.js',
  env: Record<string, string>,
  serverDist: string = SERVER_DIST,
): WorkerProcess {
  const child = spawn(process.execPath, [path.join(serverDist, entry)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    });
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${entry} did not start`);
  return {
    child,
    pid,
    output: () => output,
    children() {
      try {
        return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number);
      } catch {
        return [];
      }
    },
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Whether a process with this id still exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
