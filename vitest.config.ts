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
    if (name === 'e2e' && !existsSync(CHROMIUM_PATH)) {
      console.warn(`vitest: no Chromium at ${CHROMIUM_PATH}, the e2e project is skipped`);
      continue;
    }
    out.push(p);
  }
  return out;
}

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
    projects: await available([
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
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
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: { name: 'lab', include: ['packages/lab/test/**/*.test.ts'], testTimeout: 120_000 },
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
          globalSetup: ['./e2e/support/global-browser.ts'],
          testTimeout: 120_000,
          // Making a test's media and starting a server and a browser on a busy machine.
          hookTimeout: 300_000,
        },
      },
    ]),
  },
}));
