/**
 * Issue 38 row 2: text the API takes (paths, queries, JSON strings) never carries a control
 * character: PostgreSQL cannot store a NUL in text (a 500 on every call that reached it), and
 * the exporters' XML may not hold one. Tab, line feed and carriage return stay allowed (a free
 * text such as an upgrade request's message has lines).
 */
export const CONTROL_CHARACTERS = 'Text may not contain control characters.';

// eslint-disable-next-line no-control-regex -- the characters it refuses
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** How deep a JSON body is searched (every body the API takes is far shallower). */
const MAX_DEPTH = 64;

/** Whether any string in `value` (keys included) holds a control character. */
export function hasControlCharacters(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return CONTROL.test(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasControlCharacters(item, depth + 1)) return true;
    return false;
  }
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return false;
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL.test(key) || hasControlCharacters(item, depth + 1)) return true;
  }
  return false;
}
