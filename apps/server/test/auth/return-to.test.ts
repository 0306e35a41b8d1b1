import { describe, expect, it } from 'vitest';
import { safeReturnTo } from '../../src/auth/return-to.js';

describe('safeReturnTo', () => {
  const kept: string[] = [
    '/',
    '/my-videos',
    '/lesson?jobId=42&version=edited',
    '/player#bar-3',
    '/a/b/',
  ];
  for (const path of kept) {
    it(`keeps ${path}`, () => {
      expect(safeReturnTo(path)).toBe(path);
    });
  }

  const refused: unknown[] = [
    undefined,
    '',
    42,
    ['/a', '/b'],
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example/',
    'http:/evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/\tevil',
    '/ok\r\nSet-Cookie: x=1',
    `/${'a'.repeat(3000)}`,
  ];
  for (const value of refused) {
    const label = value === undefined ? 'undefined' : JSON.stringify(value).slice(0, 40);
    it(`refuses ${label}`, () => {
      expect(safeReturnTo(value)).toBe('/');
    });
  }

  it('normalises dot segments and still refuses what they resolve to', () => {
    expect(safeReturnTo('/a/../b')).toBe('/b');
    expect(safeReturnTo('/./evil.example')).toBe('/evil.example');
    expect(safeReturnTo('/.//evil.example')).toBe('/');
  });
});
