import { it } from 'vitest';
import type { NoteEvent } from '@riffscribe/core';
import { SAMPLE_NOTES, completeJob, submitUpload } from '../support/fixtures.js';
import { startTestServer } from '../support/test-server.js';

it('times exports', async () => {
  const server = await startTestServer({ env: { SIGNUP_CREATOR_CREDITS: '10' } });
  const user = await server.createUser();
  for (const n of [50000]) {
    let seed = 1;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const notes: NoteEvent[] = [];
    for (let i = 0; i < n; i++) {
      const t = i * 0.1 + rnd() * 0.05;
      const string = 1 + Math.floor(rnd() * 6);
      const fret = Math.floor(rnd() * 20);
      notes.push({ ...SAMPLE_NOTES[0], time: t, end_time: t + 0.2, string, fret, pitch: 40 + fret + (6 - string) * 5 } as NoteEvent);
    }
    const job = await submitUpload(server, user);
    await completeJob(server, job.jobId, { notes });
    for (const format of ['txt', 'midi', 'musicxml', 'gp']) {
      const t0 = performance.now();
      const res = await server.request('GET', `/api/export?jobId=${job.jobId}&format=${format}`, { token: user.token });
      await res.arrayBuffer();
      console.info('EXPORT', n, format, res.status, Math.round(performance.now() - t0), 'ms');
    }
  }
  await server.close();
}, 600_000);
