import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The dependency rule between the engine and the lab (eslint.config.js): the lab uses the
 * engine's public entries, the engine never imports the lab. Checked by linting small sources
 * as if they were files of each package, with the project's own ESLint configuration (type
 * information off: these files exist only here).
 */
const root = path.resolve(import.meta.dirname, '../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        ...tseslint.configs.disableTypeChecked,
        languageOptions: { parserOptions: { project: null, projectService: false } },
      },
    ],
  });
});

/** The no-restricted-imports messages ESLint gives `code` as the file `file`. */
async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('engine and lab boundary', () => {
  it('refuses the lab in any engine file, by package name or by path', async () => {
    for (const file of [
      'packages/engine/src/pipeline-probe.ts',
      'packages/engine/src/adapters/probe.ts',
      'packages/engine/src/bench/probe.ts',
      'packages/engine/test/probe.test.ts',
    ]) {
      const byName = await importErrors(
        file,
        "import { evaluateCorpus } from '@riffscribe/lab';\nexport const x = evaluateCorpus;\n",
      );
      expect(byName, file).toHaveLength(1);
      expect(byName[0]).toMatch(/must not import the lab/);
      const byPath = await importErrors(
        file,
        "import { scoreNotes } from '../../lab/src/notes-metrics.js';\nexport const x = scoreNotes;\n",
      );
      expect(byPath, file).toHaveLength(1);
    }
  });

  it("lets the lab use the engine's entries, not its files", async () => {
    const file = 'packages/lab/src/probe.ts';
    expect(
      await importErrors(
        file,
        [
          "import { transcribeAudio } from '@riffscribe/engine';",
          "import { extractNotes } from '@riffscribe/engine/stages';",
          "import { runTool } from '@riffscribe/engine/media-tools';",
          'export const x = [transcribeAudio, extractNotes, runTool];',
        ].join('\n'),
      ),
    ).toEqual([]);
    const deep = await importErrors(
      file,
      "import { extractNotes } from '../../engine/src/notes/extract.js';\nexport const x = extractNotes;\n",
    );
    expect(deep).toHaveLength(1);
    expect(deep[0]).toMatch(/through @riffscribe\/engine's entries/);
  });
});
