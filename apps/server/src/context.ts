import type { Role } from '@riffscribe/core';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { JobQueue } from './queue/job-queue.js';
import type { ObjectStore } from './storage/object-store.js';

/** The signed-in caller, read from a verified bearer access token. */
export interface AuthUser {
  uid: string;
  email: string;
  role: Role;
  /** The sign-in session the token was issued for. */
  sid: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Null for anonymous callers; set by the authentication hook. */
    user: AuthUser | null;
  }
}

/** What every route and service may use; built once in main.ts (or by a test). */
export interface AppContext {
  config: Config;
  database: Database;
  store: ObjectStore;
  /** The job queue; null in API-only tests that do not need one. */
  queue: JobQueue | null;
}
