import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The repository root (apps/server/test/pipeline/support -> ../../../../..). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../../..');
/** The compiled server, which worker processes and engine children run. */
export const SERVER_DIST = path.join(REPO_ROOT, 'apps/server/dist');

let built: Promise<void> | null = null;

async function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(tmpdir(), `${name}.lock`);
  const started = Date.now();
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      // Another test file builds; a lock older than 5 minutes is from a killed run.
      if (Date.now() - started > 300_000) await rmdir(lock).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await fn();
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}

function tscBuild(): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    const child = spawn(process.execPath, [tsc, '-b', 'apps/server'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({ ok: code === 0, output });
    });
  });
}

/** Server sources whose compiled file is missing or older than the source. */
async function staleServerFiles(): Promise<string[]> {
  const src = path.join(REPO_ROOT, 'apps/server/src');
  const entries = await readdir(src, { recursive: true, withFileTypes: true });
  const stale: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const out = path.join(SERVER_DIST, path.relative(src, file)).replace(/\.ts$/, '.js');
    const [a, b] = await Promise.all([stat(file), stat(out).catch(() => null)]);
    if (!b || b.mtimeMs < a.mtimeMs) stale.push(path.relative(REPO_ROOT, file));
  }
  return stale;
}

/**
 * Builds the server (and the packages it references) with `tsc -b`, once per test process and
 * one test file at a time: the engine child and the worker processes run compiled code.
 * Incremental, so it costs little when nothing changed. Another test file (or a person) may run
 * `tsc -b` at the same moment, so a failed build is tried again; if the packages the server
 * references keep failing to build (being edited), the last good build is used as long as the
 * server's own compiled files are current.
 */
export function ensureServerBuilt(): Promise<void> {
  built ??= withLock('riffscribe-server-build', async () => {
    let last = { ok: false, output: '' };
    for (let attempt = 0; attempt < 3 && !last.ok; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 2000));
      last = await tscBuild();
    }
    if (last.ok) return;
    const stale = await staleServerFiles();
    if (stale.length > 0 || !existsSync(path.join(REPO_ROOT, 'packages/engine/dist/index.js'))) {
      throw new Error(`tsc -b apps/server failed:\n${last.output}`);
    }
    console.warn(`tsc -b apps/server failed; using the last build.\n${last.output}`);
  });
  return built;
}
