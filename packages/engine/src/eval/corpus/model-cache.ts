import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runModel } from '../../adapters/model.js';
import type { DetectedNote, GuitarSetup, ModelOutput, TabNote } from '../../types.js';
import { fret, stringNumber } from '../../units.js';
import type { CorpusItem } from './corpus.js';

/** Helpers for measuring on the corpus: cached model outputs and a tab taken from the truth. */

const WIDTHS = [88, 88, 264] as const;
const ROW = WIDTHS[0] + WIDTHS[1] + WIDTHS[2];

/** Basic Pitch's output for a clip, cached by a hash of its samples. */
export async function cachedModelOutput(audio: Float32Array): Promise<ModelOutput> {
  const key = createHash('sha256')
    .update(new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(os.tmpdir(), 'riffscribe-corpus-model');
  const cache = path.join(dir, `${key}.f32`);
  let all: Float32Array;
  try {
    const raw = await readFile(cache);
    all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  } catch {
    const output = await runModel(audio);
    all = new Float32Array(output.frames.length * ROW);
    output.frames.forEach((row, i) => {
      all.set(row, i * ROW);
    });
    output.onsets.forEach((row, i) => {
      all.set(row, i * ROW + WIDTHS[0]);
    });
    output.contours.forEach((row, i) => {
      all.set(row, i * ROW + WIDTHS[0] + WIDTHS[1]);
    });
    await mkdir(dir, { recursive: true });
    await writeFile(cache, new Uint8Array(all.buffer));
  }
  const n = all.length / ROW;
  const rows = (offset: number, width: number) =>
    Array.from({ length: n }, (_, i) => all.subarray(i * ROW + offset, i * ROW + offset + width));
  return {
    frames: rows(0, WIDTHS[0]),
    onsets: rows(WIDTHS[0], WIDTHS[1]),
    contours: rows(WIDTHS[0] + WIDTHS[1], WIDTHS[2]),
  };
}

export const setupOf = (item: CorpusItem): GuitarSetup => ({
  tuning: item.config.tuning,
  capo: item.config.capo,
  frets: item.config.visible_frets,
});

/**
 * Places detected notes on the strings of the true notes (the tab stage left out): a note takes
 * the string of the true note with its pitch sounding at its onset, else of the nearest true note
 * in time whose string can play it.
 */
export function truthTab(notes: readonly DetectedNote[], item: CorpusItem): TabNote[] {
  const setup = setupOf(item);
  const open = (s: number) => (setup.tuning[6 - s] ?? 0) + setup.capo;
  const out: TabNote[] = [];
  for (const n of notes) {
    const playable = item.notes.filter((t) => {
      const f = n.pitch - open(t.string);
      return f >= 0 && f <= setup.frets;
    });
    const same = playable.find(
      (t) => open(t.string) + t.fret === n.pitch && t.time - 0.06 <= n.time && n.time < t.end_time,
    );
    const nearest =
      same ??
      [...playable].sort((a, b) => Math.abs(a.time - n.time) - Math.abs(b.time - n.time))[0];
    let s = nearest?.string;
    if (s === undefined) {
      for (let k = 6; k >= 1; k--) {
        const f = n.pitch - open(k);
        if (f >= 0 && f <= setup.frets) s = k;
      }
    }
    if (s === undefined) continue;
    out.push({ ...n, string: stringNumber(s), fret: fret(n.pitch - open(s)) });
  }
  return out;
}
