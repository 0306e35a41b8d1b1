import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The compiled file of a server module, for a child process or a worker thread, which must run
 * compiled code: beside the caller when it runs compiled (dist/), else (tests run the
 * TypeScript source) in `apps/server/dist/<folder>`, built by `tsc -b apps/server`.
 * `callerUrl` is the caller's `import.meta.url`; `folder` its folder under src/.
 */
export function compiledModule(callerUrl: string, folder: string, name: string): string {
  const here = fileURLToPath(callerUrl);
  const dir = path.dirname(here);
  if (here.endsWith('.ts')) return path.resolve(dir, '../../dist', folder, `${name}.js`);
  return path.join(dir, `${name}.js`);
}

/**
 * Node options without those that change module resolution: a test runner's `--conditions
 * source` would have compiled code import the workspace's TypeScript.
 */
export function withoutConditions(options: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const option = options[i] ?? '';
    if (option === '--conditions' || option === '-C') i++;
    else if (!option.startsWith('--conditions=')) kept.push(option);
  }
  return kept;
}
