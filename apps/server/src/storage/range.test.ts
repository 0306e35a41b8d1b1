import { describe, expect, it } from 'vitest';
import { parseByteRange } from './range.js';

describe('parseByteRange', () => {
  it.each([
    ['bytes=0-0', 10, { kind: 'partial', start: 0, end: 0 }],
    ['bytes=2-5', 10, { kind: 'partial', start: 2, end: 5 }],
    ['bytes=2-50', 10, { kind: 'partial', start: 2, end: 9 }],
    ['bytes=7-', 10, { kind: 'partial', start: 7, end: 9 }],
    ['bytes=-3', 10, { kind: 'partial', start: 7, end: 9 }],
    ['bytes=-30', 10, { kind: 'partial', start: 0, end: 9 }],
    ['BYTES = 1 - 2', 10, { kind: 'partial', start: 1, end: 2 }],
  ] as const)('%s of %i bytes is a partial range', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });

  it.each([
    ['bytes=10-', 10],
    ['bytes=10-20', 10],
    ['bytes=-0', 10],
    ['bytes=0-', 0],
    ['bytes=-5', 0],
  ])('%s of %i bytes is unsatisfiable', (header, size) => {
    expect(parseByteRange(header, size)).toEqual({ kind: 'unsatisfiable' });
  });

  it.each([
    undefined,
    'bytes=5-2',
    'bytes=0-1,4-5',
    'items=0-1',
    'bytes=-',
    'bytes=a-b',
    'bytes=1',
  ])('ignores %s and serves the whole object', (header) => {
    expect(parseByteRange(header, 10)).toEqual({ kind: 'full' });
  });
});
