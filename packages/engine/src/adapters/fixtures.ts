import path from 'node:path';

/**
 * The annotated recordings kept in the repository (packages/engine/fixtures/datasets; its
 * README.md describes the layout and the licences): the engine's golden tests and benches, the
 * server's pipeline tests and the lab's evaluation use them.
 */

/** Where the recordings are, relative to the repository root. */
export const FIXTURE_DATASETS = 'packages/engine/fixtures/datasets';

/**
 * A file of the recordings kept in the repository, whatever RIFFSCRIBE_DATASETS says: tests and
 * benches that need one particular recording use this, so they never depend on the environment.
 */
export function fixtureFile(repoRoot: string, relative: string): string {
  return path.resolve(repoRoot, FIXTURE_DATASETS, relative);
}
