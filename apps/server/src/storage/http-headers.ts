/**
 * Header values shared by both drivers: content types compared by their essence, and a
 * Content-Disposition that cannot break out of its quotes or carry a path.
 */

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const CONTENT_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;[\\x20-\\x7e]*)?$`);
/** Longest file name offered for a download, in characters. */
const MAX_NAME_LENGTH = 150;

/** Whether `value` is a syntactically valid, printable-ASCII media type (parameters allowed). */
export function isValidContentType(value: string): boolean {
  return value.length <= 255 && CONTENT_TYPE.test(value);
}

/** The media type without parameters, lower-cased: `Video/MP4; codecs=x` -> `video/mp4`. */
export function mediaTypeEssence(value: string): string {
  return (value.split(';', 1)[0] ?? '').trim().toLowerCase();
}

/**
 * `attachment` with a file name that is safe to put in a header and to save: no path separators,
 * quotes or control characters, at most 150 characters, `download` when nothing is left. The
 * ASCII `filename` is a fallback; `filename*` (RFC 8187) carries the Unicode name.
 */
export function attachmentDisposition(name: string): string {
  const cleaned = Array.from(name.normalize('NFC'))
    .filter((c) => c >= ' ' && c !== '\u007f' && !'/\\"'.includes(c))
    .join('')
    .trim()
    .replace(/^\.+/, '');
  const unicode = Array.from(cleaned).slice(0, MAX_NAME_LENGTH).join('') || 'download';
  const ascii = unicode.replace(/[^A-Za-z0-9._ ()-]/g, '_');
  const encoded = encodeURIComponent(unicode).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
