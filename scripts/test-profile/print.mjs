#!/usr/bin/env node
// Prints the profile of a test run that scripts/test-profile/reporter.ts wrote (by default
// test-results/profile.json): the run's wall time, the time per project and the slowest files.
//
//   node scripts/test-profile/print.mjs [profile.json] [--top N] [--markdown]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '20' },
    markdown: { type: 'boolean', default: false },
  },
});
const file = path.resolve(positionals[0] ?? 'test-results/profile.json');
/** @type {import('./reporter.ts').RunProfile} */
const run = JSON.parse(readFileSync(file, 'utf8'));
const top = Number(values.top);
const md = values.markdown;

const seconds = (ms) => (ms / 1000).toFixed(1);
const total = (f) => f.collectMs + f.setupMs + f.durationMs;

function table(header, rows) {
  if (md) {
    console.log(`| ${header.join(' | ')} |`);
    console.log(`|${header.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } else {
    const widths = header.map((h, i) =>
      Math.max(h.length, ...rows.map((r) => String(r[i]).length)),
    );
    const line = (r) =>
      r
        .map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
        .join('  ');
    console.log(line(header));
    for (const r of rows) console.log(line(r));
  }
  console.log('');
}

const tests = run.files.reduce((n, f) => n + f.tests, 0);
const failed = run.files.filter((f) => f.state !== 'passed' && f.state !== 'skipped');
console.log(
  `Test run: ${seconds(run.endedAt - run.startedAt)} s wall, ${run.files.length} files, ${tests} tests` +
    `, maxWorkers ${run.maxWorkers ?? 'default'}${failed.length ? `, ${failed.length} files not passed` : ''}\n`,
);

const projects = [...new Set(run.files.map((f) => f.project))];
table(
  ['project', 'files', 'tests', 'file time s', 'wall span s'],
  projects.map((p) => {
    const fs = run.files.filter((f) => f.project === p);
    const start = Math.min(...fs.map((f) => f.startedAt));
    const end = Math.max(...fs.map((f) => f.endedAt));
    return [
      p,
      fs.length,
      fs.reduce((n, f) => n + f.tests, 0),
      seconds(fs.reduce((n, f) => n + total(f), 0)),
      seconds(end - start),
    ];
  }),
);

const slowest = [...run.files].sort((a, b) => total(b) - total(a)).slice(0, top);
table(
  ['file', 'project', 'tests', 'total s', 'import s', 'tests+hooks s'],
  slowest.map((f) => [
    f.file,
    f.project,
    f.tests,
    seconds(total(f)),
    seconds(f.collectMs + f.setupMs),
    seconds(f.durationMs),
  ]),
);
