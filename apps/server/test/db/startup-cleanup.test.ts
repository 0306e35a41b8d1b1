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
import { TOOL_OWNER_VARIABLE, runTool } from '@riffscribe/engine/media-tools';
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

  /** ffmpeg started by a shell that then exits (its parent is gone), with `env`; its pid. */
  const shellFfmpeg = (env: NodeJS.ProcessEnv = {}) => {
    const shell = spawnSync(
      'sh',
      ['-c', `"$0" "$@" >/dev/null 2>&1 & echo $!`, findFfmpeg(), ...LONG_FFMPEG],
      { encoding: 'utf8', env: { ...process.env, [TOOL_OWNER_VARIABLE]: '', ...env } },
    );
    const pid = Number(shell.stdout.trim());
    expect(processAlive(pid)).toBe(true);
    return pid;
  };

  it('kills a leftover tool this project started, never an ffmpeg somebody else runs', async () => {
    // Somebody's own ffmpeg, started from a shell (issue 38 row 3: the cleanup killed it).
    const foreign = spawnSync(
      'sh',
      ['-c', `"$0" "$@" >/dev/null 2>&1 & echo $!`, findFfmpeg(), ...LONG_FFMPEG],
      {
        encoding: 'utf8',
        env: Object.fromEntries(
          Object.entries(process.env).filter(([k]) => k !== TOOL_OWNER_VARIABLE),
        ),
      },
    );
    const theirs = Number(foreign.stdout.trim());
    // One of ours whose starter died (its mark names a process that is gone).
    const orphan = shellFfmpeg({ [TOOL_OWNER_VARIABLE]: '999999999:1' });
    // One of ours whose starter runs (this process): a live server's stage.
    const owned = runTool(findFfmpeg(), LONG_FFMPEG, { activity: 'test', timeoutMs: 60_000 });
    void owned.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    const ownedPid = childrenOf(process.pid).find((pid) => pid !== theirs && pid !== orphan);

    const killed = killOrphanTools([findFfmpeg()]);
    expect(killed).toContain(orphan);
    expect(killed).not.toContain(theirs);
    expect(killed).not.toContain(ownedPid);
    await expect.poll(() => processAlive(orphan) && !isZombie(orphan)).toBe(false);
    expect(processAlive(theirs)).toBe(true);
    process.kill(theirs, 'SIGKILL');
    if (ownedPid) process.kill(ownedPid, 'SIGKILL');
  });

  it('ends a tool with the process that started it, even killed with SIGKILL (issue 38 row 6)', async () => {
    // A Node.js process (a worker, say) runs ffmpeg through runTool, then is SIGKILLed.
    const tools = path.resolve(
      import.meta.dirname,
      '../../../../packages/engine/dist/media-tools.js',
    );
    const script = `import { runTool } from ${JSON.stringify(tools)};
      await runTool(process.argv[1], process.argv.slice(2), { activity: 't', timeoutMs: 60000 });`;
    const node = spawn(
      process.execPath,
      ['--input-type=module', '-e', script, findFfmpeg(), ...LONG_FFMPEG],
      {
        stdio: 'ignore',
      },
    );
    started.push(node);
    await expect.poll(() => childrenOf(node.pid!).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const [tool] = childrenOf(node.pid!);
    node.kill('SIGKILL');
    await expect
      .poll(() => processAlive(tool!) && !isZombie(tool!), { timeout: 5_000 })
      .toBe(false);
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

/** The ids of the processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) out.push(child);
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}
