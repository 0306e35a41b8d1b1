import { Transform, type TransformCallback } from 'node:stream';

/** A streamed body went past the limit it was allowed; the object was not stored. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The body is larger than ${maxBytes} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

/** A streamed body ended at another size than the one declared; the object was not stored. */
export class ObjectSizeMismatchError extends Error {
  constructor(
    readonly expectedBytes: number,
    readonly actualBytes: number,
  ) {
    super(`The body has ${actualBytes} bytes, not the ${expectedBytes} declared`);
    this.name = 'ObjectSizeMismatchError';
  }
}

/** The sender went away before the end of the body; the object was not stored. */
export class BodyInterruptedError extends Error {
  constructor() {
    super('The body ended early');
    this.name = 'BodyInterruptedError';
  }
}

/** Byte limits for a streamed body; null/absent means no limit. */
export interface ByteLimits {
  maxBytes?: number | null;
  exactBytes?: number;
}

/**
 * Passes bytes through and counts them; fails with ObjectTooLargeError as soon as the count
 * passes `maxBytes` (or `exactBytes`), before the excess is written anywhere, and with
 * ObjectSizeMismatchError at the end when `exactBytes` was not reached.
 */
export class ByteLimit extends Transform {
  /** Bytes passed through so far. */
  bytes = 0;
  private readonly ceiling: number;

  constructor(private readonly limits: ByteLimits) {
    super();
    this.ceiling = Math.min(limits.maxBytes ?? Infinity, limits.exactBytes ?? Infinity);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.ceiling) {
      callback(new ObjectTooLargeError(this.ceiling));
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const exact = this.limits.exactBytes;
    callback(
      exact !== undefined && this.bytes !== exact
        ? new ObjectSizeMismatchError(exact, this.bytes)
        : null,
    );
  }
}
