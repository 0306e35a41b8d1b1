/** Apart the seeds of a recipe's other plays (a prime, so they do not fall on other recipes'). */
export const SEED_STEP = 7919;

/**
 * The same recipe played with other notes: its `k`-th other seed, named `<name>-<tag>` (k = 0 is
 * the recipe itself). `npm run eval --scale` plays k = 0..2 (tags x1..x3); training material
 * (strike-data.ts) plays k = 4 and up, never a seed the eval scores.
 */
export function reseeded<R extends { name: string; seed: number }>(
  recipe: R,
  k: number,
  tag: string,
): R {
  return k === 0
    ? recipe
    : { ...recipe, name: `${recipe.name}-${tag}`, seed: recipe.seed + SEED_STEP * k };
}
