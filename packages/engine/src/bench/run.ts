import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultUploadConfig } from '@riffscribe/core';
import { findFfmpeg } from '../adapters/binaries.js';
import { fixtureFile } from '../eval/datasets.js';
import { transcribe } from '../pipeline.js';
import type { EngineStage } from '../pipeline-types.js';
import { benchFingering } from './fingering.js';

/**
 * `npm run bench`: end-to-end wall time per stage on a 30 s clip, cold (model load included)
 * and warm, the real-time factor and the peak resident memory. Prints figures; asserts nothing.
 * The clip is a real recording (the GuitarSet excerpt, looped to 30 s) in an mp4 with a picture,
 * made with ffmpeg, so probing and decoding are measured as a user's upload would be. First, the
 * learned fingering alone on a 30 s clip's notes and a 10-minute lesson's (model load excluded).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');
const source = fixtureFile(repoRoot, 'guitarset/00_BN1-129-Eb_comp_mic.wav');
const CLIP_SECONDS = 30;

function makeClip(dir: string): string {
  const out = path.join(dir, 'bench-30s.mp4');
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
      `color=c=0x202830:s=640x360:r=30:d=${CLIP_SECONDS}`,
      '-stream_loop',
      '-1',
      '-i',
      source,
      '-t',
      String(CLIP_SECONDS),
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

interface Run {
  total: number;
  stages: Partial<Record<EngineStage, number>>;
  notes: number;
}

async function run(file: string): Promise<Run> {
  const stages: Partial<Record<EngineStage, number>> = {};
  const clock: { stage: EngineStage | null; since: number } = {
    stage: null,
    since: performance.now(),
  };
  const started = clock.since;
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
  return { total: (end - started) / 1000, stages, notes: result.notes.length };
}

const fmt = (s: number | undefined) => (s === undefined ? '   -  ' : s.toFixed(2).padStart(6));

async function main() {
  const fingering = await benchFingering();
  const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-bench-'));
  try {
    const clip = makeClip(dir);
    const cold = await run(clip);
    const warm: Run[] = [];
    for (let i = 0; i < 3; i += 1) warm.push(await run(clip));
    const best = warm.reduce((a, b) => (b.total < a.total ? b : a));
    const peakMb = process.resourceUsage().maxRSS / 1024;

    const stageNames = Object.keys({ ...cold.stages, ...best.stages }) as EngineStage[];
    console.log(
      `riffscribe engine benchmark: ${CLIP_SECONDS} s clip (mp4, H.264 + AAC), ${process.env.UV_THREADPOOL_SIZE ?? 'default'} threadpool`,
    );
    console.log('stage                  cold s  warm s');
    for (const stage of stageNames) {
      console.log(`${stage.padEnd(22)} ${fmt(cold.stages[stage])}  ${fmt(best.stages[stage])}`);
    }
    console.log(`${'total'.padEnd(22)} ${fmt(cold.total)}  ${fmt(best.total)}`);
    console.log(`warm runs: ${warm.map((r) => r.total.toFixed(2)).join(', ')} s`);
    console.log(`real-time factor (warm): ${(best.total / CLIP_SECONDS).toFixed(3)}`);
    console.log(`peak RSS: ${peakMb.toFixed(0)} MB`);
    console.log(`notes: ${best.notes}`);
    console.log(
      JSON.stringify({
        clipSeconds: CLIP_SECONDS,
        coldSeconds: cold.total,
        warmSeconds: best.total,
        realTimeFactor: best.total / CLIP_SECONDS,
        peakRssMb: Math.round(peakMb),
        coldStages: cold.stages,
        warmStages: best.stages,
        fingering,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
