import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUploadKey } from '../../src/storage/keys.js';
import type { SignedUpload } from '../../src/storage/object-store.js';
import { S3ObjectStore, type S3ObjectStoreOptions } from '../../src/storage/s3-store.js';
import { TEST_BUCKET } from './drivers.js';
import { S3RVER_CREDENTIALS, startS3rver, type RunningS3rver } from './s3rver.js';

/**
 * What s3rver 3.7.1 enforces on its own, found by experiment, with presigned links straight to it
 * (no SigV4 gate). It checks the expiry and that the access key exists; it does not compute V4
 * signatures, so it accepts what S3 refuses. That is why object-store.test.ts puts sigv4-gate.ts
 * in front of it. If s3rver starts refusing these, the gate can go.
 */
describe('s3rver on its own', () => {
  let s3rver: RunningS3rver;
  const stores: S3ObjectStore[] = [];
  const storeWith = (changes: Partial<S3ObjectStoreOptions>) => {
    const store = new S3ObjectStore({
      bucket: TEST_BUCKET,
      region: 'us-east-1',
      endpoint: s3rver.endpoint,
      ...S3RVER_CREDENTIALS,
      forcePathStyle: true,
      ...changes,
    });
    stores.push(store);
    return store;
  };
  const upload = (signed: SignedUpload, body: string, type = 'video/mp4') =>
    fetch(signed.url, { method: 'PUT', headers: { 'Content-Type': type }, body });
  const policy = { contentType: 'video/mp4', maxBytes: null, exactBytes: 4 };

  beforeAll(async () => {
    s3rver = await startS3rver(TEST_BUCKET);
  });
  afterAll(async () => {
    for (const store of stores) store.destroy();
    await s3rver.close();
  });

  it('refuses an expired presigned link', async () => {
    const past = storeWith({ now: () => new Date(Date.now() - 60 * 60 * 1000) });
    const res = await upload(await past.createUploadUrl(newUploadKey('t'), policy), 'data');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
  });

  it('refuses a link signed with an access key it does not know', async () => {
    const stranger = storeWith({ accessKeyId: 'SOMEONE-ELSE' });
    const res = await upload(await stranger.createUploadUrl(newUploadKey('t'), policy), 'data');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('InvalidAccessKeyId');
  });

  it('accepts another secret, a changed signature, another type and another size', async () => {
    const store = storeWith({});
    const foreign = storeWith({ secretAccessKey: 'not-the-secret-access-key' });
    const signed = await store.createUploadUrl(newUploadKey('t'), policy);
    const changed = signed.url.replace(/X-Amz-Signature=./, 'X-Amz-Signature=0');
    expect(signed.url).toContain('X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost');
    const statuses = [
      (await upload(await foreign.createUploadUrl(newUploadKey('t'), policy), 'data')).status,
      (await upload({ ...signed, url: changed }, 'data')).status,
      (await upload(signed, 'data', 'text/html')).status,
      (await upload(signed, 'more than four bytes')).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200]);
  });
});
