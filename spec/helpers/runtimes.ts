import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findExecutable, isExecutableFile } from './findExecutable';

/** A JavaScript runtime the smoke specs run the packed tarball on. */
export interface Runtime {
  name: 'Bun' | 'Deno' | 'workerd';
  /** The variable that names its binary (`.ci/run` sets it). */
  variable: string;
  /** Its binary's name on the PATH. */
  command: string;
  /** The npm package `.ci/run` installs it from, and the binary's path inside it. */
  npmPackage: string;
  binaryInPackage: string;
}

export const RUNTIMES: readonly Runtime[] = [
  {
    name: 'Bun',
    variable: 'LLMRX_BUN',
    command: 'bun',
    npmPackage: '@oven/bun-linux-x64',
    binaryInPackage: 'bin/bun',
  },
  {
    name: 'Deno',
    variable: 'LLMRX_DENO',
    command: 'deno',
    npmPackage: '@deno/linux-x64-glibc',
    binaryInPackage: 'deno',
  },
  {
    name: 'workerd',
    variable: 'LLMRX_WORKERD',
    command: 'workerd',
    npmPackage: '@cloudflare/workerd-linux-64',
    binaryInPackage: 'bin/workerd',
  },
];

const runtimesCache = resolve(__dirname, '../../.runtimes');

/** The binaries `.ci/run` left in .runtimes/ for `runtime` (one folder per version). */
function cachedBinaries(runtime: Runtime): string[] {
  let folders: string[];
  try {
    folders = readdirSync(runtimesCache);
  } catch {
    return [];
  }
  return folders
    .map((folder) => join(runtimesCache, folder, 'node_modules', runtime.npmPackage))
    .map((dir) => join(dir, runtime.binaryInPackage))
    .filter(isExecutableFile);
}

/**
 * The runtime's binary: `env[variable]` when set, else `command` on the PATH, else one that
 * `.ci/run` cached in .runtimes/; undefined when there is none.
 */
export function findRuntime(runtime: Runtime, env: NodeJS.ProcessEnv = process.env) {
  return findExecutable(runtime.variable, [runtime.command], cachedBinaries(runtime), env);
}

/**
 * `describe(title, body)` with the runtime's binary when there is one; else one skipped test
 * naming what to install (under CI=true a failing one: CI installs every runtime).
 */
export function describeWithRuntime(runtime: Runtime, body: (binary: string) => void): void {
  const title = `the packed tarball on ${runtime.name}`;
  const binary = findRuntime(runtime);
  if (binary) return describe(title, () => body(binary));
  const hint =
    `${runtime.name} not found: set ${runtime.variable}, put ${runtime.command} on the PATH, ` +
    `or run .ci/run (it installs ${runtime.npmPackage} into .runtimes/)`;
  describe(title, () => {
    if (process.env.CI === 'true') {
      it(`needs ${runtime.name}`, () => {
        throw new Error(hint);
      });
    } else {
      it.skip(`skipped: ${hint}`, () => undefined);
    }
  });
}
