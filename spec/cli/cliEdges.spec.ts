import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { usageLine } from '../../src/cli/args';
import { runCliInProcess } from './runCliInProcess';

const root = join(__dirname, '..', '..');
const demoCapture = join(root, 'fixtures/demo/openrouter-reasoning-markdown.sse');
const dir = mkdtempSync(join(tmpdir(), 'llm-rx-cli-edges-'));

/** Writes a file into the spec's folder and returns its path. */
function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

// Bytes that are not UTF-8 (a lone continuation byte, a truncated sequence) with a NUL.
const binary = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xc3]);
const oneTextChunk = `data: ${JSON.stringify({ id: 'r', choices: [{ index: 0, delta: { content: 'hi' } }] })}\n\n`;

describe('one rule for input that is not a capture: exit 2, one line', () => {
  for (const name of ['binary.sse', 'binary.chunks.jsonl', 'binary.ndjson']) {
    for (const command of ['inspect', 'replay']) {
      it(`${command} ${name}`, async () => {
        const path = file(name, binary);
        const speed = command === 'replay' ? ['--speed', '0'] : [];
        const run = await runCliInProcess([command, path, ...speed]);
        expect(run).toEqual({
          code: 2,
          stdout: '',
          stderr: `llm-rx: ${path}: not a capture (binary data, not UTF-8 text)\n`,
        });
      });
    }
  }

  it('valid UTF-8 with a NUL byte is binary too', async () => {
    const path = file('nul.sse', `data: {}\u0000\n\n`);
    expect((await runCliInProcess(['inspect', path])).code).toBe(2);
  });

  it('a text capture that is no stream (an HTML page) is replayed as streamEvents sees it', async () => {
    const path = file('page.sse', '<!DOCTYPE html>\n<html><body>Login</body></html>\n');
    const run = await runCliInProcess(['replay', path, '--speed', '0', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout.trim())).toMatchObject({
      type: 'failed',
      error: { code: 'unexpected-body' },
    });
  });
});

describe('inspect says what it knows', () => {
  it('one wire message, text with its first time, reasoning none (no "first at never")', async () => {
    const run = await runCliInProcess(['inspect', file('one.sse', oneTextChunk)]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[1]).toBe('provider     openai-chat');
    expect(lines[2]).toBe('wire         1 message');
    expect(lines[4]).toBe('text         2 characters, first at 0.00s (wire message 1)');
    expect(lines[5]).toBe('reasoning    none');
    expect(run.stdout).not.toContain('never');
    expect(run.stdout).not.toContain('1 messages');
  });

  it('--provider X on a stream that never started names X, not "not detected"', async () => {
    const path = file('one-anthropic.sse', oneTextChunk);
    const run = await runCliInProcess(['inspect', path, '--provider', 'anthropic']);
    expect(run.stdout.split('\n')[1]).toBe('provider     anthropic (from --provider)');
    const json = await runCliInProcess(['inspect', path, '--provider', 'anthropic', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ provider: 'anthropic', textChars: 0 });
  });

  it('no --provider and nothing detected: "not detected"', async () => {
    const path = file('comments.sse', ': keep-alive\n\n');
    expect((await runCliInProcess(['inspect', path])).stdout.split('\n')[1]).toBe(
      'provider     not detected',
    );
  });
});

describe("replay's character count agrees with inspect's, or says why not", () => {
  it('web: all the decoded text, the same count inspect gives', async () => {
    const inspect = JSON.parse((await runCliInProcess(['inspect', demoCapture, '--json'])).stdout);
    const run = await runCliInProcess(['replay', demoCapture, '--speed', '0']);
    expect(run.stdout).toContain(
      `${inspect.textChars} characters of text sent (all the decoded text, as inspect counts it)`,
    );
  });

  it("telegram: blocks sent, beside inspect's decoded count and the reason they differ", async () => {
    const inspect = JSON.parse((await runCliInProcess(['inspect', demoCapture, '--json'])).stdout);
    const run = await runCliInProcess([
      'replay',
      demoCapture,
      '--speed',
      '0',
      '--channel',
      'telegram',
    ]);
    const summary = run.stdout.trimEnd().split('\n').pop()!;
    expect(summary).toBe(
      `— 2 blocks · 1094 characters of text sent of ${inspect.textChars} decoded (inspect's count; ` +
        'the channel drops whitespace at block cuts, repeats fence and table header lines, ' +
        'hides silent tokens and think-tag text) · 212 characters of reasoning hidden',
    );
    expect(inspect.textChars).toBe(1096);
  });

  it('one wire message is "1 wire message"', async () => {
    const run = await runCliInProcess([
      'replay',
      file('one-replay.sse', oneTextChunk),
      '--speed',
      '0',
    ]);
    expect(run.stdout.split('\n')[1]).toMatch(/^1 wire message, as fast as possible;/);
  });
});

describe('--version stands alone', () => {
  it.each([
    [['--version', 'extra'], '"extra"'],
    [['extra', '--version'], '"extra"'],
    [['replay', 'x.sse', '--version'], '"replay"'],
    [['--version', '--json'], '--json'],
    [['-v', 'x'], '"x"'],
  ])('%j: exit 2, usage mistake', async (argv, got) => {
    expect(await runCliInProcess(argv)).toEqual({
      code: 2,
      stdout: '',
      stderr: `llm-rx: --version takes no other argument (got ${got})\n${usageLine}\n`,
    });
  });

  it('--version alone: the version, exit 0', async () => {
    const run = await runCliInProcess(['--version']);
    expect(run).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/),
      stderr: '',
    });
  });
});
