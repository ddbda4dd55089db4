import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * node22/'s packages: the dev packages whose Node floor is 22 (the AI SDK 7 as `ai7`, its React
 * hook, grammY's stream plugin), kept out of the root install so that Node 20 installs them
 * without an engine warning. `.ci/run` installs them on Node 24 (`npm run install:node22`).
 */
export const node22Modules = join(__dirname, '../../node22/node_modules');

/** Whether node22/ holds the package `name`. */
export function node22Has(name: string): boolean {
  return existsSync(join(node22Modules, name, 'package.json'));
}

/**
 * `describe(title, body)` when node22/ holds the package `name`; else one skipped test that
 * names the install (under CI=true a failing one: CI installs node22/).
 */
export function describeWithNode22Package(name: string, title: string, body: () => void): void {
  if (node22Has(name)) return describe(title, body);
  const hint = `${name} not installed: run npm run install:node22 (on Node 22 or newer)`;
  describe(title, () => {
    if (process.env.CI === 'true') {
      it(`needs ${name}`, () => {
        throw new Error(hint);
      });
    } else {
      it.skip(`skipped: ${hint}`, () => undefined);
    }
  });
}
