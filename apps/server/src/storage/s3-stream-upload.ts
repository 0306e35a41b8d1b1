import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';

/** S3's smallest part for a multipart upload, in bytes (every part but the last). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/** Where a streamed upload goes, and the part size in bytes (at least MIN_PART_BYTES). */
export interface StreamUploadTarget {
  client: S3Client;
  bucket: string;
  key: string;
  contentType: string;
  partBytes: number;
}

function toBuffer(chunk: unknown): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  throw new TypeError('A stored body must be a stream of bytes');
}

/**
 * Stores a stream of unknown length (PutObject needs the length up front): one PutObject when it
 * all fits in one part, else a multipart upload whose parts are sent one at a time, so memory use
 * stays near one part. A failed multipart upload is aborted, leaving no parts behind.
 */
export async function uploadStream(target: StreamUploadTarget, body: Readable): Promise<void> {
  const { client, bucket, key, contentType, partBytes } = target;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let uploadId: string | undefined;
  const parts: CompletedPart[] = [];

  const sendPart = async (id: string) => {
    const PartNumber = parts.length + 1;
    const data = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    const { ETag } = await client.send(
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: id, PartNumber, Body: data }),
    );
    parts.push({ PartNumber, ETag });
  };

  try {
    for await (const chunk of body as AsyncIterable<unknown>) {
      const bytes = toBuffer(chunk);
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes < partBytes) continue;
      uploadId ??= (
        await client.send(
          new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
        )
      ).UploadId;
      if (!uploadId) throw new Error('The bucket did not start a multipart upload');
      await sendPart(uploadId);
    }
    if (uploadId === undefined) {
      const data = Buffer.concat(pending, pendingBytes);
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: contentType }),
      );
      return;
    }
    if (pendingBytes > 0) await sendPart(uploadId);
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  } catch (error) {
    if (uploadId !== undefined) {
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))
        .catch(() => undefined);
    }
    throw error;
  }
}
