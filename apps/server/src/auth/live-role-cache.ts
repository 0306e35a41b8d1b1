import type { Role } from '@riffscribe/core';

/** How long an answer is kept: a revocation elsewhere applies within this (and the next call). */
export const LIVE_ROLE_TTL_MS = 1_000;
/** Entries kept at most; past it the cache starts empty again (a burst of distinct sessions). */
const MAX_ENTRIES = 20_000;

/**
 * The answer to "is this session live, and what is its user's role now?" for a second, so that
 * a hot read (the processing screen polls check-status) does not read the database on every
 * request (issue 38 build item 8). Sign-out in this process forgets the session at once; a role
 * changed in this process clears the cache; another process's change applies within
 * LIVE_ROLE_TTL_MS.
 */
export class LiveRoleCache {
  private readonly entries = new Map<string, { role: Role | null; until: number }>();

  constructor(private readonly ttlMs = LIVE_ROLE_TTL_MS) {}

  /** The cached answer (a role, or null for an ended session), or undefined when not known. */
  get(sid: string, uid: string, now = Date.now()): Role | null | undefined {
    const entry = this.entries.get(`${sid}|${uid}`);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(`${sid}|${uid}`);
      return undefined;
    }
    return entry.role;
  }

  set(sid: string, uid: string, role: Role | null, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(`${sid}|${uid}`, { role, until: now + this.ttlMs });
  }

  /** A session ended here (sign-out): its tokens are refused from the next call on. */
  forgetSession(sid: string): void {
    for (const key of this.entries.keys()) {
      if (key.startsWith(`${sid}|`)) this.entries.delete(key);
    }
  }

  /** A role changed here: every answer is read again. */
  clear(): void {
    this.entries.clear();
  }
}

/** The process's cache. */
export const liveRoleCache = new LiveRoleCache();
