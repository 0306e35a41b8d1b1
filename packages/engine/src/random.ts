/**
 * A seeded pseudo-random generator (mulberry32), so that what is made from it (the benches' and
 * tests' made-up inputs, the lab's rendered corpora and training material) comes out bit for bit
 * the same on every run and machine. Returns floats in [0, 1).
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform in [lo, hi). */
export function between(r: Random, lo: number, hi: number): number {
  return lo + (hi - lo) * r();
}

/** Approximately normal (sum of four uniforms), mean 0, standard deviation 1. */
export function gaussian(r: Random): number {
  return (r() + r() + r() + r() - 2) * Math.sqrt(3);
}
