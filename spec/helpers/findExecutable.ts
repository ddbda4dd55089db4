import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `path` is a file this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The first executable `name` in the directories of `PATH`, as the shell's `command -v` finds it
 * (`.ci/run` decides with `command -v` whether to install a program, so the specs look the same
 * way). An empty `PATH` entry means the current directory, as in POSIX.
 */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = env.PATH ? env.PATH.split(delimiter) : [];
  for (const dir of dirs) {
    const path = join(dir || '.', name);
    if (isExecutableFile(path)) return path;
  }
  return undefined;
}

/**
 * A program the specs drive: the path in `env[variable]` when that is set (an explicit choice, so
 * nothing else is tried), else the first of `names` on the PATH, else the first executable of
 * `alsoTry` (well-known paths found even when PATH leaves their directory out).
 */
export function findExecutable(
  variable: string,
  names: readonly string[],
  alsoTry: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const fromEnv = env[variable];
  if (fromEnv) return isExecutableFile(fromEnv) ? fromEnv : undefined;
  for (const name of names) {
    const path = findOnPath(name, env);
    if (path) return path;
  }
  return alsoTry.find(isExecutableFile);
}
