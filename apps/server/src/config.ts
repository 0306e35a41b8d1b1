import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { DEFAULT_SIGNUP_CREDITS } from '@riffscribe/core';

/**
 * Server configuration, read once from the environment. Every variable is listed with its default
 * in the README's configuration table; keep the two in step.
 */
export interface Config {
  nodeEnv: string;
  host: string;
  port: number;
  /** The address browsers use to reach this server; OIDC redirects and signed URLs use it. */
  publicUrl: string;
  dataDir: string;
  logLevel: string;
  /** PostgreSQL connection string; absent means embedded PGlite in `dataDir/pglite`. */
  databaseUrl: string | null;
  /**
   * PostgreSQL schema holding the tables and the queue (search_path); null means the defaults
   * (`public` for the tables, `pgboss` for the queue).
   */
  databaseSchema: string | null;
  /** The processing pipeline's workers (jobs/). */
  worker: {
    /** Whether the API server processes jobs itself (a forked engine child, concurrency 1). */
    embedded: boolean;
    /** Jobs a `npm run worker` process runs at once (one engine child each). */
    concurrency: number;
    /** Seconds a job's lease lasts unless its worker renews it (every third of it). */
    leaseSeconds: number;
    /** Seconds one attempt may take before the job fails. */
    jobTimeoutSeconds: number;
    /** Base delay before the first retry of a job; later retries back off exponentially. */
    retryDelaySeconds: number;
    /** Seconds between polls of an empty queue. */
    pollSeconds: number;
  };
  /** Seconds one MP4 export (ffmpeg's conversion of the browser's WebM) may run. */
  convertTimeLimitSeconds: number;
  storage:
    | { driver: 'local'; dir: string }
    | {
        driver: 's3';
        bucket: string;
        region: string;
        endpoint: string | null;
        accessKeyId: string | null;
        secretAccessKey: string | null;
        forcePathStyle: boolean;
      };
  oidc: {
    /** Absent means the built-in development provider at `${publicUrl}/oidc`. */
    issuer: string | null;
    clientId: string;
    clientSecret: string;
  };
  /** HMAC and token signing secret; generated and kept in `dataDir` when not given. */
  secret: string;
  adminEmails: string[];
  pilotEmails: string[];
  signupCredits: { creator: number; view: number };
  supportEmail: string;
  /**
   * Requests per minute before 429, per budget: each signed-in user has their own, anonymous
   * callers one per address, so a flood of one kind never locks out another (reads cannot use
   * up sign-in or token renewal).
   */
  rateLimits: Record<RateBudget, number>;
  /** Uploads (storage PUTs through the local driver's signed links) per user per minute. */
  uploadsPerMinute: number;
  /** Trust X-Forwarded-* headers (behind a reverse proxy). */
  trustProxy: boolean;
  /** Bearer token for GET /metrics; null serves them to direct loopback connections only. */
  metricsToken: string | null;
  /** Origins the browser talks to for storage (S3 endpoint); the local driver is same-origin. */
  storageOrigins: string[];
  /** Origins of the identity provider (for the content security policy). */
  identityOrigins: string[];
  /** Whether the built web app is served (off in API-only test servers). */
  serveWeb: boolean;
  webDistDir: string;
}

type Env = Record<string, string | undefined>;

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

