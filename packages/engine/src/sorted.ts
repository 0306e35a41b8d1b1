/**
 * The first position in `sorted` (ascending by `key`) whose key is at least `value`, or its
 * length when there is none: the number of items whose key is below `value`. Binary search; pure.
 */
export function firstAtLeast<T>(
  sorted: ArrayLike<T>,
  value: number,
  key: (item: T) => number,
): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const item = sorted[mid];
    if (item !== undefined && key(item) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
