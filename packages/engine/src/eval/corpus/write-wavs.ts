import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SAMPLE_RATE } from '../../units.js';
import { buildCorpus } from './corpus.js';

/**
 * Writes the rendered corpus for listening: one 16-bit mono WAV per item plus its answers
 * (<name>.notes.json, <name>.chords.json, key and config in <name>.meta.json).
 *
 *   npx tsc -b packages/engine && node packages/engine/dist/eval/corpus/write-wavs.js [DIR]
 *
 * DIR defaults to ./corpus-wavs.
 */

/** A 16-bit PCM mono WAV file of `samples` (-1..1) at `rate`. */
export function wavBytes(samples: Float32Array, rate: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i] ?? 0));
    data.writeInt16LE(Math.round(v * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

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
