import { randomBytes } from 'node:crypto';
import type { SignedUploadResponse } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_SIZE_NEEDED } from '../../src/services/upload.service.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { startS3Driver, type S3Harness } from './drivers.js';

/**
 * Issue 38 row 4: in S3 mode an upload link is limited at the storage, not only when the video is
 * submitted. A presigned PUT cannot carry a maximum, so the link carries the exact size (a signed
 * Content-Length, which S3 and MinIO check against the request: a different length fails the
 * signature with 403, and the object is not stored); a link asked without the size is refused.
 * Here the S3 test server sits behind the SigV4 gate that checks signatures as S3 does.
 */
describe('S3 upload links', () => {
  let s3: S3Harness;
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    s3 = await startS3Driver();
    const { options } = s3;
    server = await startTestServer({
      env: {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: options.bucket,
        S3_REGION: options.region,
        S3_ENDPOINT: options.endpoint ?? '',
        S3_ACCESS_KEY_ID: options.accessKeyId ?? '',
        S3_SECRET_ACCESS_KEY: options.secretAccessKey ?? '',
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    user = await server.createUser();
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await s3.close();
  });

  const ask = (json: unknown) =>
    server.request('POST', '/api/generate-signed-upload-url', { token: user.token, json });

  it('refuses a link without the file size', async () => {
    const res = await ask({ fileName: 'riff.mp4', fileType: 'video/mp4' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: UPLOAD_SIZE_NEEDED });
  });

  it('stores exactly the declared size: a 150 MB PUT on a 1,000-byte link is refused', async () => {
    const res = await ask({ fileName: 'riff.mp4', fileType: 'video/mp4', fileSize: 1000 });
    expect(res.status).toBe(200);
    const link = (await res.json()) as SignedUploadResponse;
    const big = await fetch(link.signedUrl, {
      method: 'PUT',
      headers: link.headers,
      body: new Uint8Array(150 * 1024 * 1024),
    });
    expect(big.status).toBe(403);
    expect(await server.ctx.store.head(link.gcsFilePath)).toBeNull();
    const right = await fetch(link.signedUrl, {
      method: 'PUT',
      headers: link.headers,
      body: new Uint8Array(randomBytes(1000)),
    });
    expect(right.status).toBe(200);
    expect((await server.ctx.store.head(link.gcsFilePath))?.size).toBe(1000);
  }, 120_000);
});
