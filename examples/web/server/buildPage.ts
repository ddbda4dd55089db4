import { build } from 'esbuild';
import { join } from 'node:path';

/** Where the dev packages whose Node floor is 22 are installed (`@ai-sdk/react`: node22/). */
const node22Modules = join(__dirname, '../../../node22/node_modules');

/**
 * A page script bundled in memory by esbuild for the browser (ES2022, minified), with llm-rx
 * taken from `src/` (its browser build). `define` replaces globals such as
 * `process.env.NODE_ENV` (React reads it). Packages not in the root install are looked up in
 * node22/ (the useChat example's `@ai-sdk/react`).
 */
export async function bundlePageScript(
  entry: string,
  options: { define?: Record<string, string>; sourcemap?: 'inline' } = {},
): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
    nodePaths: [node22Modules],
    ...options,
  });
  return result.outputFiles[0].text;
}

/**
 * The page's script: `examples/web/page/main.ts` with llm-rx, rxjs, zod, markdown-it and
 * DOMPurify.
 */
export const buildPage = (): Promise<string> =>
  bundlePageScript(join(__dirname, '../page/main.ts'), { sourcemap: 'inline' });
