import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findChromium } from './chromium';
import { findExecutable, findOnPath } from './findExecutable';
import { findRedisServer } from './redisServer';

// The specs must find a program wherever `.ci/run`'s `command -v` does, or CI skips installing it
// and the spec then skips (or fails) for a binary that is there.

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'llmrx-find-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A directory under the temp root holding one file `name` (executable unless `mode` says). */
function dirWith(dir: string, name: string, mode = 0o755): string {
  const path = join(root, dir);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, name), '#!/bin/sh\n');
  chmodSync(join(path, name), mode);
  return path;
}

const pathOf = (...dirs: string[]) => dirs.join(delimiter);

describe('findRedisServer', () => {
  it('finds a redis-server first on the PATH, not only /usr/bin', () => {
    const local = dirWith('local-bin', 'redis-server');
    const env = { PATH: pathOf(local, '/usr/local/bin', '/usr/bin') };
    expect(findRedisServer(env)).toBe(join(local, 'redis-server'));
  });

  it('takes REDIS_SERVER_BIN over the PATH', () => {
    const onPath = dirWith('on-path', 'redis-server');
    const chosen = join(dirWith('chosen', 'my-redis'), 'my-redis');
    expect(findRedisServer({ PATH: onPath, REDIS_SERVER_BIN: chosen })).toBe(chosen);
  });

  it('finds nothing when REDIS_SERVER_BIN names a missing file, even with one on the PATH', () => {
    const onPath = dirWith('on-path', 'redis-server');
    const env = { PATH: onPath, REDIS_SERVER_BIN: join(root, 'nope') };
    expect(findRedisServer(env)).toBeUndefined();
  });
});

describe('findOnPath', () => {
  it('skips a file without the execute bit and a directory of that name', () => {
    const plain = dirWith('plain', 'redis-server', 0o644);
    const asDir = join(root, 'as-dir');
    mkdirSync(join(asDir, 'redis-server'), { recursive: true });
    const real = dirWith('real', 'redis-server');
    expect(findOnPath('redis-server', { PATH: pathOf(plain, asDir, real) })).toBe(
      join(real, 'redis-server'),
    );
  });

  it('is undefined when no PATH entry has it, or there is no PATH', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(findOnPath('redis-server', { PATH: pathOf(empty, join(root, 'absent')) })).toBe(
      undefined,
    );
    expect(findOnPath('redis-server', {})).toBeUndefined();
  });
});

describe('findExecutable', () => {
  it('falls back to a well-known path the PATH leaves out, and is undefined without one', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const wellKnown = join(dirWith('usr-bin', 'redis-server'), 'redis-server');
    const env = { PATH: empty };
    expect(findExecutable('REDIS_SERVER_BIN', ['redis-server'], [wellKnown], env)).toBe(wellKnown);
    expect(findExecutable('REDIS_SERVER_BIN', ['redis-server'], [], env)).toBeUndefined();
  });
});

describe('findChromium', () => {
  it('prefers chromium anywhere on the PATH to chromium-browser, as .ci/run checks them', () => {
    const browser = dirWith('a', 'chromium-browser');
    const chromium = dirWith('b', 'chromium');
    expect(findChromium({ PATH: pathOf(browser, chromium) })).toBe(join(chromium, 'chromium'));
    expect(findChromium({ PATH: browser })).toBe(join(browser, 'chromium-browser'));
  });

  it('takes CHROMIUM_PATH over the PATH, and finds nothing when neither has it', () => {
    const onPath = dirWith('on-path', 'chromium');
    const chosen = join(dirWith('chosen', 'chrome'), 'chrome');
    expect(findChromium({ PATH: onPath, CHROMIUM_PATH: chosen })).toBe(chosen);
    expect(findChromium({ PATH: join(root, 'absent') })).toBeUndefined();
  });
});
