import type { Config } from '../config.js';
import { LocalObjectStore } from './local-store.js';
import type { ObjectStore } from './object-store.js';
import { S3ObjectStore } from './s3-store.js';

/**
 * The object store the configuration asks for: a local directory served by this server's signed
 * links (register storage.route.ts), or an S3-compatible bucket with presigned links.
 */
export function createObjectStore(config: Config): ObjectStore {
  const storage = config.storage;
  if (storage.driver === 's3') {
    return new S3ObjectStore({
      bucket: storage.bucket,
      region: storage.region,
      endpoint: storage.endpoint,
      accessKeyId: storage.accessKeyId,
      secretAccessKey: storage.secretAccessKey,
      forcePathStyle: storage.forcePathStyle,
    });
  }
  return new LocalObjectStore({
    dir: storage.dir,
    publicUrl: config.publicUrl,
    secret: config.secret,
  });
}
