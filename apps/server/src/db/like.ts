/** `text` for a SQL LIKE pattern, matched as typed: its `\`, `%` and `_` are escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
