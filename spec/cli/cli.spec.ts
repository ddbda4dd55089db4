import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCliArgs, usage, usageLine } from '../../src/cli/args';
import { splitSseBlocks } from '../../src/cli/capture';
import { runCliInProcess } from './runCliInProcess';

const root = join(__dirname, '..', '..');
const demoCapture = join(root, 'fixtures/demo/openrouter-reasoning-markdown.sse');

describe('llm-rx argument parsing', () => {
  it('reads replay with every option', () => {
    expect(
      parseCliArgs([
        'replay',
        'a.sse',
        '--provider',
        'anthropic',
        '--channel',
        'sms',
        '--speed',
        '2.5',
        '--json',
      ]),
    ).toEqual({
      command: 'replay',
      capture: 'a.sse',
      provider: 'anthropic',
      channel: 'sms',
      speed: 2.5,
      json: true,
    });
  });

  it('defaults: channel web, speed 1, provider detected', () => {
    expect(parseCliArgs(['replay', 'a.sse'])).toEqual({
      command: 'replay',
      capture: 'a.sse',
      provider: undefined,
      channel: 'web',
      speed: 1,
      json: false,
    });
  });
});

describe('llm-rx usage errors: exit 2, one line on stderr, nothing on stdout', () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      'missing file',
      ['replay', 'no/such/file.sse'],
      /^llm-rx: no\/such\/file\.sse: no such file\n$/,
    ],
    ['unknown capture type', ['inspect', 'capture.txt'], /unknown capture type/],
    [
      'unknown provider',
      ['replay', demoCapture, '--provider', 'not-a-provider'],
      /^llm-rx: unknown provider "not-a-provider" \(known: openai-chat, openrouter, /,
    ],
    [
      'unknown channel',
      ['replay', demoCapture, '--channel', 'viber'],
      /^llm-rx: unknown channel "viber" \(known: web, telegram, discord, slack, signal, msteams, sms, whatsapp, googlechat\)\n$/,
    ],
    ['bad speed', ['replay', demoCapture, '--speed', 'fast'], /--speed must be a number/],
    ['unknown command', ['play', demoCapture], /unknown command "play"/],
    ['replay without capture', ['replay'], /replay needs a capture file/],
    [
      'negative speed',
      ['replay', demoCapture, '--speed', '-1'],
      /^llm-rx: --speed must be a number ≥ 0 \(0 = as fast as possible\), got "-1"\n$/,
    ],
  ];
  it.each(cases)('%s', async (_name, argv, message) => {
    const run = await runCliInProcess(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('llm-rx command-line mistakes that print the usage line after the message', () => {
  const cases: Array<[string, string[], string]> = [
    ['unknown flag', ['replay', demoCapture, '--colour'], 'unknown option --colour'],
    ['unknown short flag', ['inspect', demoCapture, '-x'], 'unknown option -x'],
    ['option without its value', ['replay', demoCapture, '--channel'], '--channel needs a value'],
    [
      'inspect --channel',
      ['inspect', demoCapture, '--channel', 'sms'],
      'inspect takes no --channel',
    ],
    ['inspect --speed', ['inspect', demoCapture, '--speed', '0'], 'inspect takes no --speed'],
    ['demo --json', ['demo', '--json'], 'demo takes no --json'],
    ['demo --provider', ['demo', '--provider', 'ollama'], 'demo takes no --provider'],
  ];
  it.each(cases)('%s: exit 2, the message, then the usage line', async (_name, argv, message) => {
    const run = await runCliInProcess(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`llm-rx: ${message}\n${usageLine}\n`);
  });

  it('no arguments: the whole usage on stderr, exit 2', async () => {
    const run = await runCliInProcess([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`llm-rx: no command given\n${usage}\n`);
  });

  it('--help and help: the usage on stdout, exit 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['replay', '--help']]) {
      const run = await runCliInProcess(argv);
      expect(run).toEqual({ code: 0, stdout: `${usage}\n`, stderr: '' });
    }
  });

  it('--version prints the version of package.json, exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const argv of [['--version'], ['-v']]) {
      expect(await runCliInProcess(argv)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});

describe('llm-rx commands', () => {
  it('replay exits 1 when the stream ends failed, and still prints every event', async () => {
    const failing = join(root, 'fixtures/openai-chat/error-mid-stream.sse');
    const json = await runCliInProcess(['replay', failing, '--speed', '0', '--json']);
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    const last = JSON.parse(json.stdout.trimEnd().split('\n').pop()!);
    expect(last).toMatchObject({ type: 'failed', error: { retryable: expect.any(Boolean) } });
    const human = await runCliInProcess(['replay', failing, '--speed', '0']);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/✗ failed /);
  });

  it('splitSseBlocks cuts after each blank line and loses no byte', () => {
    const body = ': ping\n\nevent: a\ndata: 1\r\n\r\ndata: 2\n\ndata: tail';
    const blocks = splitSseBlocks(body);
    expect(blocks).toEqual([
      ': ping\n\n',
      'event: a\ndata: 1\r\n\r\n',
      'data: 2\n\n',
      'data: tail',
    ]);
    expect(blocks.join('')).toBe(body);
  });

  it('replay --json on web: deltas and reasoning pass, one terminal last, times at 20 ms per message', async () => {
    const run = await runCliInProcess(['replay', demoCapture, '--speed', '0', '--json']);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({
      atMs: 40,
      type: 'response-start',
      provider: 'openai-chat',
      id: 'gen-demo-0001',
      model: 'qwen/qwen3-235b-a22b',
    });
    expect(
      lines
        .filter((line) => line.type === 'reasoning-delta')
        .map((line) => line.delta)
        .join(''),
    ).toMatch(/^The user wants to search/);
    expect(
      lines
        .filter((line) => line.type === 'text-delta')
        .map((line) => line.delta)
        .join(''),
    ).toMatch(/^## Search as you type[\s\S]*no real waiting\.$/);
    expect(lines[lines.length - 1]).toMatchObject({ type: 'completed', finishReason: 'stop' });
    expect(
      lines.filter((line) => ['completed', 'incomplete', 'failed'].includes(line.type)),
    ).toHaveLength(1);
  });

  it('replay (human) on telegram shows blocks with their time, no reasoning, the terminal and a summary', async () => {
    const run = await runCliInProcess([
      'replay',
      demoCapture,
      '--channel',
      'telegram',
      '--speed',
      '0',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^llm-rx replay openrouter-reasoning-markdown\.sse · openai-chat · channel telegram\n/,
    );
    expect(run.stdout).toMatch(/^ +\d+\.\d\ds {2}▌ block 0 · \d+ chars · size$/m);
    expect(run.stdout).toMatch(/^ +\d+\.\d\ds {2}✓ completed \(stop\)$/m);
    expect(run.stdout).not.toContain('thinking:');
    expect(run.stdout).toMatch(/characters of reasoning hidden\n$/);
  });

  it('inspect --json reports counts, the terminal and first-text time', async () => {
    const run = await runCliInProcess(['inspect', demoCapture, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      capture: 'openrouter-reasoning-markdown.sse',
      provider: 'openai-chat',
      wireMessages: 249,
      messagesRead: 249,
      textChars: 1096,
      unknown: [],
      terminal: { type: 'completed', finishReason: 'stop' },
      firstReasoningMs: 40,
    });
    expect(report.counts['reasoning-start']).toBe(1);
    expect(report.firstTextMs).toBeGreaterThan(report.firstReasoningMs);
  });

  it('inspect reads a .chunks.jsonl capture, framing typed payloads with their event name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llm-rx-cli-'));
    const path = join(dir, 'tiny.chunks.jsonl');
    writeFileSync(
      path,
      [
        {
          type: 'message_start',
          message: { id: 'm', model: 'claude', usage: { input_tokens: 3 } },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
        { type: 'message_stop' },
      ]
        .map((payload) => JSON.stringify(payload))
        .join('\n'),
    );
    const run = await runCliInProcess(['inspect', path, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      provider: 'anthropic',
      textChars: 2,
      terminal: { type: 'completed' },
    });
  });

  it('demo without colours marks reasoning lines and wraps the web column at spaces', async () => {
    const run = await runCliInProcess(['demo', '--speed', '0']);
    const webCells = run.stdout
      .split('\n')
      .slice(2)
      .map((line) => line.split(' │ ')[1])
      .filter((cell): cell is string => cell !== undefined)
      .map((cell) => cell.trimEnd());
    const reasoning = webCells.filter((cell) => cell.startsWith('┆ '));
    expect(reasoning.length).toBeGreaterThan(1);
    expect(reasoning.map((cell) => cell.slice(2)).join(' ')).toMatch(
      /^The user wants to search as they type without flooding the API\. debounceTime/,
    );
    // Every word of the answer is whole in some cell: no identifier is cut across two rows.
    expect(webCells.some((cell) => cell.includes('encodeURIComponent'))).toBe(true);
    expect(run.stdout).not.toContain('\x1b[');
  });

  it('demo --speed 0 prints both columns and exits 0', async () => {
    const run = await runCliInProcess(['demo', '--speed', '0']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('web: deltas as they come');
    expect(run.stdout).toContain('telegram: blocks of 800-4096');
    expect(run.stdout).toMatch(/│ ▌ block 0 · \d+ chars · size/);
    expect(run.stdout.match(/✓ completed \(stop\)/g)).toHaveLength(2);
  });
});

describe('demo: the same answer cut mid-stream', () => {
  it('ends with the text that arrived, the cut notice in the chat, and a failed answer report', async () => {
    const run = await runCliInProcess(['demo', '--speed', '0']);
    const cut = run.stdout.slice(run.stdout.indexOf('The same answer cut after 99 of 249'));
    expect(cut).toMatch(/^The same answer cut after 99 of 249 wire messages/);
    expect(cut).toContain('▌ telegram message 1\nSearch as you type, without flooding the API\n');
    // What Telegram shows: no markdown markers, and the last line the notice.
    expect(cut).not.toContain('```');
    expect(cut).toContain(
      "distinctUntilChanged, map, switchMap } from 'rxjs';\n\n⚠️ The answer was cut off.\n",
    );
    expect(cut).toContain(
      'answer report: {"outcome":"failed","reason":"stream-closed","messages":1,"delivered":true}',
    );
  });
});

describe('llm-rx as a process (tsx src/cli/main.ts)', () => {
  const tsx = join(root, 'node_modules', '.bin', 'tsx');
  const main = join(root, 'src', 'cli', 'main.ts');

  it('a missing file: exit code 2, one line, no stack trace', () => {
    const result = spawnSync(tsx, [main, 'replay', 'missing.sse'], { encoding: 'utf8', cwd: root });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('llm-rx: missing.sse: no such file\n');
  });

  it('demo: exit code 0', () => {
    const result = spawnSync(tsx, [main, 'demo', '--speed', '0'], { encoding: 'utf8', cwd: root });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('llm-rx demo');
  });
});
