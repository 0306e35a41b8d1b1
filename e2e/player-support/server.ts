import type { ChordEvent, NoteEvent } from '@riffscribe/core';
import { completeJob, submitUpload } from '../../apps/server/test/support/fixtures.js';
import type { TestServer, TestUser } from '../../apps/server/test/support/test-server.js';
import { jobObjectKey } from '../../apps/server/src/storage/keys.js';

/**
 * A finished lesson owned by `owner` with exact, known notes (what is drawn where needs them):
 * the video goes through the real signed-upload and process-video calls, then the results, notes,
 * chords, browser video (and a guitar stem) are stored as the worker stores them and the job is
 * marked completed. The server, sign-in and users come from e2e/support;
 * e2e/player-pipeline.test.ts covers the player on a lesson the real pipeline wrote.
 */
export async function seedLesson(
  server: TestServer,
  owner: TestUser,
  lesson: {
    notes: NoteEvent[];
    chords: ChordEvent[];
    results: object;
    video: Buffer;
    duration: number;
    stem?: Buffer;
  },
): Promise<string> {
  const job = await submitUpload(server, owner, { bytes: lesson.video, duration: lesson.duration });
  await completeJob(server, job.jobId, { notes: lesson.notes, chords: lesson.chords });
  const { store } = server.ctx;
  const files = server.services.jobs.files;
  const put = async (name: string, body: Buffer, contentType: string) => {
    const key = jobObjectKey(job.jobId, name === 'results' ? 'results.json' : name, 'original');
    await store.put(key, body, contentType);
    await files.upsert({
      jobId: job.jobId,
      name,
      version: 'original',
      key,
      contentType,
      size: body.length,
    });
  };
  await put('results', Buffer.from(JSON.stringify(lesson.results)), 'application/json');
  await put('video.mp4', lesson.video, 'video/mp4');
  if (lesson.stem) await put('guitar.wav', lesson.stem, 'audio/wav');
  return job.jobId;
}
