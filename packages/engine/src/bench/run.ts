import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { defaultUploadConfig } from '@riffscribe/core';
import { Session } from 'node:inspector/promises';
import { findFfmpeg } from '../adapters/binaries.js';
import { fixtureFile } from '../adapters/fixtures.js';
import { decodeAudio } from '../adapters/media.js';
import { runModel } from '../adapters/model.js';
import { transcribe } from '../pipeline.js';
import { ENGINE_EXEC_ARGV, engineProcessEnv } from '../process-settings.js';
import type { EngineStage } from '../pipeline-types.js';
import { benchFingering } from './fingering.js';
import { benchRhythm } from './rhythm.js';

/**
 * `npm run bench`: end-to-end wall time per stage, cold (a fresh process, model load included)
 * and warm, the real-time factor and the peak resident memory, for a 30 s clip and for a
 * 10-minute video. Prints figures and writes them as JSON (default
 * packages/engine/bench-results/latest.json, `--out FILE`); asserts nothing.
 *
 * The clips are a real recording (the GuitarSet excerpt, looped) in an mp4 with a picture, made
 * with the project's ffmpeg, so probing and decoding are measured as a user's upload would be.
 * Each clip is measured in its own child process, so that its peak RSS is its own.
 *
 * First, the learned fingering alone on a 30 s clip's notes and a 10-minute lesson's (model load
 * excluded), and the rhythm stage alone on made-up posteriorgrams of the same lengths (it runs
 * inside the detecting_chords stage of the table).
 *
 * Beside the stages, the note model's own time on the same clip's audio (decoded beforehand, the
 * model warm, in the same process) and the ratio of the warm pipeline to it: what the pipeline
 * spends outside the network (issue 41). `--profile` writes a CPU profile of the last warm run
 * (`<case>-warm.cpuprofile` beside the JSON; open it in Chrome's DevTools, Performance tab).
 *
 *   npm run bench -- [--out FILE] [--only 30s|10min] [--profile]
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');
const source = fixtureFile(repoRoot, 'guitarset/00_BN1-129-Eb_comp_mic.wav');
const exec = promisify(execFile);

interface Case {
  name: string;
  seconds: number;
  /** Warm runs after the cold one; the fastest is reported. */
  warmRuns: number;
  /** Picture of the generated video: small for the long one, whose encoding is not measured. */
  size: string;
  fps: number;
}

const CASES: Case[] = [
  { name: '30s', seconds: 30, warmRuns: 3, size: '640x360', fps: 30 },
  { name: '10min', seconds: 600, warmRuns: 1, size: '320x180', fps: 10 },
];

