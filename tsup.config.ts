import { defineConfig } from 'tsup';

// One source, two builds for a CommonJS package: ESM (`dist/index.mjs`, types `index.d.mts`) and
// CJS (`dist/index.js`, types `index.d.ts`); the CLI is CJS only (`dist/cli.js`); `llm-rx/redis`
// the same two (`dist/redis.*`). No source maps: they would point at src/, which the package does
// not ship (spec/package.spec.ts).
export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'node20',
    external: ['rxjs', 'zod', 'eventsource-parser'],
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['cjs'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['rxjs', 'zod', 'eventsource-parser'],
  },
  // llm-rx/redis: its own entry so that the core bundle never holds `redis` (an optional peer).
  {
    entry: { redis: 'src/redis/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
    external: ['rxjs', 'zod', 'eventsource-parser', 'redis'],
  },
]);
