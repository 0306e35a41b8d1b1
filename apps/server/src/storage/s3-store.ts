import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { attachmentDisposition } from './http-headers.js';
import { assertSafeKey } from './keys.js';
import {
  ObjectNotFoundError,
  type DownloadOptions,
  type ListedObject,
  type ObjectInfo,
  type ObjectStore,
  type SignedUpload,
  type UploadPolicy,
} from './object-store.js';
import { checkDownloadOptions, checkUploadPolicy, signedUrlTtl } from './policy.js';
import { MIN_PART_BYTES, uploadStream } from './s3-stream-upload.js';

export interface S3ObjectStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, R2, s3rver...); null means AWS. */
  endpoint: string | null;
  /** Both null: the SDK's default credential chain (environment, profile, instance role). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** `endpoint/bucket/key` addressing instead of `bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** The clock presigned links are dated by; tests move it. */
  now?: () => Date;
  /** Part size in bytes for streamed puts; at least MIN_PART_BYTES (default 8 MiB). */
  partBytes?: number;
}

/** Headers a presigned PUT signs besides `host`; S3 refuses a request whose values differ. */
const SIGNED_UPLOAD_HEADERS = new Set(['content-type', 'content-length']);

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NotFound' ||
      error.name === 'NoSuchKey' ||
      error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Objects in an S3 bucket (AWS or S3-compatible) behind presigned links. Browsers talk to the
 * bucket directly, so the bucket's CORS rules must allow PUT and GET from the app's origin.
 *
 * Upload limits: a presigned PUT signs Content-Type, and Content-Length when the policy gives
 * `exactBytes`, so S3 refuses another type or size (403). A presigned PUT cannot carry a byte
 * range, so `maxBytes` alone is not enforced by the bucket: check `head()` after the upload.
 */
export class S3ObjectStore implements ObjectStore {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly now: () => Date;
  private readonly partBytes: number;

  constructor(options: S3ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.now = options.now ?? (() => new Date());
    this.partBytes = Math.max(MIN_PART_BYTES, options.partBytes ?? 8 * 1024 * 1024);
    const { accessKeyId, secretAccessKey } = options;
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
      // Checksums only where S3 requires them: a default CRC32 of an empty body would be signed
      // into presigned PUT links, and S3-compatible servers may not know the checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async createUploadUrl(key: string, policy: UploadPolicy): Promise<SignedUpload> {
    assertSafeKey(key);
    checkUploadPolicy(policy);
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: policy.contentType,
      ...(policy.exactBytes !== undefined ? { ContentLength: policy.exactBytes } : {}),
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: signedUrlTtl(policy.expiresInSeconds),
      signingDate: this.now(),
      signableHeaders: SIGNED_UPLOAD_HEADERS,
    });
    // Content-Length is set by the browser from the body; it may not be set by script.
    return { url, method: 'PUT', headers: { 'Content-Type': policy.contentType } };
  }

  async createDownloadUrl(key: string, options: DownloadOptions = {}): Promise<string> {
    assertSafeKey(key);
    checkDownloadOptions(options);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ...(options.downloadName !== undefined
        ? { ResponseContentDisposition: attachmentDisposition(options.downloadName) }
        : {}),
      ...(options.contentType !== undefined ? { ResponseContentType: options.contentType } : {}),
    });
    return await getSignedUrl(this.client, command, {
      expiresIn: signedUrlTtl(options.expiresInSeconds),
      signingDate: this.now(),
    });
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? null };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    assertSafeKey(key);
    if (Buffer.isBuffer(body)) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
        }),
      );
      return;
    }
    const target = { client: this.client, bucket: this.bucket, key, contentType };
    await uploadStream({ ...target, partBytes: this.partBytes }, body);
  }

  async get(key: string): Promise<Readable> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(out.Body instanceof Readable)) throw new Error('The S3 client did not return a stream');
      return out.Body;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async getBuffer(key: string): Promise<Buffer> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) throw new Error('The S3 client returned no body');
      const bytes = await out.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  /** Removes the object; S3 answers a key with no object like any other (idempotent). */
  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** ListObjectsV2 under `prefix`, page after page. */
  async list(prefix: string): Promise<ListedObject[]> {
    const listed: ListedObject[] = [];
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
      );
      for (const object of out.Contents ?? []) {
        if (object.Key !== undefined) {
          listed.push({ key: object.Key, modifiedAt: object.LastModified ?? new Date(0) });
        }
      }
      token = out.IsTruncated === true ? out.NextContinuationToken : undefined;
    } while (token !== undefined);
    return listed;
  }

  /** HeadBucket: throws when the bucket is missing, unreachable or not ours to use. */
  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /** Closes the client's connections (tests, shutdown). */
  destroy(): void {
    this.client.destroy();
  }
}
