import { transcribeAudio } from '@riffscribe/engine';
import { soundfontTunedClips, stringModelClips } from './dev-clips.js';

/**
 * Development measurement (issue 15): the rendered corpora have no true beats (docs/evaluation.md),
 * so this asks the weaker question whether the grid follows the onsets it hears: the share of the
 * true note onsets (notes within 30 ms taken as one) that lie within ±70 ms of a grid beat, per
 * clip of the string-model corpus and the SoundFont tuned part (never the held part). A grid at a
 * random phase scores about 0.14 s / beat period (0.23 at 100 BPM).
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/beats-dev.js
 */

function onsetTimes(notes: readonly { time: number }[]): number[] {
  const times = notes.map((n) => n.time).sort((a, b) => a - b);
  const out: number[] = [];
  for (const t of times) if (out.length === 0 || t - (out.at(-1) ?? 0) > 0.03) out.push(t);
  return out;
}

function onBeatShare(onsets: readonly number[], beats: readonly number[]): number {
  if (onsets.length === 0) return 0;
  const hits = onsets.filter((t) => beats.some((b) => Math.abs(b - t) <= 0.07)).length;
  return hits / onsets.length;
}

async function main() {
  const rows: [string, number][] = [];
  for (const item of [...stringModelClips(), ...(await soundfontTunedClips())]) {
    const { beats } = await transcribeAudio(item.audio, item.config);
    rows.push([item.name, onBeatShare(onsetTimes(item.notes), beats.beats)]);
  }
  for (const [name, share] of rows)
    process.stdout.write(`${name.padEnd(32)} ${share.toFixed(3)}\n`);
  const mean = rows.reduce((a, [, s]) => a + s, 0) / Math.max(1, rows.length);
  process.stdout.write(`mean share of true onsets on a grid beat: ${mean.toFixed(3)}\n`);
}

await main();
