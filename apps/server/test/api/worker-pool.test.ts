import { plainNote } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/services/worker-pool.js';
import { WorkFailed, WorkRefused, type ExportTask } from '../../src/services/work-tasks.js';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function exportOf(notes: number): ExportTask {
  return {
    kind: 'export',
    format: 'txt',
    notes: json(
      Array.from({ length: notes }, (_, i) =>
        plainNote({ time: i * 0.1, end_time: i * 0.1 + 0.2, string: 1 + (i % 6), fret: i % 12 }),
      ),
    ),
    chords: null,
    grid: null,
    gridSeconds: notes * 0.1 + 1,
    meta: { title: 'Riff', tuning: [40, 45, 50, 55, 59, 64], capo: 0, guitar: 'electric' },
  };
}

/** The worker pools behind exports and edit saves (issue 38 build item 1). */
describe('WorkerPool', () => {
  it('refuses at once past its queue, and runs the rest in order', async () => {
    const pool = new WorkerPool('Busy.', 60_000, 2);
    try {
      const first = pool.run(exportOf(2000));
      const second = pool.run(exportOf(10));
      await expect(pool.run(exportOf(10))).rejects.toThrow(new WorkFailed('Busy.'));
      const [a, b] = await Promise.all([first, second]);
      expect(new TextDecoder().decode(a.bytes)).toContain('|');
      expect(b.bytes.byteLength).toBeLessThan(a.bytes.byteLength);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('times a task from when it starts; one past its time fails and the next runs on a fresh worker', async () => {
    // 1.5 s: the 50,000-note Guitar Pro export takes 4-5 s, a fresh worker's 10-note export well
    // under it even on a loaded machine (300 ms failed once under a load of 5).
    const pool = new WorkerPool('Busy.', 1500);
    try {
      const slow = pool.run({ ...exportOf(50_000), format: 'gp' });
      const next = pool.run(exportOf(10));
      await expect(slow).rejects.toThrow(WorkFailed);
      expect((await next).bytes.byteLength).toBeGreaterThan(10);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('says why it refused an edit body, with the status to answer', async () => {
    const pool = new WorkerPool('Busy.');
    try {
      const refusal = (body: Uint8Array) =>
        pool.run({ kind: 'edits', events: 'notes', body, duration: 10 }).then(
          () => null,
          (error: unknown) =>
            error instanceof WorkRefused ? `${String(error.status)} ${error.message}` : error,
        );
      expect(await refusal(new TextEncoder().encode('{"events": ['))).toBe(
        '400 The request body is not valid JSON.',
      );
      expect(
        await refusal(
          json({ events: [plainNote({ time: 20, end_time: 21, string: 1, fret: 3 })] }),
        ),
      ).toBe(
        '400 Note 1 (at 20.00 s) cannot be saved: its time is outside the video; it ends after the end of the video.',
      );
      const saved = await pool.run({
        kind: 'edits',
        events: 'notes',
        body: json({
          events: [1, 0].map((t) => plainNote({ time: t, end_time: t + 0.5, string: 2, fret: 5 })),
        }),
        duration: 10,
      });
      expect(saved.count).toBe(2);
      const stored = JSON.parse(new TextDecoder().decode(saved.bytes)) as { time: number }[];
      expect(stored.map((n) => n.time)).toEqual([0, 1]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
