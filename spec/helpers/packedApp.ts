import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

/** The capture every runtime replays (a fixture of the project's own). */
export const SMOKE_CAPTURE = 'fixtures/demo/openrouter-reasoning-markdown.sse';

/** A fresh app in a temporary folder with the packed tarball installed, as a user installs it. */
export interface PackedApp {
  dir: string;
  /** The tarball's file names (`package/dist/index.js`, …). */
  tarballFiles: string[];
  remove(): void;
}

function run(command: string, args: string[], cwd: string): string {
  const child = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 240_000 });
  if (child.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${child.status}):\n${child.stderr}`);
  return child.stdout;
}

const versionOf = (name: string): string =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/**
 * `npm pack` of a copy of the project (what the build reads and what the package ships, with
 * the root node_modules linked: `prepack` builds dist/ there, not in the work tree), then
 * `npm install` of the tarball and its peers rxjs and zod (the versions the project tests
 * with, from npm's cache when it has them) into a new app folder. Writes the runtimes' entry
 * scripts beside it (see {@link writeEntries}).
 */
export function packAndInstall(): PackedApp {
  const stage = mkdtempSync(join(tmpdir(), 'llm-rx-pack-'));
  const app = mkdtempSync(join(tmpdir(), 'llm-rx-app-'));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const copied = ['src', 'package.json', 'tsconfig.json', 'tsup.config.ts', 'LICENSE'];
  for (const path of new Set([...copied, ...manifest.files.filter((f: string) => f !== 'dist')]))
    cpSync(join(root, path), join(stage, path), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'));
  run('npm', ['pack', '--silent', '--pack-destination', stage], stage);
  const tarball = readdirSync(stage).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  const tarballFiles = run('tar', ['-tzf', join(stage, tarball)], stage)
    .trim()
    .split('\n');
  writeFileSync(join(app, 'package.json'), '{ "name": "smoke-app", "private": true }\n');
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      join(stage, tarball),
      `rxjs@${versionOf('rxjs')}`,
      `zod@${versionOf('zod')}`,
    ],
    app,
  );
  rmSync(stage, { recursive: true, force: true });
  writeEntries(app);
  return { dir: app, tarballFiles, remove: () => rmSync(app, { recursive: true, force: true }) };
}

/**
 * The scripts each runtime runs, all over smokeCore.mjs and the same capture (inlined, since a
 * worker has no file system): `entry.mjs` (ESM `import`), `entry.cjs` (CommonJS `require`), and
 * `worker.mjs`, a workerd module answering the same JSON over HTTP (bundled by the spec).
 */
function writeEntries(app: string): void {
  copyFileSync(join(__dirname, '../runtimes/smokeCore.mjs'), join(app, 'smokeCore.mjs'));
  const capture = JSON.stringify(readFileSync(join(root, SMOKE_CAPTURE), 'utf8'));
  writeFileSync(
    join(app, 'entry.mjs'),
    `import * as llmRx from 'llm-rx';\nimport * as rxjs from 'rxjs';\n` +
      `import { runCore } from './smokeCore.mjs';\n` +
      `console.log(JSON.stringify(await runCore(llmRx, rxjs, ${capture})));\n`,
  );
  writeFileSync(
    join(app, 'entry.cjs'),
    `const llmRx = require('llm-rx');\nconst rxjs = require('rxjs');\n` +
      `import('./smokeCore.mjs').then(({ runCore }) => runCore(llmRx, rxjs, ${capture}))\n` +
      `  .then((result) => console.log(JSON.stringify(result)));\n`,
  );
  writeFileSync(
    join(app, 'worker.mjs'),
    `import * as llmRx from 'llm-rx';\nimport * as rxjs from 'rxjs';\n` +
      `import { runCore } from './smokeCore.mjs';\n` +
      `export default { fetch: async () => Response.json(await runCore(llmRx, rxjs, ${capture})) };\n`,
  );
}
