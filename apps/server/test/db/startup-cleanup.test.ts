import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { findFfmpeg } from '@riffscribe/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  JOB_WORK_PREFIX,
  jobIdOfFolder,
  killOrphanTools,
  makeWorkFolder,
  processAlive,
  removeStaleWorkFolders,
  WORK_OWNER_FILE,
} from '../../src/jobs/startup-cleanup.js';
import { JobLeasesRepository } from '../../src/repositories/job-leases.repository.js';
import { leasedJob } from '../support/fixtures.js';
import { testDatabaseDriver } from '../support/test-database.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/** ffmpeg decoding silence for a minute in real time (-re): a stand-in for a stage's encode. */
const LONG_FFMPEG = [
  '-re',
  '-nostdin',
  '-v',
  'quiet',
  '-f',
  'lavfi',
  '-i',
  'anullsrc',
  '-t',
  '60',
  '-f',
  'null',
  '-',
];

/**
 * Issue 13: after a worker is killed with SIGKILL its ffmpeg goes on (handed to init) and its
 * working folders stay. The next worker to start kills this installation's orphaned ffmpeg and
 * ffprobe and removes the folders of jobs no live process holds.
 */
describe.runIf(process.platform === 'linux')('what a killed worker leaves behind', () => {
  const started: ChildProcess[] = [];
  afterAll(() => {
    for (const c of started) c.kill('SIGKILL');
  });

  it('kills an orphaned ffmpeg of this installation, not one a live server runs', async () => {
    // A shell starts ffmpeg in the background and exits: ffmpeg's parent is gone, as after a
    // worker's SIGKILL.
    const shell = spawnSync(
      'sh',
      ['-c', `"$0" "$@" >/dev/null 2>&1 & echo $!`, findFfmpeg(), ...LONG_FFMPEG],
      { encoding: 'utf8' },
    );
    const orphan = Number(shell.stdout.trim());
    expect(processAlive(orphan)).toBe(true);
    // One this process runs (a live server's stage): its parent is Node.js.
    const owned = spawn(findFfmpeg(), LONG_FFMPEG, { stdio: 'ignore' });
    started.push(owned);
    await new Promise((r) => setTimeout(r, 200));

    const killed = killOrphanTools([findFfmpeg()]);
    expect(killed).toContain(orphan);
    expect(killed).not.toContain(owned.pid);
    await expect.poll(() => processAlive(orphan) && !isZombie(orphan)).toBe(false);
    expect(processAlive(owned.pid!)).toBe(true);
  });

  it('reads the job id from a working folder name', () => {
    const id = randomUUID();
    expect(jobIdOfFolder(`${JOB_WORK_PREFIX}${id}-3`)).toBe(id);
    expect(jobIdOfFolder('riffscribe-spill-abc')).toBeNull();
  });
});

describe(`working folders at start-up (${testDatabaseDriver()})`, () => {
  let server: TestServer;
  let user: TestUser;
  let leases: JobLeasesRepository;
  let root: string;
  let alive: ChildProcess;

  beforeAll(async () => {
    server = await startTestServer();
    user = await server.createUser();
    leases = new JobLeasesRepository(server.ctx.database.db);
    root = mkdtempSync(path.join(tmpdir(), 'riffscribe-work-test-'));
    alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
  });
  afterAll(async () => {
    alive.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
    await server.close();
  });

  const heldBy = (holder: string) => leasedJob(server, user, holder);

  it('removes the folders of dead holders and of finished jobs, keeps a live worker’s', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const running = await heldBy(`${hostname()}:${String(alive.pid)}`);
    const orphaned = await heldBy(`${hostname()}:${String(dead)}`);
    const folder = (id: string) => path.join(root, `${JOB_WORK_PREFIX}${id}-1`);
    for (const id of [running, orphaned, randomUUID()]) mkdirSync(folder(id));
    mkdirSync(path.join(root, 'something-else'));

    const removed = await removeStaleWorkFolders(root, leases);
    expect(removed).toHaveLength(2);
    expect(existsSync(folder(running))).toBe(true);
    expect(existsSync(folder(orphaned))).toBe(false);
    expect(existsSync(path.join(root, 'something-else'))).toBe(true);
  });

  it('keeps a folder whose own process is running, though its job is not in this database', async () => {
    // Another server of this machine (its own database) works in it: the folder names it.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const theirs = path.join(root, `${JOB_WORK_PREFIX}${randomUUID()}-1`);
    const left = path.join(root, `${JOB_WORK_PREFIX}${randomUUID()}-1`);
    await makeWorkFolder(theirs);
    writeFileSync(path.join(theirs, WORK_OWNER_FILE), String(alive.pid));
    await makeWorkFolder(left);
    writeFileSync(path.join(left, WORK_OWNER_FILE), String(dead));
    const removed = await removeStaleWorkFolders(root, leases);
    expect(removed).toEqual([path.basename(left)]);
    expect(existsSync(theirs)).toBe(true);
    // makeWorkFolder starts afresh where an attempt left files, and names this process.
    writeFileSync(path.join(theirs, 'input'), 'old');
    await makeWorkFolder(theirs);
    expect(readdirSync(theirs)).toEqual([WORK_OWNER_FILE]);
    expect(readFileSync(path.join(theirs, WORK_OWNER_FILE), 'utf8')).toBe(String(process.pid));
  });
});

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
