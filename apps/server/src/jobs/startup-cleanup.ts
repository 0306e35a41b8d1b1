import { readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { TOOL_OWNER_VARIABLE, processStartTicks } from '@riffscribe/engine/media-tools';
import type { JobLeasesRepository } from '../repositories/job-leases.repository.js';

/**
 * What a worker killed with SIGKILL leaves behind, cleared when the next one starts (issue 13):
 * the ffmpeg and ffprobe processes it had started where the kernel could not end them with it
 * (no setpriv: see runTool), and the working folders of the jobs it held.
 */

/** The prefix of a job's working folder; the job id and attempt follow. */
export const JOB_WORK_PREFIX = 'riffscribe-job-';

/** The prefix of an MP4 export's working folder (conversion-runner.ts); job id and run follow. */
export const CONVERT_WORK_PREFIX = 'riffscribe-convert-';

/** The file in a working folder that names the process working in it. */
export const WORK_OWNER_FILE = '.owner';

/**
 * Makes a fresh working folder at `dir` (whatever a previous attempt left there goes) that names
 * this process as the one working in it, so that no other server or worker of this machine
 * sweeps it away (removeStaleWorkFolders).
 */
export async function makeWorkFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(path.join(dir, WORK_OWNER_FILE), String(process.pid), { mode: 0o600 });
}

/** Whether the process that a working folder names (WORK_OWNER_FILE) is running. */
function ownerAlive(dir: string): boolean {
  try {
    const pid = Number(readFileSync(path.join(dir, WORK_OWNER_FILE), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && processAlive(pid);
  } catch {
    return false;
  }
}

/**
 * Kills leftover copies of `binaries` (this installation's ffmpeg and ffprobe) that this project
 * started and whose starter is gone: a server or worker that died without ending them. A tool
 * is ours when it carries TOOL_OWNER_VARIABLE (runTool sets it: the starter's pid and start
 * time); an ffmpeg somebody started from a shell has no such mark and is never touched, nor is
 * one whose starter still runs. Linux only (reads /proc); elsewhere it does nothing. Returns the
 * ids killed.
 */
export function killOrphanTools(binaries: readonly string[]): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const wanted = new Set(binaries.map(real));
  const killed: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const argv0 = commandOf(pid);
    if (argv0 === null || !wanted.has(real(argv0))) continue;
    const owner = ownerOf(pid);
    if (owner === null) continue;
    const [starter = '', started = ''] = owner.split(':');
    const starterPid = Number(starter);
    if (
      Number.isInteger(starterPid) &&
      starterPid > 0 &&
      processStartTicks(starterPid) === started
    ) {
      continue;
    }
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // Gone meanwhile, or not ours to kill.
    }
  }
  return killed;
}

/** The TOOL_OWNER_VARIABLE a process was started with, or null (none, or not readable). */
function ownerOf(pid: number): string | null {
  try {
    const environ = readFileSync(`/proc/${String(pid)}/environ`, 'utf8').split('\0');
    const prefix = `${TOOL_OWNER_VARIABLE}=`;
    const mark = environ.find((v) => v.startsWith(prefix));
    const value = mark?.slice(prefix.length) ?? '';
    return value === '' ? null : value;
  } catch {
    return null;
  }
}

/**
 * Removes the working folders under `root` of jobs no live process of this machine holds: each
 * job's folder is kept while the job is in processing with a lease held here by a running
 * process (a sibling worker sharing the folder), or while the process the folder names is running
 * (a server of another installation or database on this machine: its jobs are not in this
 * database), and removed otherwise. `prefix` picks the kind of folder (a job's, or an MP4
 * export's with the conversions' leases).
 */
export async function removeStaleWorkFolders(
  root: string,
  leases: Pick<JobLeasesRepository, 'heldOn'>,
  prefix: string = JOB_WORK_PREFIX,
): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  if (names.length === 0) return [];
  const here = `${hostname()}:`;
  const live = new Set(
    (await leases.heldOn(here, 10_000))
      .filter((job) => {
        const pid = Number(job.holder.slice(here.length));
        return Number.isInteger(pid) && pid > 0 && processAlive(pid);
      })
      .map((job) => job.id),
  );
  const removed: string[] = [];
  for (const name of names) {
    const jobId = jobIdOfFolder(name, prefix);
    // Only folders named as ours (`<prefix><job>-<number>`): a temp folder of something else that
    // merely starts with the prefix (a test's `riffscribe-convert-test-x1y2z3`) is not ours.
    if (jobId === null || live.has(jobId)) continue;
    const dir = path.join(root, name);
    if (ownerAlive(dir)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** The job id in a working folder's name (`riffscribe-job-<id>-<attempt>`), or null. */
export function jobIdOfFolder(name: string, prefix: string = JOB_WORK_PREFIX): string | null {
  if (!name.startsWith(prefix)) return null;
  const match = /^(.+)-\d+$/.exec(name.slice(prefix.length));
  return match?.[1] ?? null;
}

/** Whether a process of this machine with this id is running (signal 0 only checks). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandOf(pid: number): string | null {
  try {
    const [argv0 = ''] = readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0');
    return argv0 === '' ? null : argv0;
  } catch {
    return null;
  }
}

function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
