import { describe, expect, it } from 'vitest';
import {
  assertSafeKey,
  isSafeKey,
  jobObjectKey,
  newUploadKey,
  thumbnailKey,
  UnsafeKeyError,
} from './keys.js';

describe('object keys', () => {
  it.each(['../x', '/abs', 'a\\b', 'a/../b', '.', '..', 'a//b', 'a/', '', '.hidden', 'a b', 'é'])(
    'assertSafeKey rejects %j',
    (key) => {
      expect(() => {
        assertSafeKey(key);
      }).toThrow(UnsafeKeyError);
    },
  );

  it('rejects over-long keys and too many segments', () => {
    expect(isSafeKey('a'.repeat(129))).toBe(false);
    expect(isSafeKey(Array.from({ length: 17 }, () => 'a').join('/'))).toBe(false);
    expect(isSafeKey(Array.from({ length: 5 }, () => 'a'.repeat(110)).join('/'))).toBe(false);
  });

  it('accepts the keys the server generates', () => {
    expect(isSafeKey('uploads/u1/0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    expect(isSafeKey('jobs/j-1/original/notes.json')).toBe(true);
  });

  it('generates upload keys with a fresh uuid, never from a file name', () => {
    const a = newUploadKey('user-1');
    expect(a).toMatch(/^uploads\/user-1\/[0-9a-f-]{36}$/);
    expect(newUploadKey('user-1')).not.toBe(a);
    expect(() => newUploadKey('../user')).toThrow(UnsafeKeyError);
  });

  it('builds job keys with and without a version', () => {
    expect(jobObjectKey('j1', 'notes.json', 'original')).toBe('jobs/j1/original/notes.json');
    expect(jobObjectKey('j1', 'notes.json', 'edited')).toBe('jobs/j1/edited/notes.json');
    expect(jobObjectKey('j1', 'video.mp4')).toBe('jobs/j1/video.mp4');
    expect(thumbnailKey('j1')).toBe('jobs/j1/thumbnail.jpg');
    expect(() => jobObjectKey('j1', '../../etc/passwd')).toThrow(UnsafeKeyError);
    expect(() => jobObjectKey('j1/..', 'x')).toThrow(UnsafeKeyError);
  });
});
