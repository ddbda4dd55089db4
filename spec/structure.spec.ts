import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// The layering and size rules of src/, checked on every run so they cannot drift.
const root = join(__dirname, '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const filesOf = (dir: string, from: string) =>
  sourceFiles(dir).map((path) => ({
    name: relative(from, path),
    text: readFileSync(path, 'utf8'),
  }));

const files = filesOf(src, src);

/** The module specifiers a file imports or re-exports. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'/g)].map((match) => match[1]);
}

describe('src/ structure', () => {
  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it('no file is over 300 lines', () => {
    const long = files
      .map(({ name, text }) => ({ name, lines: text.split('\n').length - 1 }))
      .filter(({ lines }) => lines > 300);
    expect(long).toEqual([]);
  });

  it('the bytes layer (src/source) does not import the providers', () => {
    const offenders = files
      .filter(({ name }) => name.startsWith('source/'))
      .filter(({ text }) => importsOf(text).some((path) => path.includes('/providers')));
    expect(offenders.map(({ name }) => name)).toEqual([]);
  });

  it('the pure modules (chunking, text, render) import no RxJS', () => {
    const offenders = files
      .filter(({ name }) => /^(chunking|text|render)\//.test(name))
      .filter(({ text }) => importsOf(text).some((path) => path === 'rxjs'));
    expect(offenders.map(({ name }) => name)).toEqual([]);
  });

  it('nothing in src imports the AI SDK (its parts and chunks are read by their shape)', () => {
    const offenders = files.filter(({ text }) =>
      importsOf(text).some((path) => /^(ai|ai7)(\/|$)|^@ai-sdk\//.test(path)),
    );
    expect(offenders.map(({ name }) => name)).toEqual([]);
  });

  it('only src/redis imports the optional redis client', () => {
    const offenders = files
      .filter(({ name }) => !name.startsWith('redis/'))
      .filter(({ text }) => importsOf(text).some((path) => /^(redis|@redis\/)/.test(path)));
    expect(offenders.map(({ name }) => name)).toEqual([]);
  });
});

describe('spec/ and bench/', () => {
  // What both need (fakes, the corpus, the seeded PRNG, the bundle measure) is in spec/helpers.
  const specFiles = filesOf(join(root, 'spec'), root);
  const benchFiles = filesOf(join(root, 'bench'), root);

  it('finds them', () => {
    expect(specFiles.length).toBeGreaterThan(50);
    expect(benchFiles.length).toBeGreaterThan(5);
  });

  it('nothing in spec/ imports bench/', () => {
    const offenders = specFiles.filter(({ text }) =>
      importsOf(text).some((path) => /(^|\/)bench\//.test(path)),
    );
    expect(offenders.map(({ name }) => name)).toEqual([]);
  });

  it('bench/ imports from spec/ only its shared support, spec/helpers', () => {
    const offenders = benchFiles.filter(({ text }) =>
      importsOf(text).some((path) => /(^|\/)spec\//.test(path) && !/\/spec\/helpers\//.test(path)),
    );
    expect(offenders.map(({ name }) => name)).toEqual([]);
  });
});
