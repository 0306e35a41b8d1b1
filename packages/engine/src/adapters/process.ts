import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { EngineError } from '../errors.js';

/**
 * The environment variable every tool this project starts carries: `<pid>:<start>` of the
 * process that started it. A start-up cleanup kills a leftover tool only when it carries the
 * mark and its starter is gone (issue 38 row 3): never an ffmpeg somebody else started.
 */
export const TOOL_OWNER_VARIABLE = 'RIFFSCRIBE_TOOL_OWNER';

/** A process's start time in clock ticks since boot (Linux /proc), or null elsewhere. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces, so count fields after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** This process's mark and util-linux's setpriv (where there is one), read on the first tool. */
let started: { mark: string; setpriv: string | null } | null = null;
function starter() {
  started ??= {
    mark: `${String(process.pid)}:${processStartTicks(process.pid) ?? ''}`,
    setpriv: ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p)) ?? null,
  };
  return started;
}

/**
 * How a tool is started: on Linux through `setpriv --pdeathsig KILL`, so that the kernel kills
 * it when the process that started it dies, even by SIGKILL (issue 38 row 6); setpriv execs the
 * tool in its place, so the tool is still this process's child.
 */
function launch(binary: string, args: readonly string[]): [string, string[]] {
  const { setpriv } = starter();
  if (process.platform === 'linux' && setpriv) {
    return [setpriv, ['--pdeathsig', 'KILL', '--', binary, ...args]];
  }
  return [binary, [...args]];
}

/** How a child process ended. `stderr` holds at most the head and tail of what it wrote. */
export interface ToolResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

export interface ToolOptions {
  /** Kills the process (SIGKILL) when aborted; the promise rejects with EngineError 'cancelled'. */
  signal?: AbortSignal | undefined;
  /**
   * Wall-clock limit in milliseconds from the start; the promise rejects with EngineError
   * 'timeout'. A promise of it when the limit is not known yet (it depends on a probe running
   * beside the tool): no limit runs until it settles, so it must settle on its own (the probe
   * has a limit of its own); when it rejects, the tool is stopped with that error.
   */
  timeoutMs: number | Promise<number>;
  /** What the user is waiting for, used in the timeout message ("Reading the file"). */
  activity: string;
  /**
   * Receives stdout chunks as they arrive; return false to stop reading and kill the process. A
   * promise pauses reading until it settles (back-pressure: the process waits on its pipe), then
   * reading goes on or stops as it resolves; a rejection kills the process and becomes the error.
   */
  onStdout?: (chunk: Buffer) => boolean | Promise<boolean>;
  /** Receives stderr text as it arrives (all of it, before the head and tail are kept). */
  onStderr?: (text: string) => void;
}

/** Bytes of stderr kept from the start and from the end (a noisy decoder cannot exhaust memory). */
const STDERR_HEAD = 16 * 1024;
const STDERR_TAIL = 16 * 1024;

/**
 * Runs a binary without a shell (arguments are passed as a list, so no file name can inject a
 * command), with a time limit and cancellation that kill the process, and bounded stderr.
 */
export function runTool(
  binary: string,
  args: readonly string[],
  opts: ToolOptions,
): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted === true) {
      reject(cancelledError());
      return;
    }
    const [command, argv] = launch(binary, args);
    const child = spawn(command, argv, {
      env: { ...process.env, [TOOL_OWNER_VARIABLE]: starter().mark },
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let head = '';
    let tail = '';
    let dropped = false;
    let failure: EngineError | Error | undefined;
    let stoppedByReader = false;

    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    const arm = (limitMs: number) => {
      if (ended) return;
      timer = setTimeout(
        () => {
          failure ??= new EngineError(
            'timeout',
            `${opts.activity} took longer than ${Math.round(limitMs / 1000)} seconds and was stopped. ` +
              'Try a shorter clip or a more common format such as MP4 or WAV.',
          );
          kill();
        },
        Math.max(0, limitMs - (Date.now() - started)),
      );
    };
    if (typeof opts.timeoutMs === 'number') arm(opts.timeoutMs);
    else
      opts.timeoutMs.then(arm, (err: unknown) => {
        failure ??= err instanceof Error ? err : new Error(String(err));
        kill();
      });
    const onAbort = () => {
      failure ??= cancelledError();
      kill();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const stopReading = () => {
      stoppedByReader = true;
      kill();
      // Read (and drop) what is buffered, so that the pipe closes and 'close' fires.
      child.stdout.resume();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (stoppedByReader || failure !== undefined || opts.onStdout === undefined) return;
      const more = opts.onStdout(chunk);
      if (more === false) stopReading();
      else if (more !== true) {
        child.stdout.pause();
        more.then(
          (goOn) => {
            if (goOn) child.stdout.resume();
            else stopReading();
          },
          (err: unknown) => {
            failure ??= err instanceof Error ? err : new Error(String(err));
            kill();
            child.stdout.resume();
          },
        );
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      opts.onStderr?.(text);
      if (head.length < STDERR_HEAD) {
        const room = STDERR_HEAD - head.length;
        head += text.slice(0, room);
        text = text.slice(room);
      }
      if (text.length > 0) {
        tail += text;
        if (tail.length > STDERR_TAIL) {
          tail = tail.slice(tail.length - STDERR_TAIL);
          dropped = true;
        }
      }
    });
    child.on('error', (err) => {
      failure ??= new Error(`Could not start ${binary}: ${err.message}`);
    });
    child.on('close', (code, signal) => {
      ended = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (failure !== undefined) {
        reject(failure);
        return;
      }
      const stderr = dropped ? `${head}\n[...]\n${tail}` : head + tail;
      resolve({
        code: stoppedByReader ? 0 : code,
        signal: stoppedByReader ? null : signal,
        stderr,
      });
    });
  });
}

function cancelledError(): EngineError {
  return new EngineError('cancelled', 'The transcription was cancelled.');
}
