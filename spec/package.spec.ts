import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// What the package's build writes into dist/ (without the .d.ts files, which take most of the
// build time and carry no source map): the bundles `files` ships, and no source map. A map would
// point at src/, which the package does not ship. tsup runs in a child process, with the
// project's tsup.config.ts, into a temporary folder.

const root = resolve(__dirname, '..');

function buildInto(outDir: string): void {
  const script = `
    const { build } = require('tsup');
    const config = require(${JSON.stringify(join(root, 'tsup.config.ts'))}).default;
    (async () => {
      for (const options of [].concat(config)) {
        await build({ ...options, config: false, outDir: ${JSON.stringify(outDir)}, dts: false, clean: false, silent: true });
      }
    })().catch((error) => { console.error(error); process.exitCode = 1; });`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`tsup failed: ${child.stderr}`);
}

describe('the build (tsup.config.ts)', () => {
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'llm-rx-build-'));
    buildInto(outDir);
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('writes the ESM, CJS and CLI bundles and no source map', () => {
    expect(readdirSync(outDir).sort()).toEqual([
      'cli.js',
      'index.js',
      'index.mjs',
      'redis.js',
      'redis.mjs',
    ]);
  });

  it('leaves no sourceMappingURL comment in a bundle', () => {
    const withComment = readdirSync(outDir).filter((file) =>
      readFileSync(join(outDir, file), 'utf8').includes('sourceMappingURL'),
    );
    expect(withComment).toEqual([]);
  });
});
