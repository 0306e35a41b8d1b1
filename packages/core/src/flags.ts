/**
 * Technique flags arrive as true, 'true', '1', 'yes' or a nonzero number (spec section 3).
 * Normalise once, at the edge, into booleans.
 */
export function normalizeFlag(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) && value !== 0;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true' || v === 'yes') return true;
    const n = Number(v);
    return v !== '' && Number.isFinite(n) && n !== 0;
  }
  return false;
}
