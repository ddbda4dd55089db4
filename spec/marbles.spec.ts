import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseMarbleFile } from './helpers/marbleFile';
import { runMarbleSpec } from './helpers/runMarbleSpec';

const root = join(__dirname, '..');
const marbleDir = join(root, 'marbles');

function listMarbleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listMarbleFiles(path);
    return entry.name.endsWith('.marble') ? [path] : [];
  });
}

const files = listMarbleFiles(marbleDir).sort();

describe('marble specs', () => {
  it('finds marble files', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const path of files) {
    const name = relative(marbleDir, path);
    it(name, () => {
      const spec = parseMarbleFile(relative(root, path), readFileSync(path, 'utf8'));
      runMarbleSpec(spec);
    });
  }
});