/** Reads the secret from the environment, else from `dataDir/secret`, else makes and keeps one. */
function resolveSecret(env: Env, dataDir: string, production: boolean): string {
  const given = env.RIFFSCRIBE_SECRET;
  if (given) {
    if (given.length < 32) throw new Error('RIFFSCRIBE_SECRET must be at least 32 characters');
    return given;
  }
  if (production) throw new Error('RIFFSCRIBE_SECRET must be set when NODE_ENV=production');
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The separate rate-limit budgets: API reads, API writes, sign-in and tokens, static files. */
export type RateBudget = 'read' | 'write' | 'auth' | 'static';

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';
  const port = int(env, 'PORT', 3000);
  const host = env.HOST ?? '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL ?? defaultPublicUrl(host, port)).replace(/\/+$/, '');
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  const databaseUrl = env.DATABASE_URL ?? null;
  const embedded = (env.EMBEDDED_WORKER ?? 'true') !== 'false';
  if (!embedded && databaseUrl === null) {
    // PGlite belongs to this process, so no `npm run worker` could reach it: jobs would never run.
    throw new Error(
      'EMBEDDED_WORKER=false needs DATABASE_URL (PostgreSQL): separate workers cannot share the embedded PGlite database',
    );
  }
  const bucket = env.S3_BUCKET;
  const storage: Config['storage'] =
    (env.STORAGE_DRIVER ?? (bucket ? 's3' : 'local')) === 's3'
      ? {
          driver: 's3',
          bucket: bucket ?? fail('S3_BUCKET must be set when STORAGE_DRIVER=s3'),
          region: env.S3_REGION ?? 'us-east-1',
          endpoint: env.S3_ENDPOINT ?? null,
          accessKeyId: env.S3_ACCESS_KEY_ID ?? null,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? null,
          forcePathStyle: (env.S3_FORCE_PATH_STYLE ?? 'false') === 'true',
        }
      : { driver: 'local', dir: path.resolve(env.STORAGE_DIR ?? path.join(dataDir, 'objects')) };
  const issuer = env.OIDC_ISSUER ?? null;
  if (issuer && !env.OIDC_CLIENT_ID) throw new Error('OIDC_CLIENT_ID must be set with OIDC_ISSUER');
  if (!issuer && production) {
    throw new Error(
      'OIDC_ISSUER must be set when NODE_ENV=production: the development sign-in is for local use only',
    );
  }
  const secret = resolveSecret(env, dataDir, production);
  return {
    nodeEnv,
    host,
    port,
    publicUrl,
    dataDir,
    logLevel: env.LOG_LEVEL ?? 'info',
    databaseUrl,
    databaseSchema: schemaName(env.DATABASE_SCHEMA),
    worker: {
      embedded,
      concurrency: positiveInt(env, 'WORKER_CONCURRENCY', availableParallelism()),
      leaseSeconds: positiveInt(env, 'WORKER_LEASE_SECONDS', 60, 3),
      jobTimeoutSeconds: positiveInt(env, 'JOB_TIMEOUT_SECONDS', 1800, 10),
      retryDelaySeconds: positiveInt(env, 'JOB_RETRY_DELAY_SECONDS', 5),
      pollSeconds: positiveInt(env, 'WORKER_POLL_SECONDS', 2),
    },
    convertTimeLimitSeconds: positiveInt(env, 'CONVERT_TIME_LIMIT_SECONDS', 600, 10),
    storage,
    oidc: {
      issuer,
      clientId: env.OIDC_CLIENT_ID ?? 'riffscribe-dev',
      clientSecret: env.OIDC_CLIENT_SECRET ?? secret.slice(0, 32),
    },
    secret,
    adminEmails: list(env.ADMIN_EMAILS),
    pilotEmails: list(env.PILOT_EMAILS),
    signupCredits: {
      creator: int(env, 'SIGNUP_CREATOR_CREDITS', DEFAULT_SIGNUP_CREDITS.creator),
      view: int(env, 'SIGNUP_VIEW_CREDITS', DEFAULT_SIGNUP_CREDITS.view),
    },
    supportEmail: env.SUPPORT_EMAIL ?? 'support@riffscribe.local',
    rateLimits: {
      read: int(env, 'RATE_LIMIT_PER_MINUTE', 300),
      write: int(env, 'RATE_LIMIT_WRITES_PER_MINUTE', 120),
      auth: int(env, 'RATE_LIMIT_AUTH_PER_MINUTE', 120),
      static: int(env, 'RATE_LIMIT_STATIC_PER_MINUTE', 600),
    },
    uploadsPerMinute: int(env, 'UPLOAD_RATE_LIMIT_PER_MINUTE', 10),
    trustProxy: (env.TRUST_PROXY ?? 'false') === 'true',
    metricsToken:
      env.METRICS_TOKEN === undefined || env.METRICS_TOKEN === '' ? null : env.METRICS_TOKEN,
    storageOrigins: storage.driver === 's3' ? [s3Origin(storage)] : [],
    identityOrigins: issuer ? [new URL(issuer).origin] : [],
    serveWeb: (env.SERVE_WEB ?? 'true') !== 'false',
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
  };
}

function s3Origin(storage: { bucket: string; region: string; endpoint: string | null }): string {
  if (storage.endpoint) return new URL(storage.endpoint).origin;
  return `https://${storage.bucket}.s3.${storage.region}.amazonaws.com`;
}

function positiveInt(env: Env, name: string, fallback: number, min = 1): number {
  const n = int(env, name, fallback);
  if (n < min) throw new Error(`${name} must be at least ${min}`);
  return n;
}

/** A PostgreSQL schema name this server accepts: a lower-case identifier, safe to inline in SQL. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function schemaName(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!SCHEMA_NAME.test(value)) {
    throw new Error('DATABASE_SCHEMA must be a lower-case SQL identifier (letters, digits, _)');
  }
  return value;
}

function fail(message: string): never {
  throw new Error(message);
}

/**
 * What to tell an operator whose browsers will reach the server at another address than
 * PUBLIC_URL: sign-in always ends at PUBLIC_URL (the identity provider's redirect), so a
 * browser on another machine sent to `localhost` would land on itself.
 */
/**
 * PUBLIC_URL when none is set: the address the server listens on when that is one particular
 * address (HOST=192.168.1.20 is reached there, not at localhost), else localhost.
 */
export function defaultPublicUrl(host: string, port: number | string): string {
  const anyOrLoopback = ['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1'];
  if (anyOrLoopback.includes(host)) return `http://localhost:${String(port)}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${String(port)}`;
}

export function publicUrlNote(host: string, publicUrl: string): string | null {
  const loopback = ['127.0.0.1', 'localhost', '::1'];
  const publicHost = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  if (loopback.includes(host) || !loopback.includes(publicHost)) return null;
  return (
    `Listening on ${host}, but PUBLIC_URL is ${publicUrl}: sign-in sends every browser there, ` +
    'and a browser on another machine would not find it. Set PUBLIC_URL to the address others ' +
    'open (for example http://192.168.1.20:3000).'
  );
}
