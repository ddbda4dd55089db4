import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

// Every example file a guide shows, as a user copies it into a strict ESM app (`"type":
// "module"`, `module: nodenext`, `strict`), type-checks: relative imports carry `.js`, and the
// guides import the example the same way (`import { answerInTelegram } from './answer.js'`).
// llm-rx resolves to a package whose types are src/index.ts, so no build is needed.

const root = join(__dirname, '..', '..');
const pages = ['README.md', 'docs/telegram-bot.md', 'docs/slack-bot.md', 'docs/discord-teams.md']
  .concat(['docs/restart.md', 'docs/web-chat.md', 'docs/redis.md'])
  .map((path) => readFileSync(join(root, path), 'utf8'));
const shown = [
  ...new Set(pages.flatMap((text) => [...text.matchAll(/```ts\n\/\/ (examples\/\S+\.ts)\n/g)])),
]
  .map(([, path]) => path)
  .filter((path, index, all) => all.indexOf(path) === index)
  // The useChat page is browser code, bundled for the page and type-checked by node22/tsconfig.
  .filter((path) => !path.startsWith('examples/use-chat/page/'));

/** The example as a guide shows it: llm-rx by its package name instead of from src/. */
const asShown = (path: string) =>
  readFileSync(join(root, path), 'utf8').replace(
    /'(?:\.\.\/)+src\/(index|redis)'/g,
    (_, entry: string) => (entry === 'index' ? "'llm-rx'" : "'llm-rx/redis'"),
  );

describe('the examples the guides show, in a strict ESM app (module: nodenext)', () => {
  let app: string;
  beforeAll(() => {
    app = mkdtempSync(join(tmpdir(), 'llm-rx-nodenext-'));
    const modules = join(app, 'node_modules');
    mkdirSync(join(modules, 'llm-rx'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2022',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          skipLibCheck: true,
          noEmit: true,
        },
        include: ['**/*.ts'],
      }),
    );
    writeFileSync(
      join(modules, 'llm-rx', 'package.json'),
      JSON.stringify({
        name: 'llm-rx',
        exports: { '.': { types: './index.d.ts' }, './redis': { types: './redis.d.ts' } },
      }),
    );
    writeFileSync(join(modules, 'llm-rx', 'index.d.ts'), `export * from '${root}/src/index';\n`);
    writeFileSync(
      join(modules, 'llm-rx', 'redis.d.ts'),
      `export * from '${root}/src/redis/index';\n`,
    );
    for (const dependency of ['rxjs', 'zod', 'redis', '@types', '@redis'])
      symlinkSync(join(root, 'node_modules', dependency), join(modules, dependency));
    for (const path of shown) {
      mkdirSync(join(app, dirname(path)), { recursive: true });
      writeFileSync(join(app, path), asShown(path));
      // The guides' own line that uses the example: `import … from './answer.js'`.
      const name = basename(path, '.ts');
      writeFileSync(
        join(app, dirname(path), `uses-${name}.ts`),
        `import * as example from './${name}.js';\nconsole.log(Object.keys(example));\n`,
      );
    }
  });
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  it('finds the examples the guides show', () => {
    expect(shown).toEqual(expect.arrayContaining(['examples/telegram-bot/answer.ts']));
    expect(shown.length).toBeGreaterThanOrEqual(8);
  });

  it('tsc --strict (module nodenext) reports no error', () => {
    const tsc = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app],
      { encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 180_000);
});
