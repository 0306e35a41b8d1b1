import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ObjectStore } from './object-store.js';

/**
 * Stores the file at `file` under `key` and resolves with its size. The file is opened before the
 * store is called: a stream from fs.createReadStream(path) opens its file later, and when the file
 * has gone (a work folder removed meanwhile) its 'error' fires while the store is still awaiting,
 * before anything listens, an uncaught exception that stops the whole process. Opened first, a
 * missing file is this promise's rejection (the job fails with its reason), and the stream reads
 * from the open handle, closed when it ends or when storing fails.
 */
export async function putFile(
  store: ObjectStore,
  key: string,
  file: string,
  contentType: string,
): Promise<number> {
  const handle = await open(file, 'r');
  let stream: Readable | undefined;
  try {
    const { size } = await handle.stat();
    stream = handle.createReadStream();
    await store.put(key, stream, contentType);
    return size;
  } finally {
    if (stream) stream.destroy();
    else await handle.close();
  }
}
