import { describe, expect, it } from 'vitest';
import { decideScrape } from './metrics-access.js';

describe('decideScrape', () => {
  const from = (remoteAddress: string, headers: Record<string, string> = {}) => ({
    remoteAddress,
    headers,
  });

  it('serves direct loopback connections when no token is set', () => {
    expect(decideScrape(from('127.0.0.1'), null)).toBe('allowed');
    expect(decideScrape(from('127.8.9.10'), null)).toBe('allowed');
    expect(decideScrape(from('::1'), null)).toBe('allowed');
    expect(decideScrape(from('::ffff:127.0.0.1'), null)).toBe('allowed');
  });

  it('refuses other addresses and anything that came through a proxy', () => {
    expect(decideScrape(from('192.168.1.20'), null)).toBe('forbidden');
    expect(decideScrape(from('::ffff:10.0.0.5'), null)).toBe('forbidden');
    expect(decideScrape(from('fe80::1'), null)).toBe('forbidden');
    expect(decideScrape({ remoteAddress: undefined, headers: {} }, null)).toBe('forbidden');
    expect(decideScrape(from('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), null)).toBe(
      'forbidden',
    );
    expect(decideScrape(from('127.0.0.1', { forwarded: 'for=203.0.113.9' }), null)).toBe(
      'forbidden',
    );
  });

  it('with a token, wants exactly that bearer token from every address', () => {
    const token = 'scrape-me-0123456789';
    expect(decideScrape(from('127.0.0.1'), token)).toBe('unauthorized');
    expect(decideScrape(from('127.0.0.1', { authorization: 'Bearer nope' }), token)).toBe(
      'unauthorized',
    );
    expect(decideScrape(from('127.0.0.1', { authorization: `Basic ${token}` }), token)).toBe(
      'unauthorized',
    );
    expect(decideScrape(from('203.0.113.9', { authorization: `Bearer ${token}` }), token)).toBe(
      'allowed',
    );
  });
});
