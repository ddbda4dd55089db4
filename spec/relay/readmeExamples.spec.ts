import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/**
 * The README block of an example file: a first line naming it, then the file word for word,
 * except that it imports llm-rx by its package name instead of from src/.
 */
function readmeBlock(path: string): string {
  const code = readFileSync(join(root, path), 'utf8')
    .replaceAll("'../../../src/index'", "'llm-rx'")
    .replaceAll("'../../../src/redis'", "'llm-rx/redis'");
  return '```ts\n// ' + path + '\n' + code + '```\n';
}

// The README's server code is these files, which specs run (readmeChatServer*.spec.ts,
// readmeRelayRoutes.spec.ts): the two cannot drift apart.
describe("the README's server code is the example files, verbatim", () => {
  it.each([
    'examples/web/server/relayRoutes.ts',
    'examples/web/server/chatRoutes.ts',
    'examples/web/server/nodeServer.ts',
    'examples/web/server/redisChatNode.ts',
  ])('%s', (path) => {
    expect(readme).toContain(readmeBlock(path));
  });

  it('imports nothing of src/ other than through the package names', () => {
    const blocks = [...readme.matchAll(/```ts\n\/\/ (examples\/\S+)\n([\s\S]*?)```/g)];
    expect(blocks.length).toBe(4);
    expect(blocks.filter(([, , code]) => code.includes('src/'))).toEqual([]);
  });
});
