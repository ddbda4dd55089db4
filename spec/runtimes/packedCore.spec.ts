import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packAndInstall, SMOKE_CAPTURE, type PackedApp } from '../helpers/packedApp';
import { describeWithRuntime, RUNTIMES } from '../helpers/runtimes';
import { fetchFromWorker } from '../helpers/workerd';

// DESIGN §25 and §19: `npm pack` builds (prepack), and the packed tarball's core (streamEvents,
// channel, toMessageEdits, deliver with an in-memory transport, toSseResponse, resumableEvents)
// runs on Node (ESM and CommonJS), Bun, Deno and workerd with the same result for one capture
// (spec/runtimes/smokeCore.mjs). Node's answer is the reference every other runtime must equal.

interface CoreResult {
  events: Array<{ type: string; delta?: string }>;
  delivered: string[];
  answer: unknown[];
  sse: string;
  relayed: unknown[];
}

let app: PackedApp;
let reference: CoreResult;

function runIn(dir: string, command: string, args: string[]): CoreResult {
  const child = spawnSync(command, args, {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${child.status}):\n${child.stderr}`);
  return JSON.parse(child.stdout) as CoreResult;
}

beforeAll(() => {
  app = packAndInstall();
  reference = runIn(app.dir, process.execPath, ['entry.mjs']);
}, 300_000);
afterAll(() => app?.remove());

describe('npm pack', () => {
  it('ships dist/ (prepack builds): both entries, their types, the CLI and llm-rx/redis', () => {
    const manifest = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
    const pointedAt = [
      manifest.main,
      manifest.types,
      manifest.exports['.'].import.default,
      manifest.exports['.'].import.types,
      manifest.bin['llm-rx'],
      manifest.exports['./redis'].require.default,
    ].map((path: string) => join('package', path));
    expect(pointedAt.filter((path) => !app.tarballFiles.includes(path))).toEqual([]);
  });
});

describe('the packed tarball on Node', () => {
  it('import resolves to the ESM build, require to the CommonJS one', () => {
    const node = (args: string[]) =>
      spawnSync(process.execPath, args, { cwd: app.dir, encoding: 'utf8' }).stdout.trim();
    expect(node(['--input-type=module', '-e', "console.log(import.meta.resolve('llm-rx'))"])).toBe(
      `file://${join(app.dir, 'node_modules/llm-rx/dist/esm/index.mjs')}`,
    );
    expect(node(['-p', "require.resolve('llm-rx')"])).toBe(
      join(app.dir, 'node_modules/llm-rx/dist/index.js'),
    );
  });

  it(`the core over ${SMOKE_CAPTURE}: the answer, delivered, relayed and read back`, () => {
    const terminal = reference.events[reference.events.length - 1];
    expect(terminal.type).toBe('completed');
    const text = reference.events
      .filter((event) => event.type === 'text-delta')
      .map((event) => event.delta)
      .join('');
    expect(text.length).toBeGreaterThan(1000);
    // The chat shows the answer's words (rendered for Telegram), in one message per 4,096 chars.
    expect(reference.delivered.length).toBeGreaterThan(0);
    expect(reference.delivered.every((message) => message.length <= 4096)).toBe(true);
    const shown = reference.delivered.join('\n');
    const words = text.match(/[A-Za-z]{5,}/g) ?? [];
    expect(words.length).toBeGreaterThan(50);
    expect(words.filter((word) => !shown.includes(word))).toEqual([]);
    // The own SSE wire carries every event, and resumableEvents reads back the same events.
    expect(reference.sse).toContain('\ndata: {"type":"completed"');
    expect(reference.relayed).toEqual(reference.events);
  });

  it('CommonJS require of the tarball gives the same result as import', () => {
    expect(runIn(app.dir, process.execPath, ['entry.cjs'])).toEqual(reference);
  });
});

const [bun, deno, workerd] = RUNTIMES;

describeWithRuntime(bun, (binary) => {
  it('the same events, delivered texts, SSE wire and read-back as Node', () => {
    expect(runIn(app.dir, binary, ['entry.mjs'])).toEqual(reference);
  });
});

describeWithRuntime(deno, (binary) => {
  it('the same events, delivered texts, SSE wire and read-back as Node', () => {
    expect(runIn(app.dir, binary, ['run', '--no-prompt', '--quiet', 'entry.mjs'])).toEqual(
      reference,
    );
  });
});

describeWithRuntime(workerd, (binary) => {
  it('the same events, delivered texts, SSE wire and read-back as Node', async () => {
    expect(JSON.parse(await fetchFromWorker(binary, app.dir))).toEqual(reference);
  });
});
