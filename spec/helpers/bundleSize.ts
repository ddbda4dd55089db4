// How much llm-rx adds to a browser page that reads a stream: bundles an entry that imports only
// `streamEvents` and `channel` from src/index.ts with esbuild (minified, ESM, platform browser,
// every dependency inlined). Used by `npm run size` (bench/bundleSize.ts) and the package specs.

import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/** The entry of the measured bundle: the two calls a chat page needs. */
export const SIZE_ENTRY = "export { streamEvents, channel } from './src/index';";

/** Sizes of the browser bundle of {@link SIZE_ENTRY}, in bytes. */
export interface BundleSize {
  minified: number;
  gzip: number;
  /** Minified bytes by origin: `src` (llm-rx) or the npm package. */
  byOrigin: Record<string, number>;
  /** Every file that put bytes into the bundle. */
  inputs: string[];
}

/** Where {@link measureBundle} bundles from. */
export interface BundleEntry {
  /** The entry's code. @defaultValue {@link SIZE_ENTRY} */
  contents?: string;
  /** The folder its imports resolve from. @defaultValue the project root */
  resolveDir?: string;
  /** Extra node_modules folders, for an entry outside the project (a built package). */
  nodePaths?: string[];
}

/** Builds the entry in memory and measures it. */
export async function measureBundle({
  contents = SIZE_ENTRY,
  resolveDir = join(__dirname, '..', '..'),
  nodePaths,
}: BundleEntry = {}): Promise<BundleSize> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'ts', sourcefile: 'size-entry.ts' },
    ...(nodePaths ? { nodePaths } : {}),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return {
    minified: code.byteLength,
    gzip: gzipSync(code).byteLength,
    byOrigin: byOrigin(result.metafile),
    inputs: Object.values(result.metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    ),
  };
}

function byOrigin(metafile: Metafile): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
      const origin = inPackage ? inPackage[1] : 'src';
      sizes[origin] = (sizes[origin] ?? 0) + input.bytesInOutput;
    }
  }
  return sizes;
}

/**
 * The gzip bound of a page's `{ streamEvents, channel }` (bundleSize.spec, package.spec). 40 KB
 * until milestone 4; 56 KB since, for the 2026 wires that `streamEvents` must carry to detect
 * them: the Gemini, Cohere and Bedrock decoders and Bedrock's event stream codec
 * (`@smithy/eventstream-codec` with `@smithy/core`, 9 KB minified). BENCHMARKS.md ("Browser
 * bundle") records the measured size by origin.
 */
export const BROWSER_BUNDLE_GZIP_BOUND = 56 * 1024;
