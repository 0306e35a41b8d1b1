import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Locates ffmpeg and ffprobe: a system binary on PATH first (Debian's build is maintained and
 * patched), else the static binaries that `@ffmpeg-installer/*` and `@ffprobe-installer/*` ship,
 * so that `npm install` alone is enough on a machine without ffmpeg.
 */

const require = createRequire(import.meta.url);

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Absolute path of an executable `name` in a PATH directory, or undefined. */
export function onPath(name: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d));
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The binary inside the platform package (`@ffmpeg-installer/linux-x64/ffmpeg`). npm 11 does not
 * run these packages' postinstall chmod, so the execute bit is restored here when it is missing.
 */
function fromInstaller(scope: string, name: string): string | undefined {
  const platformPackage = `${scope}/${process.platform}-${process.arch}`;
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${platformPackage}/package.json`));
  } catch {
    return undefined;
  }
  const file = path.join(dir, process.platform === 'win32' ? `${name}.exe` : name);
  try {
    if (!statSync(file).isFile()) return undefined;
  } catch {
    return undefined;
  }
  if (!isExecutable(file)) {
    try {
      chmodSync(file, 0o755);
    } catch {
      return undefined;
    }
  }
  return isExecutable(file) ? file : undefined;
}

function find(name: 'ffmpeg' | 'ffprobe', scope: string): string {
  // Not cached: a few stat calls per run, and PATH changes (tests, a later install) take effect.
  const found = onPath(name) ?? fromInstaller(scope, name);
  if (found === undefined) {
    throw new Error(
      `${name} was not found: install it (for example "apt-get install ffmpeg") or run ` +
        `"npm install" so that the ${scope}/${name} package provides it.`,
    );
  }
  return found;
}

/** Absolute path of an executable ffmpeg; throws a plain Error when none is available. */
export function findFfmpeg(): string {
  return find('ffmpeg', '@ffmpeg-installer');
}

/** Absolute path of an executable ffprobe; throws a plain Error when none is available. */
export function findFfprobe(): string {
  return find('ffprobe', '@ffprobe-installer');
}
