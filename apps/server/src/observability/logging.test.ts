import { describe, expect, it } from 'vitest';
import { redactUrl, scrubText } from './logging.js';

describe('redactUrl', () => {
  it('keeps ids and censors every other query value', () => {
    expect(redactUrl('/api/check-status?jobId=abc')).toBe('/api/check-status?jobId=abc');
    expect(redactUrl('/api/storage/object?key=uploads/u/1.mp4&op=put&exp=9&sig=SECRETSIG')).toBe(
      '/api/storage/object?key=[redacted]&op=[redacted]&exp=[redacted]&sig=[redacted]',
    );
    expect(redactUrl('/api/auth/callback?code=C0DE&state=S7ATE')).not.toMatch(/C0DE|S7ATE/);
    expect(redactUrl('/api/health')).toBe('/api/health');
  });

  it("censors the development provider's interaction id (its cookie's value)", () => {
    expect(redactUrl('/oidc/interaction/L6l_MJpwL9frubg')).toBe('/oidc/interaction/[redacted]');
    expect(redactUrl('/oidc/auth/L6l_MJpwL9frubg?x=1')).toBe('/oidc/auth/[redacted]?x=[redacted]');
  });
});

describe('scrubText', () => {
  it('blanks signatures, codes and bearer tokens in free text', () => {
    const text =
      'GET http://h/api/storage/object?key=k&sig=abc123 failed; ' +
      'https://bucket.s3/x?X-Amz-Credential=AK%2F1&X-Amz-Signature=deadbeef; ' +
      'authorization: Bearer eyJhbGciOi.payload.sig';
    const clean = scrubText(text);
    expect(clean).not.toMatch(/abc123|AK%2F1|deadbeef|eyJhbGciOi/);
    expect(clean).toContain('key=k');
    expect(clean).toContain('Bearer [redacted]');
  });
});
