import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A Vitest reporter that keeps what Vitest itself measured of each test file (its own
 * `diagnostic()`: import, setup, tests and hooks) with the file's project and when it started and
 * ended on the wall clock, and writes them to `test-results/profile.json` at the end of the run.
 * `node scripts/test-profile/print.mjs` turns that file into the tables of docs/testing.md.
 */

/** One test file of one project, as Vitest measured it (milliseconds). */
export interface FileProfile {
  project: string;
  file: string;
  state: string;
  tests: number;
  /** Importing the file and everything it imports, and running its describe blocks. */
  collectMs: number;
  /** Setup files and the runner's own preparation. */
  setupMs: number;
  /** Every test and hook of the file. */
  durationMs: number;
  /** Wall clock, from when Vitest sent the file to a worker to when its results came back. */
  startedAt: number;
  endedAt: number;
}

export interface RunProfile {
  startedAt: number;
  endedAt: number;
  /** Vitest's maxWorkers as this run resolved it. */
  maxWorkers: number | null;
  files: FileProfile[];
}

export default class ProfileReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private runStart = Date.now();
  private maxWorkers: number | null = null;

  onInit(vitest: { config: { maxWorkers?: number } }): void {
    this.runStart = Date.now();
    this.maxWorkers = vitest.config.maxWorkers ?? null;
  }

  onTestModuleQueued(module: TestModule): void {
    this.started.set(key(module), Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    this.started.set(`${key(module)}#end`, Date.now());
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const root = process.cwd();
    const files: FileProfile[] = modules.map((m) => {
      const d = m.diagnostic();
      const tests = [...m.children.allTests()].length;
      return {
        project: m.project.name,
        file: path.relative(root, m.moduleId),
        state: m.state(),
        tests,
        collectMs: Math.round(d.collectDuration),
        setupMs: Math.round(d.setupDuration + d.prepareDuration + d.environmentSetupDuration),
        durationMs: Math.round(d.duration),
        startedAt: this.started.get(key(m)) ?? this.runStart,
        endedAt: this.started.get(`${key(m)}#end`) ?? Date.now(),
      };
    });
    const out: RunProfile = {
      startedAt: this.runStart,
      endedAt: Date.now(),
      maxWorkers: this.maxWorkers,
      files,
    };
    const dir = path.join(root, 'test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'profile.json'), `${JSON.stringify(out, null, 1)}\n`);
  }
}

function key(m: TestModule): string {
  return `${m.project.name}:${m.moduleId}`;
}
