/**
 * Single byte ranges (RFC 9110 section 14): `bytes=a-b`, `bytes=a-` and `bytes=-n`. Anything we
 * do not serve as one range (another unit, several ranges, bad syntax) is ignored, which the RFC
 * allows: the whole object is sent with 200.
 */
export type ByteRange =
  | { kind: 'full' }
  /** Inclusive byte offsets, `0 <= start <= end < size`. */
  | { kind: 'partial'; start: number; end: number }
  /** Answer 416; the Content-Range then gives only the size. */
  | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d{0,15})-(\d{0,15})$/i;

/** Interprets a Range header value against an object of `size` bytes. */
export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return { kind: 'full' };
  const match = SINGLE.exec(header.replace(/\s+/g, ''));
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  // `a-b` with b < a is invalid syntax, not an unsatisfiable range.
  if (last !== '' && Number(last) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
