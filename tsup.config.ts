import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

// One source, built three ways for a CommonJS package:
// - ESM, `dist/esm/`: one file per module of src/ (code two modules share goes into a
//   `chunk-*.mjs`), entry `dist/esm/index.mjs`, types `dist/esm/index.d.mts`. Split so that a
//   bundler, told by `"sideEffects": false` that an unused module can go, keeps only what a page
//   imports: `{ streamEvents, channel }` leaves markdown-it, the renderers and the delivery code
//   out. One bundled file would keep every module's top-level code (spec/package.spec.ts).
// - CJS, `dist/index.js` (types `index.d.ts`): one bundled file, for Node's `require`; the CLI is
//   CJS only (`dist/cli.js`).
// - `llm-rx/redis`, `dist/redis.*`: its own entry, so the core never holds `redis`.
// No source maps: they would point at src/, which the package does not ship. `npm run build`
// empties dist/ first.

const external = ['rxjs', 'zod', 'eventsource-parser'];

/** Every module of src/ but the CLI and the redis entry (built on their own). */
function coreModules(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return path === join('src', 'cli') || path === join('src', 'redis') ? [] : coreModules(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

export default defineConfig([
  {
    entry: coreModules(),
    format: ['esm'],
    outDir: 'dist/esm',
    splitting: true,
    dts: { entry: { index: 'src/index.ts' } },
    target: 'node20',
    external,
  },
  {
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    // remend ships ESM only (an `import` export, no `require`): the CJS bundle carries it.
    noExternal: ['remend'],
    dts: true,
    target: 'node20',
    external,
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['cjs'],
    noExternal: ['remend'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external,
  },
  {
    entry: { redis: 'src/redis/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
    external: [...external, 'redis'],
  },
]);
