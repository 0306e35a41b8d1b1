import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

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
