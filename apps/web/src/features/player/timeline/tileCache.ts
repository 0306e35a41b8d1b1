/**
 * The timeline's cached tiles by number, least recently used first, with the canvases of dropped
 * tiles kept for reuse: a tile is redrawn whole (its background included), so an edit or a scroll
 * repaints a spare canvas instead of allocating a new one and its context, which cost more than
 * drawing the tile (the edit benchmark, e2e/player-edit-bench.test.ts, docs/performance.md).
 */
export class TileCache<T> {
  private readonly tiles = new Map<number, T>();
  private readonly spare: T[] = [];

  constructor(private readonly max: number) {}

  get size(): number {
    return this.tiles.size;
  }

  /** The cached tile `k`, marked as the most recently used; undefined when not cached. */
  get(k: number): T | undefined {
    const tile = this.tiles.get(k);
    if (tile !== undefined) {
      this.tiles.delete(k);
      this.tiles.set(k, tile);
    }
    return tile;
  }

  /** A canvas to draw a new tile on: a dropped tile's, or `create()` when none is left. */
  take(create: () => T): T {
    return this.spare.pop() ?? create();
  }

  /** Caches tile `k`; past `max` tiles the least recently used one is dropped (kept as spare). */
  set(k: number, tile: T): void {
    this.tiles.set(k, tile);
    if (this.tiles.size > this.max) {
      const oldest = this.tiles.keys().next();
      if (!oldest.done) this.drop(oldest.value);
    }
  }

  /** Drops every tile (new content); their canvases stay as spares. */
  invalidate(): void {
    for (const k of [...this.tiles.keys()]) this.drop(k);
  }

  /** Forgets tiles and spares alike (the canvas changed size, so they no longer fit). */
  clear(): void {
    this.tiles.clear();
    this.spare.length = 0;
  }

  private drop(k: number): void {
    const tile = this.tiles.get(k);
    this.tiles.delete(k);
    if (tile !== undefined && this.spare.length < this.max) this.spare.push(tile);
  }
}
