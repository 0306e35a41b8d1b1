import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { reachable } from './apps/server/test/support/net.js';

/**
 * Test tiers (docs/testing.md):
 * - unit: `*.test.ts` beside the code, pure and fast;
 * - engine / lab: the engine on real media and the real model; the lab's runner and corpora;
 * - server: integration tests with real parts that do not depend on the database driver;
 * - pglite / postgres: the same database-backed integration suite, once on each database;
 * - e2e: real Chromium against the built app served by the real server.
 */
const workspaceSource = { conditions: ['source', ...defaultClientConditions] };
const dbSuite = ['apps/server/test/db/**/*.test.ts'];
const ci = process.env.CI === 'true';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Locally, a part this machine lacks (the PostgreSQL server, Chromium) leaves its project out with
 * a warning. In CI (CI=true) every project runs, so a missing part fails the run.
 */
async function available(projects: TestProjectInlineConfiguration[]) {
  if (ci) return projects;
  const out: TestProjectInlineConfiguration[] = [];
  for (const p of projects) {
    const name = p.test?.name;
    if (name === 'postgres' && !(await reachable('127.0.0.1', 5432))) {
      console.warn('vitest: no PostgreSQL at 127.0.0.1:5432, the postgres project is skipped');
      continue;
    }
    if ((name === 'e2e' || name === 'e2e-alone') && !existsSync(CHROMIUM_PATH)) {
      console.warn(`vitest: no Chromium at ${CHROMIUM_PATH}, the e2e project is skipped`);
      continue;
    }
    out.push(p);
  }
  return out;
}

/**
 * The database of the servers the e2e files start in their own process (startServerWithWeb): the
 * PostgreSQL server where there is one (always in CI), which costs the test process far less CPU
 * than PGlite's WebAssembly; the app the e2e files start as `npm start` does (startApp) keeps the
 * embedded PGlite, and the pglite project tests every database call on it.
 */
/** e2e files the 'e2e-alone' project runs, after the rest and by themselves. */
const E2E_ALONE = ['e2e/player-listen.test.ts'];

const e2eDatabase = ci || (await reachable('127.0.0.1', 5432)) ? 'postgres' : 'pglite';

export default defineConfig(async () => ({
  resolve: workspaceSource,
  ssr: {
    resolve: { conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')] },
  },
  test: {
    // Every run keeps Vitest's own timings per file (test-results/profile.json): `npm run
    // test:profile` prints them (docs/testing.md).
    reporters: ['default', './scripts/test-profile/reporter.ts'],
    // Files of every project share one pool: on two cores, two at a time (the e2e files too, so
    // that a browser test's waits overlap with other work). Vitest's default leaves one core idle.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Hang guards, not speed checks (benchmarks measure speed): generous, so that a busy
    // two-core machine does not fail a test that is only slow.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for what a busy machine may take seconds to show (Vitest's default gives
    // up after 1 s, which under load failed tests that were only slow).
    expect: { poll: { timeout: 30_000 } },
    projects: await available([
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
          // Pure tests share their workers' modules (no file sets global state): five times
          // faster than importing everything again for each of the 80 files.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          exclude: dbSuite,
        },
      },
      {
        extends: true,
        test: {
          name: 'engine',
          include: ['packages/engine/test/**/*.test.ts'],
          isolate: false,
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'lab',
          include: ['packages/lab/test/**/*.test.ts'],
          isolate: false,
          testTimeout: 120_000,
        },
      },
      { extends: true, test: { name: 'pglite', include: dbSuite, env: { TEST_DB: 'pglite' } } },
      {
        extends: true,
        test: { name: 'postgres', include: dbSuite, env: { TEST_DB: 'postgres' } },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          exclude: E2E_ALONE,
          globalSetup: ['./e2e/support/global-browser.ts'],
          // Each file starts its own servers and browser contexts; the modules (Playwright, the
          // server's code) are imported once per worker, not once per file.
          isolate: false,
          env: { TEST_DB: e2eDatabase },
          testTimeout: 120_000,
          // Making a test's media and starting a server and a browser on a busy machine.
          hookTimeout: 300_000,
        },
      },
      {
        // Browser tests that keep time against a clock outside the page (Chromium's fake
        // microphone plays its file in real time): after everything else, one at a time, so that
        // a heavy neighbour (the video export's recording) cannot starve its audio threads.
        extends: true,
        test: {
          name: 'e2e-alone',
          include: E2E_ALONE,
          env: { TEST_DB: e2eDatabase },
          testTimeout: 120_000,
          hookTimeout: 300_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ]),
  },
}));
