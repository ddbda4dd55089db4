import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * The page's script, bundled in memory by esbuild: `examples/web/page/main.ts` with llm-rx
 * taken from `src/` (its browser build), rxjs, zod, markdown-it and DOMPurify.
 */
export async function buildPage(): Promise<string> {
  const result = await build({
    entryPoints: [join(__dirname, '../page/main.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
