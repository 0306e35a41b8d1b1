import { describe, expect, it } from 'vitest';
import { attachmentDisposition, isValidContentType, mediaTypeEssence } from './http-headers.js';

describe('header values', () => {
  it('compares content types by essence', () => {
    expect(mediaTypeEssence(' Video/MP4 ; codecs="avc1"')).toBe('video/mp4');
    expect(isValidContentType('video/mp4')).toBe(true);
    expect(isValidContentType('video/webm;codecs=vp9')).toBe(true);
    expect(isValidContentType('video')).toBe(false);
    expect(isValidContentType('text/html\r\nx-evil: 1')).toBe(false);
  });

  it('offers a safe attachment name', () => {
    expect(attachmentDisposition('notes.json')).toBe(
      `attachment; filename="notes.json"; filename*=UTF-8''notes.json`,
    );
    expect(attachmentDisposition('../../a"b\\c\r\n.mp4')).toBe(
      `attachment; filename="abc.mp4"; filename*=UTF-8''abc.mp4`,
    );
    expect(attachmentDisposition('Léçon (1).mp4')).toBe(
      `attachment; filename="L__on (1).mp4"; filename*=UTF-8''L%C3%A9%C3%A7on%20%281%29.mp4`,
    );
    expect(attachmentDisposition('...')).toContain('filename="download"');
  });
});
