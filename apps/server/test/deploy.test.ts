import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The deployment files (Dockerfile, compose.yaml, .dockerignore), checked without Docker: the
 * daemon does not run on the development machines or in CI. What the image does at run time is
 * what `npm start` and the scaled-mode tests already cover; this keeps the files honest about
 * the configuration the server reads and about the production rules (README, "Running in
 * production").
 */

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition: string }> | string[];
  deploy?: { replicas?: number | string };
}
interface Compose {
  services: Record<string, Service>;
}

// `merge: true`: the api and worker services share their settings through a `<<` merge key.
const compose = parse(read('compose.yaml'), { merge: true }) as Compose;

function service(name: string): Service {
  const found = compose.services[name];
  if (!found) throw new Error(`compose.yaml has no ${name} service`);
  return found;
}

function environment(s: Service): Record<string, string> {
  const env = s.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

function names(source: string, pattern: RegExp): string[] {
  return [...source.matchAll(pattern)].map((m) => m[1] ?? '');
}

/**
 * The environment variables the server and the workers read: config.ts (`env.NAME`,
 * `env['NAME']`, `int(env, 'NAME', ...)`) and the engine's adapters (`process.env.NAME`), found in
 * the source so that a variable added there needs no second list.
 */
function knownVariables(): Set<string> {
  const config = read('apps/server/src/config.ts');
  const known = new Set([
    ...names(config, /\benv\.([A-Z][A-Z0-9_]*)/g),
    ...names(config, /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g),
    ...names(config, /\(env, '([A-Z][A-Z0-9_]*)'/g),
  ]);
  const adapters = path.join(root, 'packages/engine/src/adapters');
  for (const file of readdirSync(adapters)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const source = readFileSync(path.join(adapters, file), 'utf8');
    for (const name of names(source, /process\.env\.([A-Z][A-Z0-9_]*)/g)) known.add(name);
  }
  return known;
}

/** Dockerfile instructions with their continuation lines joined, comments left out. */
function instructions(dockerfile: string): { keyword: string; args: string }[] {
  const joined = dockerfile
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

describe('compose.yaml', () => {
  it('runs PostgreSQL, MinIO with its bucket, the API and scalable workers', () => {
    for (const name of ['postgres', 'minio', 'minio-init', 'api', 'worker']) service(name);
    const worker = service('worker');
    // A number, or a variable with a default (`docker compose up --scale worker=N` also works).
    expect(String(worker.deploy?.replicas)).toMatch(/^(\d+|\$\{WORKER_REPLICAS:-\d+\})$/);
    expect(worker.command).toEqual(['node', 'apps/server/dist/worker.js']);
    expect(worker.image).toBe(service('api').image);
    expect(service('minio-init').command?.toString()).toMatch(/mc mb --ignore-existing/);
  });

  it('starts each part once what it needs is healthy', () => {
    expect(service('api').depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      minio: { condition: 'service_healthy' },
      'minio-init': { condition: 'service_completed_successfully' },
    });
    expect(service('worker').depends_on).toMatchObject({ api: { condition: 'service_healthy' } });
    for (const name of ['postgres', 'minio', 'api']) {
      expect(service(name).healthcheck?.test, name).toBeDefined();
    }
    expect(service('api').healthcheck?.test?.toString()).toContain('/api/health');
  });

  it('passes the api and the workers only variables that the server or the engine reads', () => {
    const known = knownVariables();
    // The scan itself works: these are read today.
    for (const name of ['DATABASE_URL', 'S3_SECRET_ACCESS_KEY', 'WORKER_CONCURRENCY']) {
      expect(known).toContain(name);
    }
    const readme = read('README.md');
    const start = readme.indexOf('## Configuration');
    const table = readme.slice(start, readme.indexOf('\n## ', start + 1));
    for (const name of ['api', 'worker']) {
      for (const variable of Object.keys(environment(service(name)))) {
        expect(known, `${name}: ${variable}`).toContain(variable);
        expect(table, `${variable} in the README's configuration table`).toContain(
          `\`${variable}\``,
        );
      }
    }
  });

  it('runs the API in production with external workers behind a proxy', () => {
    const api = environment(service('api'));
    expect(api).toMatchObject({
      NODE_ENV: 'production',
      EMBEDDED_WORKER: 'false',
      TRUST_PROXY: 'true',
      HOST: '0.0.0.0',
    });
    expect(environment(service('worker'))).toMatchObject({ NODE_ENV: 'production' });
  });

  it('commits no secret: each comes from the environment and is required', () => {
    const required = /^\$\{[A-Z][A-Z0-9_]*:\?[^}]+\}$/;
    for (const [name, s] of Object.entries(compose.services)) {
      for (const [variable, value] of Object.entries(environment(s))) {
        if (/SECRET|PASSWORD|ACCESS_KEY|ROOT_USER/.test(variable)) {
          expect(value, `${name}: ${variable}`).toMatch(required);
        }
        if (variable === 'DATABASE_URL') {
          expect(value).toMatch(/^postgres:\/\/\w+:\$\{POSTGRES_PASSWORD:\?[^}]+\}@/);
        }
      }
    }
  });

  it('pins every image to a version', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      expect(s.image, name).toMatch(/^[^:]+:(?!latest$)\S+$/);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const all = instructions(dockerfile);
  const stages: { keyword: string; args: string }[][] = [];
  for (const instruction of all) {
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  const runtime = stages.at(-1) ?? [];

  it('passes an offline Dockerfile lint without a finding', () => {
    expect(validate(dockerfile)).toEqual([]);
  });

  it('builds in stages from a pinned base image, never `latest`', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const args = new Map(
      all
        .filter((i) => i.keyword === 'ARG' && i.args.includes('='))
        .map((i) => [i.args.split('=')[0] ?? '', i.args.slice(i.args.indexOf('=') + 1)]),
    );
    for (const from of all.filter((i) => i.keyword === 'FROM')) {
      const image = (from.args.split(/\s+/)[0] ?? '').replace(
        /^\$\{?(\w+)\}?$/,
        (_, name: string) => args.get(name) ?? '',
      );
      // A later stage may start from an earlier one by name.
      if (stages.some((stage) => stage[0]?.args.endsWith(` AS ${image}`))) continue;
      expect(image, from.args).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(image, from.args).not.toMatch(/:latest$/);
    }
  });

  it('installs with `npm ci` from the lockfile, no install script, nothing from outside npm', () => {
    const runs = all.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((run) => /\bnpm ci\b/.test(run))).toBe(true);
    for (const run of runs) {
      expect(run).not.toMatch(/\bnpm (install|i)\b/);
      expect(run).not.toMatch(/\b(curl|wget|apt-get|apk)\b/);
      if (/\bnpm ci\b/.test(run)) expect(run).toContain('--ignore-scripts');
    }
    expect(dockerfile).toMatch(/ENV ONNXRUNTIME_NODE_INSTALL=skip/);
    // `npm ci` of a workspace project needs every workspace's package.json in place.
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    for (const stage of stages.filter((st) => st.some((i) => /\bnpm ci\b/.test(i.args)))) {
      const copied = stage.filter((i) => i.keyword === 'COPY').map((i) => i.args);
      for (const w of workspaces) {
        expect(copied, `${stage[0]?.args ?? ''}: ${w}`).toContain(`${w}/package.json ${w}/`);
      }
    }
    expect(all.some((i) => i.keyword === 'ADD')).toBe(false);
  });

  it('runs as a non-root user with a health check on /api/health', () => {
    const users = runtime.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const health = runtime.filter((i) => i.keyword === 'HEALTHCHECK').map((i) => i.args);
    expect(health).toHaveLength(1);
    expect(health[0]).toContain('/api/health');
  });

  it('sets production defaults and keeps DATA_DIR in a volume', () => {
    const env = runtime
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/\bNODE_ENV=production\b/);
    expect(env).toMatch(/\bHOST=0\.0\.0\.0\b/);
    expect(env).toMatch(/\bDATA_DIR=\/data\b/);
    expect(runtime.some((i) => i.keyword === 'VOLUME' && i.args.includes('/data'))).toBe(true);
    const cmd = runtime.find((i) => i.keyword === 'CMD')?.args ?? '';
    expect(cmd).toContain('apps/server/dist/main.js');
  });

  it('keeps dependencies, builds and local secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['**/node_modules', '**/dist', '.git', 'data', '.env']) {
      expect(ignored).toContain(entry);
    }
  });
});
