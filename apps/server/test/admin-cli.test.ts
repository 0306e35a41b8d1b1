import { execFile, spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
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

  it('sets a balance to any value from 0, with a note (issue 37)', async () => {
    const set = await admin('set-balance', 'player@example.test', 'view', '0', '--note', 'reset');
    expect(set).toEqual({
      code: 0,
      out: "Set player@example.test's view credits from 10 to 0: creator=13 view=0",
    });
    expect(
      (await admin('set-balance', 'player@example.test', 'view', '-1', '--note', 'x')).code,
    ).toBe(2);
    expect((await admin('set-balance', 'player@example.test', 'view', '5')).out).toMatch(/--note/);
  });

  it('works while the server runs on the embedded database, through the server (issue 37)', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as AddressInfo;
        probe.close(() => {
          resolve(p);
        });
      });
    });
    const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
      env: {
        ...env(),
        PORT: String(port),
        HOST: '127.0.0.1',
        SERVE_WEB: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    try {
      // Up when its health answers.
      await expect
        .poll(
          async () =>
            (await fetch(`http://127.0.0.1:${String(port)}/api/health`).catch(() => null))?.status,
          { timeout: 60_000 },
        )
        .toBe(200);
      // The server answers on its socket (the command would otherwise open the database the
      // server holds, a second PGlite on the same files).
      expect(statSync(path.join(dataDir, 'admin.sock')).isSocket()).toBe(true);
      const set = await admin(
        'set-balance',
        'player@example.test',
        'creator',
        '7',
        '--note',
        'live',
      );
      expect(set).toEqual({
        code: 0,
        // 13 and the month's 10 Pro credits the server granted its pilot on starting.
        out: "Set player@example.test's creator credits from 23 to 7: creator=7 view=0",
      });
      expect((await admin('show', 'player@example.test')).out).toContain('creator=7 view=0');
      expect((await admin('set-role', 'player@example.test', 'emperor')).code).toBe(2);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    // Stopped: the command opens the database itself again and finds what the server stored.
    expect((await admin('show', 'player@example.test')).out).toContain('creator=7 view=0');
  }, 120_000);

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
