import { describe, expect, it } from 'vitest';
import { TileCache } from './tileCache';

describe('timeline tile cache', () => {
  it('drops the least recently used tile past its size and reuses its canvas', () => {
    const cache = new TileCache<{ id: number }>(2);
    let made = 0;
    const create = () => ({ id: (made += 1) });
    const a = cache.take(create);
    cache.set(0, a);
    const b = cache.take(create);
    cache.set(1, b);
    expect(cache.get(0)).toBe(a); // 0 is now the most recently used
    cache.set(2, cache.take(create));
    expect(cache.get(1)).toBeUndefined();
    expect(cache.size).toBe(2);
    expect(cache.take(create)).toBe(b);
    expect(made).toBe(3);
  });

  it('keeps the canvases of invalidated tiles for the next ones, and none after clear', () => {
    const cache = new TileCache<{ id: number }>(4);
    let made = 0;
    const create = () => ({ id: (made += 1) });
    for (let k = 0; k < 3; k += 1) cache.set(k, cache.take(create));
    cache.invalidate();
    expect(cache.size).toBe(0);
    expect(cache.get(0)).toBeUndefined();
    for (let k = 0; k < 3; k += 1) cache.set(k, cache.take(create));
    expect(made).toBe(3);
    cache.clear();
    cache.take(create);
    expect(made).toBe(4);
  });
});
