#!/usr/bin/env node
// `npm run test:profile [-- vitest options]`: runs the suite (the app must be built: the npm
// script builds it first), then prints the profile the run's reporter wrote
// (test-results/profile.json; see print.mjs). Exits with Vitest's status.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const here = import.meta.dirname;
const vitest = spawnSync(
  process.execPath,
  [path.resolve(here, '../../node_modules/vitest/vitest.mjs'), 'run', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
const print = spawnSync(process.execPath, [path.join(here, 'print.mjs')], { stdio: 'inherit' });
process.exit(vitest.status === 0 ? (print.status ?? 1) : (vitest.status ?? 1));
