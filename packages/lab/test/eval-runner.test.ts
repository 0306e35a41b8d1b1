import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFfmpeg } from '@riffscribe/engine';
import { discoverDatasets, readJams, readTabJson } from '../src/datasets.js';

/**
 * `npm run eval` end to end on a small dataset made here (two sine-tone chords with a .tab.json
 * and a JAMS file), pointed to by RIFFSCRIBE_DATASETS: the runner finds it, runs the real model,
 * prints its table and writes the JSON report. Needs the engine built (`tsc -b`), as
 * `npm run eval` does.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const runner = path.resolve(here, '../dist/run.js');
let dir: string;

const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
const CHORDS = [
  { time: 0, pitches: [48, 52, 55], places: ['5:3', '4:2', '3:0'] },
  { time: 1.2, pitches: [53, 57, 60], places: ['4:3', '3:2', '2:1'] },
];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-eval-'));
  const folder = path.join(dir, 'datasets', 'synthetic');
  mkdirSync(folder, { recursive: true });
  const terms = CHORDS.flatMap((c) =>
    c.pitches.map(
      (p) =>
        `between(t,${c.time},${c.time + 1})*0.15*exp(-2*(t-${c.time}))*sin(2*PI*${hz(p).toFixed(3)}*t)`,
    ),
  );
  const r = spawnSync(
    findFfmpeg(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      // Commas inside a filter's arguments are escaped for the filtergraph parser.
      `aevalsrc=${terms.join('+').replaceAll(',', '\\,')}:s=22050:d=2.5`,
      path.join(folder, 'chords.wav'),
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  const notes = CHORDS.flatMap((c) =>
    c.pitches.map((p, i) => {
      const [string = 0, fret = 0] = (c.places[i] ?? '').split(':').map(Number);
      return { time: c.time, end_time: c.time + 1, string, fret, midi: p, midi_raw: p };
    }),
  );
  writeFileSync(path.join(folder, 'chords.tab.json'), JSON.stringify(notes));
  const jams = {
    annotations: [
      {
        namespace: 'chord',
        annotation_metadata: { data_source: 'transcription' },
        data: [
          { time: 0, duration: 1, value: 'C:maj', confidence: null },
          { time: 1.2, duration: 1, value: 'F:maj', confidence: null },
        ],
      },
      { namespace: 'key_mode', data: [{ time: 0, duration: 2.5, value: 'C:major' }] },
    ],
  };
  writeFileSync(path.join(folder, 'chords.jams'), JSON.stringify(jams));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('dataset reading', () => {
  it('finds an item with its audio, truth and JAMS', async () => {
    const items = await discoverDatasets(path.join(dir, 'datasets'));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ name: 'synthetic/chords', guitar: 'acoustic' });
    const truth = await readTabJson(items[0]?.tab ?? '');
    expect(truth.map((n) => n.pitch)).toEqual([48, 52, 55, 53, 57, 60]);
    const jams = await readJams(items[0]?.jams ?? '', 'chords');
    expect(jams.key).toBe('C major');
    expect(jams.performedChords?.map((c) => c.chord)).toEqual(['C:maj', 'F:maj']);
  });

  it('finds nothing in a folder that does not exist', async () => {
    expect(await discoverDatasets(path.join(dir, 'missing'))).toEqual([]);
  });
});

describe('npm run eval', () => {
  it.skipIf(!existsSync(runner))(
    'measures a dataset, prints the table and writes the JSON report',
    async () => {
      const out = path.join(dir, 'report.json');
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
        (resolve) => {
          const child = spawn(process.execPath, [runner, '--only', 'real', '--out', out], {
            env: { ...process.env, RIFFSCRIBE_DATASETS: path.join(dir, 'datasets') },
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          child.on('close', (code) => {
            resolve({ code, stdout, stderr });
          });
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('synthetic/chords');
      expect(result.stdout).toContain('note F1');
      const report = JSON.parse(readFileSync(out, 'utf8')) as {
        corpora: {
          real: {
            summary: { note: { reference: number } };
            clips: {
              name: string;
              fingering: { total: number; accuracy: number };
              chords: { trueNotes: { quality: { accuracy: number } } } | null;
              key: { truth: string; trueNotes: string };
            }[];
          };
        };
      };
      const clip = report.corpora.real.clips[0];
      expect(clip?.name).toBe('synthetic/chords');
      expect(report.corpora.real.summary.note.reference).toBe(6);
      expect(clip?.fingering.total).toBe(6);
      expect(clip?.fingering.accuracy).toBe(1);
      expect(clip?.chords?.trueNotes.quality.accuracy).toBe(1);
      expect(clip?.key.truth).toBe('C major');
      expect(clip?.key.trueNotes).toBe('C major');
    },
  );
});
