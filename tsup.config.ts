import { defineConfig } from 'tsup';

// One source, two builds: ESM (`dist/index.js`) and CJS (`dist/index.cjs`), each with its types.
export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    external: ['rxjs', 'zod', 'eventsource-parser'],
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['cjs'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['rxjs', 'zod', 'eventsource-parser'],
  },
  // llm-rx/redis: its own entry so that the core bundle never holds `redis` (an optional peer).
  {
    entry: { redis: 'src/redis/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    external: ['rxjs', 'zod', 'eventsource-parser', 'redis'],
  },
]);
