import { describe, expect, it } from 'vitest';
import { loadConfig, publicUrlNote } from './config.js';

// A given secret keeps loadConfig from writing one into a data directory.
const base = { RIFFSCRIBE_SECRET: 'x'.repeat(32), DATA_DIR: '/nonexistent/riffscribe-test' };

describe('loadConfig, worker mode', () => {
  it('runs the worker inside the API server by default, with PGlite', () => {
    const config = loadConfig(base);
    expect(config.worker.embedded).toBe(true);
    expect(config.databaseUrl).toBeNull();
  });
  it('refuses EMBEDDED_WORKER=false without DATABASE_URL: no worker could reach PGlite', () => {
    expect(() => loadConfig({ ...base, EMBEDDED_WORKER: 'false' })).toThrow(
      /EMBEDDED_WORKER=false needs DATABASE_URL/,
    );
  });
  it('accepts separate workers with PostgreSQL', () => {
    const config = loadConfig({
      ...base,
      EMBEDDED_WORKER: 'false',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    });
    expect(config.worker.embedded).toBe(false);
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/test');
  });
  it('checks DATABASE_SCHEMA against the one schema-name pattern', () => {
    expect(loadConfig({ ...base, DATABASE_SCHEMA: 'tenant_1' }).databaseSchema).toBe('tenant_1');
    expect(() => loadConfig({ ...base, DATABASE_SCHEMA: 'Bad-Name' })).toThrow(/DATABASE_SCHEMA/);
  });
});

describe('publicUrlNote: browsers at another address than PUBLIC_URL', () => {
  it('says nothing on loopback, or when PUBLIC_URL names a real host', () => {
    expect(publicUrlNote('127.0.0.1', 'http://localhost:3000')).toBeNull();
    expect(publicUrlNote('0.0.0.0', 'http://192.168.1.20:3000')).toBeNull();
    expect(publicUrlNote('0.0.0.0', 'https://riffscribe.example')).toBeNull();
  });

  it('warns when listening on every address with PUBLIC_URL at localhost', () => {
    const note = publicUrlNote('0.0.0.0', 'http://localhost:3000');
    expect(note).toContain('Set PUBLIC_URL to the address others open');
    expect(publicUrlNote('::', 'http://[::1]:3000')).toContain('PUBLIC_URL is http://[::1]:3000');
  });
});

describe('PUBLIC_URL when none is set (issue 37: the log named localhost for HOST=192.168.1.20)', () => {
  it('is the listening address when that is one particular address', () => {
    expect(loadConfig({ HOST: '192.168.1.20', PORT: '3000' }).publicUrl).toBe(
      'http://192.168.1.20:3000',
    );
    expect(loadConfig({ HOST: 'fe80::1', PORT: '8080' }).publicUrl).toBe('http://[fe80::1]:8080');
  });

  it('is localhost for a loopback or every-address HOST, and PUBLIC_URL wins', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({}).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '10.0.0.2', PUBLIC_URL: 'https://tabs.example/' }).publicUrl).toBe(
      'https://tabs.example',
    );
  });
});
