import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

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

/** The src/ files a src/ file imports, as paths relative to src/ (`relay/log/eventLog`). */
function srcImportsOf(name: string, text: string): string[] {
  return importsOf(text)
    .filter((path) => path.startsWith('.'))
    .map((path) => relative(src, join(src, dirname(name), path)));
}

/** The files of `folder` that import from any of `forbidden` (folders or files under src/). */
function importingAny(folder: string, forbidden: string[]): string[] {
  return files
    .filter(({ name }) => name.startsWith(`${folder}/`))
    .filter(({ name, text }) =>
      srcImportsOf(name, text).some((path) =>
        forbidden.some((other) => path === other || path.startsWith(`${other}/`)),
      ),
    )
    .map(({ name }) => name);
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

  it('src/text, the text rules under every stage, imports nothing else of src', () => {
    const offenders = files
      .filter(({ name }) => name.startsWith('text/'))
      .filter(({ name, text }) =>
        srcImportsOf(name, text).some((path) => !path.startsWith('text/')),
      );
    expect(offenders.map(({ name }) => name)).toEqual([]);
  });

  it('the relay parts import none of each other (what they share sits in relay/ itself)', () => {
    // sse: llm-rx's own SSE wire, both ends; log: event logs, recordTo, followLog; ui: the AI
    // SDK UI message stream.
    expect(importingAny('relay/sse', ['relay/log', 'relay/ui'])).toEqual([]);
    expect(importingAny('relay/log', ['relay/sse', 'relay/ui'])).toEqual([]);
    expect(importingAny('relay/ui', ['relay/sse', 'relay/log'])).toEqual([]);
  });

  it('the stages before the sinks import no sink (relay, redis, delivery, channels, render)', () => {
    const sinks = ['relay', 'redis', 'delivery', 'platforms', 'channels', 'render'];
    for (const stage of ['source', 'providers', 'operators', 'chunking', 'text', 'interop']) {
      expect(importingAny(stage, sinks)).toEqual([]);
    }
  });

  it("an app's code lives in its folder: delivery/ imports no app, no app imports another", () => {
    const apps = readdirSync(join(src, 'platforms'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(apps.length).toBeGreaterThanOrEqual(4);
    expect(importingAny('delivery', ['platforms'])).toEqual([]);
    for (const app of apps) {
      const others = apps.filter((other) => other !== app).map((other) => `platforms/${other}`);
      expect(importingAny(`platforms/${app}`, [...others, 'platforms/index'])).toEqual([]);
    }
    // Outside its folder no file is named after an app (render/ is keyed by format, not by app).
    const appNamed = new RegExp(`^(${apps.join('|')})[A-Z]`);
    const strays = files
      .filter(({ name }) => !name.startsWith('platforms/') && !name.startsWith('render/'))
      .filter(({ name }) => appNamed.test(name.split('/').pop() ?? ''));
    expect(strays.map(({ name }) => name)).toEqual([]);
  });

  it('no import circle: no module reaches itself through the modules it imports', () => {
    // Type-only imports count too: a circle of types is a circle a reader has to untangle.
    const graph = new Map(
      files.map(({ name, text }) => [
        name.replace(/\.ts$/, ''),
        srcImportsOf(name, text).map((path) =>
          files.some((file) => file.name === `${path}.ts`) ? path : `${path}/index`,
        ),
      ]),
    );
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (module: string, path: string[]) => {
      if (state.get(module) === 'done') return;
      if (state.get(module) === 'open') {
        circles.push([...path.slice(path.indexOf(module)), module].join(' → '));
        return;
      }
      state.set(module, 'open');
      for (const next of graph.get(module) ?? []) visit(next, [...path, module]);
      state.set(module, 'done');
    };
    for (const module of graph.keys()) visit(module, []);
    expect(circles).toEqual([]);
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
