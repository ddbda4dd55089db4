import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');

/** Every module specifier in a file's code (static, dynamic, `export … from`, `require`), comments aside. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  for (const match of code.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The files reachable from `entry` through relative imports, and the packages they name. */
function importGraph(entry: string): { files: string[]; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const base = resolve(dirname(file), specifier);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path));
      if (!target) throw new Error(`${relative(root, file)}: cannot resolve ${specifier}`);
      visit(target);
    }
  };
  visit(entry);
  return { files: [...files].map((file) => relative(root, file)), packages };
}

describe('the core package and llm-rx/redis', () => {
  it('the core (src/index.ts and all it imports) never imports redis nor src/redis', () => {
    const core = importGraph(join(root, 'src', 'index.ts'));
    expect(core.files.length).toBeGreaterThan(20);
    expect(core.files.filter((file) => file.startsWith('src/redis'))).toEqual([]);
    expect([...core.packages].filter((name) => /^(redis|@redis\/)/.test(name))).toEqual([]);
  });

  it('llm-rx/redis loads only node:crypto, rxjs and zod (the client is typed structurally)', () => {
    const redis = importGraph(join(root, 'src', 'redis', 'index.ts'));
    // zod's subpaths (zod/mini, zod/locales) are the zod peer dependency.
    const packages = new Set([...redis.packages].map((name) => name.replace(/^zod\/.*$/, 'zod')));
    expect([...packages].sort()).toEqual(['node:crypto', 'rxjs', 'zod']);
  });

  it('package.json exports ./redis for import and require, with types', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['./redis']).toEqual({
      import: { types: './dist/redis.d.mts', default: './dist/redis.mjs' },
      require: { types: './dist/redis.d.ts', default: './dist/redis.js' },
    });
    expect([pkg.peerDependencies.redis, pkg.peerDependenciesMeta.redis]).toEqual([
      '^5.0.0',
      { optional: true },
    ]);
  });
  // The built core (dist/index.js and every file of dist/esm/) is checked by package.spec.ts.
});
