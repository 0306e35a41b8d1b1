import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { steadyGrid, type BeatGrid } from '@riffscribe/core';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalObjectStore } from '../storage/local-store.js';
import type { EngineTranscription, MediaFacts } from './engine-api.js';
import type { EngineHost } from './engine-host.js';
import { processJob, type HandlerDeps } from './job-handler.js';

const FACTS = {
  durationSeconds: 4,
  hasAudio: true,
  hasVideo: true,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  width: 64,
  height: 48,
  frameRate: 10,
  videoCodec: 'h264',
  pixelFormat: 'yuv420p',
  videoProfile: 'High',
  sampleAspectRatio: '1:1',
  audioCodec: 'aac',
  audioChannels: 1,
} as MediaFacts;

/**
 * processJob with a stand-in engine (no ffmpeg: no video asked for, the owner's thumbnail
 * present): which outputs it stores, with and without the engine's beat grid.
 */
describe('processJob outputs', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function run(beats: BeatGrid | undefined) {
    const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-handler-'));
    dirs.push(dir);
    const store = new LocalObjectStore({
      dir: path.join(dir, 'store'),
      publicUrl: 'http://127.0.0.1:1',
      secret: 'x'.repeat(32),
    });
    await store.put('uploads/a.mp4', Buffer.from('not really a video'), 'video/mp4');
    const transcription = {
      results: { capo: 0, tuning_name: 'Standard', duration: 4 },
      notes: [],
      chords: [],
      ...(beats ? { beats } : {}),
    } as unknown as EngineTranscription;
    const engine = {
      probe: () => Promise.resolve(FACTS),
      transcribe: () => Promise.resolve(transcription),
    } as unknown as EngineHost;
    const deps: HandlerDeps = {
      store,
      engine,
      ffmpeg: () => Promise.resolve('ffmpeg-not-used'),
      report: () => Promise.resolve(),
      confirmLease: () => Promise.resolve(),
      signal: new AbortController().signal,
      toolTimeoutMs: 10_000,
      workRoot: dir,
      log: { warn: () => undefined },
    };
    const outputs = await processJob(
      {
        id: 'job-1',
        ownerRole: 'user',
        uploadKey: 'uploads/a.mp4',
        config: { skip_video_generation: true },
        thumbnailKey: 'jobs/job-1/thumbnail.jpg',
        attempts: 1,
        token: 't',
      },
      deps,
    );
    return { store, names: outputs.files.map((f) => f.name).sort() };
  }

  it("stores the engine's beat grid as beats.json when it gives one", async () => {
    const grid = steadyGrid(100, 4, 4);
    const { store, names } = await run(grid);
    expect(names).toEqual(['beats', 'chords', 'notes', 'results']);
    const stored: unknown = JSON.parse(
      (await store.getBuffer('jobs/job-1/original/beats.json')).toString('utf8'),
    );
    expect(stored).toEqual(grid);
  });

  it('stores no beats.json when the engine gives no grid', async () => {
    const { store, names } = await run(undefined);
    expect(names).toEqual(['chords', 'notes', 'results']);
    expect(await store.head('jobs/job-1/original/beats.json')).toBeNull();
  });
});
