import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reaper } from '../../src/jobs/reaper.js';
import { JobLeasesRepository } from '../../src/repositories/job-leases.repository.js';
import { leasedJob } from '../support/fixtures.js';
import { testDatabaseDriver } from '../support/test-database.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/**
 * Issue 13: after a crash the job its worker held showed "processing 9%" until the lease ran out
 * (minutes). A lease held by a process of this machine that no longer runs now ends at the
 * reaper's next sweep, which also runs as soon as a worker or server starts.
 */
describe(`a lease whose holder is dead (${testDatabaseDriver()})`, () => {
  let server: TestServer;
  let user: TestUser;
  let leases: JobLeasesRepository;
  let alive: ChildProcess;
  const silent = { warn: () => undefined };

  beforeAll(async () => {
    server = await startTestServer();
    user = await server.createUser();
    leases = new JobLeasesRepository(server.ctx.database.db);
    alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
  });
  afterAll(async () => {
    alive.kill('SIGKILL');
    await server.close();
  });

  const heldBy = (holder: string) => leasedJob(server, user, holder);
  const status = async (jobId: string) =>
    (
      await server.ctx.database.db
        .selectFrom('jobs')
        .select(['status', 'message'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow()
    ).status;

  it('hands the job of a dead process back at once; a live holder keeps its job', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const orphan = await heldBy(`${hostname()}:${String(dead)}`);
    const running = await heldBy(`${hostname()}:${String(alive.pid)}`);
    const elsewhere = await heldBy(`another-machine:${String(dead)}`);
    const reaper = new Reaper({
      leases,
      queue: server.ctx.queue!,
      store: server.ctx.store,
      leaseSeconds: 3600,
      log: silent,
    });
    await reaper.sweep();
    expect(await status(orphan)).toBe('queued');
    expect(await status(running)).toBe('processing');
    // Another machine's process cannot be checked from here: its lease runs its course.
    expect(await status(elsewhere)).toBe('processing');
  });
});
