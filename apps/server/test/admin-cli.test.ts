import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { AccountService } from '../src/services/account.service.js';
import { copyPgliteTemplate } from './support/pglite-template.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'apps/server/dist/cli/admin.js');

/** When the server's or its packages' TypeScript sources last changed (ms since the epoch). */
function newestSource(): number {
  let newest = 0;
  for (const dir of ['apps/server/src', 'packages/core/src', 'packages/engine/src']) {
    for (const entry of readdirSync(path.join(root, dir), {
      recursive: true,
      withFileTypes: true,
    })) {
      if (entry.isFile() && entry.name.endsWith('.ts')) {
        newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

/** The admin command, as `npm run admin -- ...` runs it, against an embedded database. */
describe('admin command', () => {
  let dataDir: string;
  const env = () => ({ ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', DATABASE_URL: '' });
  const admin = async (...args: string[]) => {
    try {
      const { stdout } = await run(process.execPath, [cli, ...args], { env: env() });
      return { code: 0, out: stdout.trim() };
    } catch (error) {
      const e = error as { code: number; stderr: string };
      return { code: e.code, out: e.stderr.trim() };
    }
  };

  beforeAll(async () => {
    // The command as built; built again only when a source is newer (npm test has built it).
    if (!existsSync(cli) || newestSource() > statSync(cli).mtimeMs) {
      await run('npx', ['tsc', '-b', 'apps/server'], { cwd: root });
    }
    dataDir = mkdtempSync(path.join(tmpdir(), 'riffscribe-admin-'));
    await copyPgliteTemplate(path.join(dataDir, 'pglite'));
    const database = await openDatabase({
      driver: 'pglite',
      dataDir: path.join(dataDir, 'pglite'),
    });
    await new AccountService(database, {
      adminEmails: [],
      pilotEmails: [],
      signupCredits: { creator: 3, view: 10 },
    }).signIn({ issuer: 'test', subject: 's1', email: 'Player@Example.test', name: 'Player' });
    await database.close();
  }, 120_000);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows, sets roles and grants credits', async () => {
    expect((await admin('show', 'player@example.test')).out).toBe(
      'player@example.test @player role=user creator=3 view=10',
    );
    expect((await admin('set-role', 'player@example.test', 'pilot')).code).toBe(0);
    const granted = await admin('grant', 'player@example.test', 'creator', '10', '--note', 'promo');
    expect(granted.out).toBe(
      'Granted 10 creator credits to player@example.test: creator=13 view=10',
    );
    expect((await admin('show', 'player@example.test')).out).toContain('role=pilot creator=13');
  });

  it('refuses bad input with a clear message and exit code 2', async () => {
    expect(await admin('set-role', 'player@example.test', 'emperor')).toEqual({
      code: 2,
      out: 'The role must be one of admin, pilot, user.',
    });
    expect((await admin('grant', 'player@example.test', 'creator', '-4')).code).toBe(2);
    expect((await admin('show', 'nobody@example.test')).out).toMatch(/has signed in yet/);
    expect((await admin('launch')).out).toMatch(/Unknown command "launch"/);
    expect((await admin()).out).toMatch(/npm run admin -- grant/);
  });
});
