import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { BROWSER_BUNDLE_GZIP_BOUND, measureBundle } from './helpers/bundleSize';

// What the package's build writes into dist/ (without the .d.ts files, which take most of the
// build time and carry no source map): the layout package.json points at, no source map, and an
// ESM build a bundler can tree-shake. tsup runs in a child process with the project's
// tsup.config.ts, each output folder moved under a temporary one.

const root = resolve(__dirname, '..');

function buildInto(outDir: string): void {
  const script = `
    const { join, relative } = require('node:path');
    const { build } = require('tsup');
    const config = require(${JSON.stringify(join(root, 'tsup.config.ts'))}).default;
    (async () => {
      for (const options of [].concat(config)) {
        const into = join(${JSON.stringify(outDir)}, relative('dist', options.outDir ?? 'dist'));
        await build({ ...options, config: false, outDir: into, dts: false, silent: true });
      }
    })().catch((error) => { console.error(error); process.exitCode = 1; });`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`tsup failed: ${child.stderr}`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

describe('the build (tsup.config.ts)', () => {
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'llm-rx-build-'));
    buildInto(outDir);
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('writes the files package.json points at, and no source map', () => {
    const files = filesUnder(outDir);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const pointedAt = [
      manifest.main,
      manifest.module,
      manifest.bin['llm-rx'],
      manifest.exports['.'].import.default,
      manifest.exports['.'].require.default,
      manifest.exports['./redis'].import.default,
      manifest.exports['./redis'].require.default,
    ].map((path: string) => relative('dist', path));
    expect(pointedAt.filter((path) => !files.includes(path))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    const withComment = files.filter((file) =>
      readFileSync(join(outDir, file), 'utf8').includes('sourceMappingURL'),
    );
    expect(withComment).toEqual([]);
  });

  it('the core (the CJS bundle and every ESM file) loads no redis: only llm-rx/redis does', () => {
    const core = filesUnder(outDir).filter(
      (file) => file === 'index.js' || (file.startsWith('esm/') && file.endsWith('.mjs')),
    );
    expect(core.length).toBeGreaterThan(2);
    const loading = core.filter((file) =>
      /\b(?:from|import|require)\s*\(?\s*['"](?:redis|@redis\/)/.test(
        readFileSync(join(outDir, file), 'utf8'),
      ),
    );
    expect(loading).toEqual([]);
  });

  it('ESM: a page importing { streamEvents, channel } gets no renderer, markdown-it or delivery', async () => {
    // As installed: the package's "sideEffects": false is what lets a bundler drop a module.
    writeFileSync(join(outDir, 'package.json'), JSON.stringify({ sideEffects: false }));
    const size = await measureBundle({
      contents: "export { streamEvents, channel } from './esm/index.mjs';",
      resolveDir: outDir,
      nodePaths: [join(root, 'node_modules')],
    });
    expect(
      size.inputs.filter((path) =>
        /markdown-it|linkify-it|string-width|\/zod\/v4\/classic\/|esm\/(render|delivery)\//.test(
          path,
        ),
      ),
    ).toEqual([]);
    // The same bound as the bundle of src/ (bundleSize.spec.ts).
    expect(size.gzip).toBeLessThanOrEqual(BROWSER_BUNDLE_GZIP_BOUND);
  });
});
