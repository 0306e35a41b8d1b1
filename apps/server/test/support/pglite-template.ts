import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/db/database.js';

/**
 * A migrated, empty PGlite database made once and copied for each test that needs one: PGlite
 * runs initdb whenever it starts a new database, 3 to 10 s on a busy two-core machine, and the
 * suite opens dozens. The template is made by the application's own `openDatabase` (every
 * migration, as `npm start` runs them on a first start), and each copy still passes through
 * `openDatabase`, whose migration run then finds nothing to do. Tests of a first start (the
 * database's own tests, the full path in e2e) start from nothing instead.
 *
 * Kept under the system's temporary folder, named by a hash of the migrations and PGlite's
 * version, so a change to either makes a new one; made in a folder of its own and renamed into
 * place, so processes that make it at the same time never see half of one.
 */

const MIGRATIONS = path.resolve(import.meta.dirname, '../../src/db/migrations');

function templateKey(): string {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  const pglite = JSON.parse(
    readFileSync(
      path.join(path.dirname(require.resolve('@electric-sql/pglite')), '../package.json'),
      'utf8',
    ),
  ) as { version: string };
  hash.update(pglite.version);
  for (const file of readdirSync(MIGRATIONS).sort()) {
    hash.update(file);
    hash.update(readFileSync(path.join(MIGRATIONS, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

let made: Promise<{ dir: string; dump: string }> | undefined;

/** The template's data directory and its dump (a tar of the same files), made when missing. */
function template(): Promise<{ dir: string; dump: string }> {
  made ??= (async () => {
    const base = path.join(tmpdir(), 'riffscribe-test-templates');
    const dir = path.join(base, `pglite-${templateKey()}`);
    const dump = `${dir}.tar`;
    if (existsSync(dir) && existsSync(dump)) return { dir, dump };
    mkdirSync(base, { recursive: true });
    const work = `${dir}.${String(process.pid)}-${randomBytes(4).toString('hex')}`;
    try {
      const database = await openDatabase({ driver: 'pglite', dataDir: work });
      await database.close();
      const client = await PGlite.create(work);
      const tar = await client.dumpDataDir('none');
      await client.close();
      writeFileSync(`${work}.tar`, Buffer.from(await tar.arrayBuffer()));
      // Whoever renames first wins; another maker's copy is the same database.
      renameSync(`${work}.tar`, dump);
      try {
        renameSync(work, dir);
      } catch (error) {
        if (!existsSync(dir)) throw error;
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
      rmSync(`${work}.tar`, { force: true });
    }
    return { dir, dump };
  })();
  return made;
}

/** The template as a PGlite dump, for `openDatabase({ driver: 'pglite', template })`. */
export async function pgliteTemplateDump(): Promise<Blob> {
  const { dump } = await template();
  return new Blob([await readFile(dump)]);
}

/**
 * Copies the template into `dataDir` (a new PGlite data directory, e.g. `DATA_DIR/pglite` of an
 * app about to start), so that the app's first start does not run initdb.
 */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  const { dir } = await template();
  cpSync(dir, dataDir, { recursive: true });
}
