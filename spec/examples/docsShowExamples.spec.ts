import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(__dirname, '..', '..');
const docs = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)]
  .filter((path) => path.endsWith('.md'))
  .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
const guides = docs.filter(({ path }) => path.startsWith('docs/') && path !== 'docs/reference.md');

/**
 * How a page shows an example file: a first line naming it, then the file word for word,
 * except that it imports llm-rx by its package name instead of from src/.
 */
function shownBlock(path: string): string {
  const code = readFileSync(join(root, path), 'utf8').replace(
    /'(?:\.\.\/)+src\/(index|redis)'/g,
    (_, entry: string) => (entry === 'index' ? "'llm-rx'" : "'llm-rx/redis'"),
  );
  return '```ts\n// ' + path + '\n' + code + '```\n';
}

/** The example files a page shows, by the path on the first line of their block. */
function shownFiles(text: string): string[] {
  return [...text.matchAll(/```ts\n\/\/ (examples\/\S+\.ts)\n/g)].map(([, path]) => path);
}

/** Every spec's text: an example counts as run when a spec imports it. */
function specTexts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return specTexts(path);
    return entry.name.endsWith('.spec.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}
const specs = specTexts(join(root, 'spec'));

// The code the README and the guides show is these files, which specs run: the two cannot drift.
describe('README.md and docs/*.md show the example files verbatim, and specs run them', () => {
  const shown = docs.flatMap(({ path, text }) => shownFiles(text).map((file) => [path, file]));

  it('finds the pages and their examples', () => {
    expect(guides.length).toBeGreaterThanOrEqual(4);
    expect(shown.length).toBeGreaterThanOrEqual(6);
  });

  it.each(shown)('%s shows %s word for word', (page, file) => {
    expect(docs.find(({ path }) => path === page)!.text).toContain(shownBlock(file));
  });

  it.each(shown)('%s: a spec runs %s', (_, file) => {
    const module = file.replace(/\.ts$/, '');
    const run = specs.filter((text) => text.includes(`'../../${module}'`));
    expect([file, run.length > 0]).toEqual([file, true]);
  });

  it('every guide in docs/ shows at least one example file', () => {
    const without = guides.filter(({ text }) => shownFiles(text).length === 0);
    expect(without.map(({ path }) => path)).toEqual([]);
  });

  it('imports nothing of src/ other than through the package names', () => {
    const blocks = docs.flatMap(({ text }) => [
      ...text.matchAll(/```ts\n\/\/ (examples\/\S+)\n([\s\S]*?)```/g),
    ]);
    expect(blocks.filter(([, , code]) => code.includes('src/')).map(([, path]) => path)).toEqual(
      [],
    );
  });
});

describe('README.md and docs/*.md: every relative link resolves to a file', () => {
  const links = docs.flatMap(({ path, text }) =>
    [...text.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target)
      .filter((target) => !/^(https?:|mailto:|#)/.test(target))
      .map((target) => [path, target]),
  );

  it('finds the links', () => {
    expect(links.length).toBeGreaterThan(10);
  });

  it.each(links)('%s → %s', (page, target) => {
    const file = join(root, dirname(page), decodeURI(target.replace(/#.*$/, '')));
    expect([target, existsSync(file)]).toEqual([target, true]);
    expect(relative(root, file).startsWith('..')).toBe(false);
  });
});
