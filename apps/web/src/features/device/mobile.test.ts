import { describe, expect, it } from 'vitest';
import { isMobileUserAgent } from './mobile';

describe('isMobileUserAgent', () => {
  it('knows phones, tablets and desktops', () => {
    expect(
      isMobileUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
      ),
    ).toBe(true);
    expect(isMobileUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile')).toBe(
      true,
    );
    expect(isMobileUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605', 5)).toBe(
      true,
    );
    expect(isMobileUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605', 0)).toBe(
      false,
    );
    expect(isMobileUserAgent('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/156.0')).toBe(false);
  });
});
