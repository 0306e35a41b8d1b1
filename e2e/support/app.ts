import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { copyPgliteTemplate } from '../../apps/server/test/support/pglite-template.js';
import { freePort } from '../../apps/server/test/support/test-server.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningApp {
  url: string;
  dataDir: string;
  logs: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the built app the way `npm start` does (node apps/server/dist/main.js) on embedded
 * defaults, in a data directory of its own, and waits until /api/health answers. Its embedded
 * database starts as a copy of the migrated template (apps/server/test/support/pglite-template.ts)
 * unless `fresh`, which makes it start with an empty data directory as a new install does.
 */
export async function startApp(
  env: Record<string, string> = {},
  options: { fresh?: boolean } = {},
): Promise<RunningApp> {
  const main = path.join(ROOT, 'apps/server/dist/main.js');
  if (!existsSync(main) || !existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('The app is not built: run `npm run build` first (npm test does).');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'riffscribe-e2e-'));
  if (!options.fresh && !env.DATABASE_URL) await copyPgliteTemplate(path.join(dataDir, 'pglite'));
  const url = `http://localhost:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // One browser signs in, reloads and renews tokens far faster than a person: the sign-in
      // budget per address (the rate limits' own tests are in the server suite) is lifted.
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
      RIFFSCRIBE_SECRET: randomBytes(32).toString('base64url'),
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The app did not become healthy:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits, however long a busy machine takes, until the home page leaves the processing state:
 * resolves on 'Your lesson is ready', throws with the page's error on 'Processing Unsuccessful'
 * (so a failed job ends the test at once instead of at its time limit).
 */
export async function waitForLesson(page: Page, timeoutMs = 240_000): Promise<void> {
  const ready = page.getByRole('heading', { name: 'Your lesson is ready' });
  const failed = page.getByRole('heading', { name: 'Processing Unsuccessful' });
  await ready.or(failed).waitFor({ timeout: timeoutMs });
  if ((await failed.count()) > 0) {
    const text = await page.locator('body').innerText();
    throw new Error(`Processing failed: ${text.replace(/\s+/g, ' ').slice(0, 600)}`);
  }
}
