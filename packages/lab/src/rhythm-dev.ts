import {
  beatCounts,
  beatScores,
  detectBeats,
  downbeatTimes,
  lessonNotes,
  medianTempo,
  tempoAgrees,
} from '@riffscribe/engine/stages';
import { rhythmTunedClips } from './dev-clips.js';
import { cachedModelOutput } from './model-cache.js';

/**
 * Development measurement of the rhythm stage alone on the rhythm corpus's TUNED part (never the
 * held part): Basic Pitch's output is cached (model-cache.ts) and the notes are extracted once
 * per run, so a change to packages/engine/src/rhythm shows its beat F1, downbeat F1 and tempo
 * per clip in seconds.
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/rhythm-dev.js
 */

const mean = (x: readonly number[]) => x.reduce((a, b) => a + b, 0) / Math.max(1, x.length);
const median = (x: readonly number[]) =>
  [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)] ?? 0;

async function main() {
  const sum = { beat: [0, 0, 0], down: [0, 0, 0], acc1: 0, acc2: 0, n: 0 };
  const offsets: number[] = [];
  for (const piece of await rhythmTunedClips()) {
    const { audio } = piece;
    const output = await cachedModelOutput(audio);
    const { detected } = await lessonNotes(output, audio, piece.config);
    const grid = detectBeats(output, detected, audio.length / 22050);
    const b = beatCounts(piece.beats, grid.beats);
    const d = beatCounts(piece.downbeats, downbeatTimes(grid));
    // Signed offsets (grid minus truth) of the grid beats nearest the true ones, within 70 ms.
    for (const t of piece.beats) {
      let near = Infinity;
      for (const e of grid.beats) if (Math.abs(e - t) < Math.abs(near)) near = e - t;
      if (Math.abs(near) <= 0.07) offsets.push(near);
    }
    const bpm = medianTempo(grid.beats);
    const t = tempoAgrees(piece.bpm, bpm);
    for (const [acc, c] of [
      [sum.beat, b],
      [sum.down, d],
    ] as const) {
      acc[0] = (acc[0] ?? 0) + c.reference;
      acc[1] = (acc[1] ?? 0) + c.estimate;
      acc[2] = (acc[2] ?? 0) + c.matched;
    }
    sum.acc1 += t.acc1 ? 1 : 0;
    sum.acc2 += t.acc2 ? 1 : 0;
    sum.n++;
    const perBar = (grid.downbeats[1] ?? 0) - (grid.downbeats[0] ?? 0);
    process.stdout.write(
      `${piece.name.padEnd(30)} ${piece.bpm.toFixed(1).padStart(6)} ${bpm.toFixed(1).padStart(6)} ` +
        `${beatScores(b).f1.toFixed(3)} ${beatScores(d).f1.toFixed(3)} ${perBar}/${piece.perBar}\n`,
    );
  }
  const f1 = (a: number[]) =>
    beatScores({ reference: a[0] ?? 0, estimate: a[1] ?? 0, matched: a[2] ?? 0 }).f1;
  process.stdout.write(
    `tuned: beat F1 ${f1(sum.beat).toFixed(3)}, downbeat F1 ${f1(sum.down).toFixed(3)}, ` +
      `tempo acc ${(sum.acc1 / sum.n).toFixed(3)} (acc2 ${(sum.acc2 / sum.n).toFixed(3)}), ` +
      `matched beats' offset median ${(1000 * median(offsets)).toFixed(0)} ms, ` +
      `mean |offset| ${(1000 * mean(offsets.map(Math.abs))).toFixed(0)} ms\n`,
  );
}

await main();
