// The engine's fingering before the learned model (packages/engine/src/tab/assign.ts, the
// hand-weighted Viterbi), run on corpus notes for the offline comparison. Needs the engine built
// (`npx tsc -b packages/engine`). Reads {"tracks":[{"tuning","capo","notes":[[time,pitch],...]}]}
// from argv[2], writes [[string per note], ...] to argv[3]. A note ends where the next onset
// begins (the corpus has no durations), is plucked (onset 1) and loud (amplitude 1).
import { readFileSync, writeFileSync } from 'node:fs';
import { assignTab } from '../../packages/engine/dist/tab/assign.js';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const result = input.tracks.map((track) => {
  const onsets = [...new Set(track.notes.map((n) => n[0]))].sort((a, b) => a - b);
  const next = new Map(onsets.map((t, i) => [t, onsets[i + 1] ?? t + 0.5]));
  const notes = track.notes.map(([time, pitch], id) => ({
    id,
    time,
    endTime: next.get(time),
    pitch,
    amplitude: 1,
    onset: 1,
    bend: [],
  }));
  const setup = { tuning: track.tuning, capo: track.capo, frets: 24 };
  const strings = new Array(notes.length).fill(0);
  for (const n of assignTab(notes, setup)) strings[n.id] = n.string;
  return strings;
});
writeFileSync(process.argv[3], JSON.stringify(result));
