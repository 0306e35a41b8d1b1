import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { LocalObjectStore } from '../../src/storage/local-store.js';
import type { ObjectStore } from '../../src/storage/object-store.js';
import { S3ObjectStore, type S3ObjectStoreOptions } from '../../src/storage/s3-store.js';
import { MIN_PART_BYTES } from '../../src/storage/s3-stream-upload.js';
import { registerLocalStorageRoutes } from '../../src/storage/storage.route.js';
import { S3RVER_CREDENTIALS, startS3rver } from './s3rver.js';
import { startSigV4Gate } from './sigv4-gate.js';

/** HTTP statuses a driver answers when it refuses a signed request. */
export interface Refusals {
  expired: number;
  tampered: number;
  foreign: number;
  tooLarge: number;
  wrongType: number;
}

/** One running storage driver, with the same storage seen through differently signing stores. */
export interface DriverHarness {
  name: 'local' | 's3';
  store: ObjectStore;
  /** Same storage; links signed with another secret (local) or secret access key (S3). */
  foreignStore: ObjectStore;
  /** Same storage; its clock is an hour behind, so its 60-second links are already expired. */
  pastStore: ObjectStore;
  refusals: Refusals;
  /** The link with one character of its signature changed. */
  tamperSignature(url: string): string;
  /** The link with one character of its object key changed (the signature left as it was). */
  tamperKey(url: string): { url: string; key: string };
  close(): Promise<void>;
}

const HOUR_AGO = () => new Date(Date.now() - 60 * 60 * 1000);

/** `s` with the character at `index` (negative: from the end) replaced by another one. */
export function flip(s: string, index: number): string {
  const at = index < 0 ? s.length + index : index;
  const replacement = s[at] === 'a' ? 'b' : 'a';
  return s.slice(0, at) + replacement + s.slice(at + 1);
}

function tamperParam(url: string, name: string, index: number): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, flip(parsed.searchParams.get(name) ?? '', index));
  return parsed.toString();
}

export interface LocalHarness extends DriverHarness {
  dir: string;
  baseUrl: string;
}

/**
 * The local driver: the storage routes on a real Fastify server on 127.0.0.1 (port 0) whose
 * global body limit is 1 MiB like the app's, objects in a temp directory.
 */
export async function startLocalDriver(): Promise<LocalHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-objects-'));
  const secret = randomBytes(32).toString('base64url');
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  // The server verifies links with the secret; the public URL only matters to issue them.
  await registerLocalStorageRoutes(
    app,
    new LocalObjectStore({ dir, publicUrl: 'http://unused.invalid', secret }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const options = { dir, publicUrl: baseUrl, secret };
  return {
    name: 'local',
    dir,
    baseUrl,
    store: new LocalObjectStore(options),
    foreignStore: new LocalObjectStore({
      ...options,
      secret: randomBytes(32).toString('base64url'),
    }),
    pastStore: new LocalObjectStore({ ...options, now: HOUR_AGO }),
    refusals: { expired: 403, tampered: 403, foreign: 403, tooLarge: 413, wrongType: 415 },
    tamperSignature: (url) => tamperParam(url, 'sig', 0),
    tamperKey(url) {
      const tampered = tamperParam(url, 'key', -1);
      return { url: tampered, key: new URL(tampered).searchParams.get('key') ?? '' };
    },
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const TEST_BUCKET = 'riffscribe-test';

export interface S3Harness extends DriverHarness {
  /** s3rver itself, without the verifying gate. */
  s3rverEndpoint: string;
  /** Options of `store`, to build more stores against the same bucket. */
  options: S3ObjectStoreOptions;
}

/**
 * The S3 driver: s3rver on 127.0.0.1 in a temp directory with a bucket, behind the SigV4 gate
 * that checks signatures the way S3 does (see sigv4-gate.ts). S3 refuses every bad link with 403.
 */
export async function startS3Driver(): Promise<S3Harness> {
  const s3rver = await startS3rver(TEST_BUCKET);
  const gate = await startSigV4Gate(s3rver.endpoint, {
    [S3RVER_CREDENTIALS.accessKeyId]: S3RVER_CREDENTIALS.secretAccessKey,
  });
  const options: S3ObjectStoreOptions = {
    bucket: TEST_BUCKET,
    region: 'us-east-1',
    endpoint: gate.url,
    ...S3RVER_CREDENTIALS,
    forcePathStyle: true,
    partBytes: MIN_PART_BYTES,
  };
  const stores = [
    new S3ObjectStore(options),
    new S3ObjectStore({ ...options, secretAccessKey: 'not-the-secret-access-key' }),
    new S3ObjectStore({ ...options, now: HOUR_AGO }),
  ] as const;
  return {
    name: 's3',
    s3rverEndpoint: s3rver.endpoint,
    options,
    store: stores[0],
    foreignStore: stores[1],
    pastStore: stores[2],
    refusals: { expired: 403, tampered: 403, foreign: 403, tooLarge: 403, wrongType: 403 },
    tamperSignature: (url) => tamperParam(url, 'X-Amz-Signature', 0),
    tamperKey(url) {
      const parsed = new URL(url);
      parsed.pathname = flip(parsed.pathname, -1);
      const key = parsed.pathname.slice(`/${TEST_BUCKET}/`.length);
      return { url: parsed.toString(), key };
    },
    async close() {
      for (const store of stores) store.destroy();
      await gate.close();
      await s3rver.close();
    },
  };
}
