import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SAMPLE_RATE, wavBytes } from '@riffscribe/engine/stages';
import { buildCorpus } from './corpus.js';

/**
 * Writes the rendered corpus for listening: one 16-bit mono WAV per item plus its answers
 * (<name>.notes.json, <name>.chords.json, key and config in <name>.meta.json).
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/corpus/write-wavs.js [DIR]
 *
 * DIR defaults to ./corpus-wavs.
 */

async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? 'corpus-wavs');
  await mkdir(dir, { recursive: true });
  for (const item of buildCorpus()) {
    const base = path.join(dir, item.name);
    await writeFile(`${base}.wav`, wavBytes(item.audio, SAMPLE_RATE));
    await writeFile(`${base}.notes.json`, JSON.stringify(item.notes, null, 1));
    await writeFile(`${base}.chords.json`, JSON.stringify(item.chords, null, 1));
    await writeFile(
      `${base}.meta.json`,
      JSON.stringify({ key: item.key, config: item.config }, null, 1),
    );
    console.log(
      `${item.name}.wav  ${(item.audio.length / SAMPLE_RATE).toFixed(1)} s, ${item.notes.length} notes, ${item.chords.length} chords`,
    );
  }
  console.log(`written to ${dir}`);
}

await main();