function makeClip(dir: string, c: Case): string {
  const out = path.join(dir, `bench-${c.name}.mp4`);
  const result = spawnSync(
    findFfmpeg(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x202830:s=${c.size}:r=${c.fps}:d=${c.seconds}`,
      '-stream_loop',
      '-1',
      '-i',
      source,
      '-t',
      String(c.seconds),
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-shortest',
      out,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`ffmpeg could not make the clip: ${result.stderr}`);
  return out;
}

type Stages = Partial<Record<EngineStage, number>>;

interface Run {
  total: number;
  /** CPU seconds of this process (all its threads) during the run: less sensitive to a busy machine. */
  cpu: number;
  stages: Stages;
  notes: number;
}

interface CaseResult {
  name: string;
  clipSeconds: number;
  cold: Run;
  warm: Run;
  warmRuns: number[];
  realTimeFactor: number;
  peakRssMb: number;
  /** The note model alone on the clip's decoded audio, warm, fastest of two. */
  modelSeconds: number;
  /** Warm pipeline total / modelSeconds. */
  pipelineToModel: number;
}

async function run(file: string): Promise<Run> {
  const stages: Stages = {};
  const clock: { stage: EngineStage | null; since: number } = {
    stage: null,
    since: performance.now(),
  };
  const started = clock.since;
  const cpuBefore = process.cpuUsage();
  const close = (now: number) => {
    if (clock.stage) stages[clock.stage] = (stages[clock.stage] ?? 0) + (now - clock.since) / 1000;
  };
  const result = await transcribe(file, defaultUploadConfig('acoustic'), (p) => {
    if (p.stage === clock.stage) return;
    const now = performance.now();
    close(now);
    clock.stage = p.stage;
    clock.since = now;
  });
  const end = performance.now();
  close(end);
  const cpu = process.cpuUsage(cpuBefore);
  return {
    total: (end - started) / 1000,
    cpu: (cpu.user + cpu.system) / 1e6,
    stages,
    notes: result.notes.length,
  };
}

/** The note model alone on `file`'s audio (decoded first, not timed): the faster of two runs. */
async function modelAlone(file: string): Promise<number> {
  const audio = await decodeAudio(file);
  let best = Infinity;
  for (let i = 0; i < 2; i += 1) {
    const t0 = performance.now();
    await runModel(audio);
    best = Math.min(best, (performance.now() - t0) / 1000);
  }
  return best;
}

/** Runs `work` under the V8 profiler and writes the profile to `file`. */
async function profiled<T>(file: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}

/** In the child: one clip, cold then warm, in this fresh process. Prints its result as JSON. */
async function measure(c: Case, file: string, profileTo: string | undefined): Promise<void> {
  const cold = await run(file);
  const warm: Run[] = [];
  for (let i = 0; i < c.warmRuns; i += 1) {
    const last = i === c.warmRuns - 1;
    warm.push(await (last && profileTo ? profiled(profileTo, () => run(file)) : run(file)));
  }
  const best = warm.reduce((a, b) => (b.total < a.total ? b : a));
  // The pipeline's peak, read before the model runs alone on the whole clip's audio in memory.
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const modelSeconds = await modelAlone(file);
  const result: CaseResult = {
    name: c.name,
    clipSeconds: c.seconds,
    cold,
    warm: best,
    warmRuns: warm.map((r) => r.total),
    realTimeFactor: best.total / c.seconds,
    peakRssMb,
    modelSeconds,
    pipelineToModel: best.total / modelSeconds,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

const fmt = (s: number | undefined) => (s === undefined ? '   -  ' : s.toFixed(2).padStart(6));

function print(r: CaseResult): void {
  console.log(`\n${r.name} clip (${r.clipSeconds} s, mp4, H.264 + AAC)`);
  console.log('stage                  cold s  warm s');
  const stageNames = Object.keys({ ...r.cold.stages, ...r.warm.stages }) as EngineStage[];
  for (const stage of stageNames)
    console.log(`${stage.padEnd(22)} ${fmt(r.cold.stages[stage])}  ${fmt(r.warm.stages[stage])}`);
  console.log(`${'total'.padEnd(22)} ${fmt(r.cold.total)}  ${fmt(r.warm.total)}`);
  console.log(`${'CPU seconds'.padEnd(22)} ${fmt(r.cold.cpu)}  ${fmt(r.warm.cpu)}`);
  console.log(
    `${'note model alone'.padEnd(22)}         ${fmt(r.modelSeconds)}   pipeline / model: ${r.pipelineToModel.toFixed(2)}`,
  );
  console.log(`warm runs: ${r.warmRuns.map((t) => t.toFixed(2)).join(', ')} s`);
  console.log(`real-time factor (warm): ${r.realTimeFactor.toFixed(4)}`);
  console.log(`peak RSS: ${r.peakRssMb} MB`);
  console.log(`notes: ${r.warm.notes}`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      only: { type: 'string' },
      child: { type: 'string' },
      file: { type: 'string' },
      profile: { type: 'boolean' },
      'profile-to': { type: 'string' },
    },
  });
  if (values.child !== undefined && values.file !== undefined) {
    const c = CASES.find((x) => x.name === values.child);
    if (!c) throw new Error(`unknown case ${values.child}`);
    await measure(c, values.file, values['profile-to']);
    return;
  }
  const cases = CASES.filter((c) => values.only === undefined || c.name === values.only);
  const out = path.resolve(
    values.out ?? path.join(repoRoot, 'packages/engine/bench-results/latest.json'),
  );
  const fingering = await benchFingering();
  const rhythm = benchRhythm();
  const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-bench-'));
  const results: CaseResult[] = [];
  try {
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(1))
        .join(' ');
    console.log(
      `riffscribe engine benchmark (${process.arch}, ${availableParallelism()} CPUs, node ${process.version}); load average ${load()}`,
    );
    for (const c of cases) {
      const clip = makeClip(dir, c);
      // Started as the worker starts its engine child (process-settings.ts).
      const profileTo = values.profile
        ? path.join(path.dirname(out), `${c.name}-warm.cpuprofile`)
        : undefined;
      if (profileTo) mkdirSync(path.dirname(profileTo), { recursive: true });
      const { stdout } = await exec(
        process.execPath,
        [
          ...ENGINE_EXEC_ARGV,
          fileURLToPath(import.meta.url),
          '--child',
          c.name,
          '--file',
          clip,
          ...(profileTo ? ['--profile-to', profileTo] : []),
        ],
        { maxBuffer: 1024 * 1024, env: engineProcessEnv(process.env) },
      );
      const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as CaseResult;
      results.push(result);
      print(result);
      if (profileTo) console.log(`CPU profile of the last warm run: ${profileTo}`);
      rmSync(clip, { force: true });
    }
    const short = results.find((r) => r.name === '30s');
    const long = results.find((r) => r.name === '10min');
    if (short && long)
      console.log(
        `\n10-minute peak RSS / 30 s peak RSS: ${(long.peakRssMb / short.peakRssMb).toFixed(2)}`,
      );
    const [lastMinute = 0] = loadavg();
    const busy = lastMinute > availableParallelism();
    console.log(
      `load average at the end: ${load()}${busy ? ' (above the number of CPUs: other work shared them)' : ''}`,
    );
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(
      out,
      `${JSON.stringify({ date: new Date().toISOString(), cpus: availableParallelism(), loadAverage: loadavg(), fingering, rhythm, results }, null, 2)}\n`,
    );
    console.log(`wrote ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
