import { spawn } from 'node:child_process';

/** How a tool run ended. */
export interface ToolResult {
  /** Exit code, or null when the process was killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last part of stderr (bounded). */
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
}

export interface ToolOptions {
  /** Kill the process after this many milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Receives stdout as it comes. */
  onStdout?: (chunk: Buffer) => void;
  /** Most characters of stderr kept (its tail). */
  stderrLimit?: number;
}

/**
 * Runs a binary with an argument list: never through a shell, stdin closed, with a time limit
 * and an abort signal that kill it (SIGKILL: ffmpeg may ignore SIGTERM while blocked on I/O).
 */
export function runTool(binary: string, args: readonly string[], options: ToolOptions) {
  return new Promise<ToolResult>((resolve, reject) => {
    const limit = options.stderrLimit ?? 16_384;
    if (options.signal?.aborted === true) {
      resolve({ code: null, signal: null, stderr: '', timedOut: false, aborted: true });
      return;
    }
    const child = spawn(binary, [...args], {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => options.onStdout?.(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-limit);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ code, signal, stderr, timedOut, aborted });
    });
  });
}
