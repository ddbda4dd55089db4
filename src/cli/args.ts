import { parseArgs } from 'node:util';
import { channelNames, isChannelName, type ChannelName } from '../channels/presets';
import type { ProviderName } from '../providers/detect';

/** A mistake in how the command was called: one line for the user, exit code 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** Provider names `--provider` accepts (those of `streamEvents`). */
export const providerNames: readonly ProviderName[] = [
  'openai-chat',
  'openrouter',
  'openai-responses',
  'anthropic',
  'ollama',
];

/** One parsed command line. */
export type CliCommand =
  | { command: 'help' }
  | {
      command: 'replay';
      capture: string;
      provider?: ProviderName;
      channel: ChannelName;
      speed: number;
      json: boolean;
    }
  | { command: 'inspect'; capture: string; provider?: ProviderName; json: boolean }
  | { command: 'demo'; speed: number };

/** The text `llm-rx --help` prints. */
export const usage = `Usage:
  llm-rx replay <capture> [--provider <id>] [--channel <name>] [--speed N|0] [--json]
  llm-rx inspect <capture> [--provider <id>] [--json]
  llm-rx demo [--speed N|0]

A capture is a raw SSE body (.sse), Ollama NDJSON (.ndjson) or one JSON payload per line
(.chunks.jsonl). Captures carry no timing: replay paces them at one wire message every 20 ms
(about 50 tokens/s); --speed 2 plays twice as fast, --speed 0 as fast as possible (same output,
same times). Channels: ${channelNames.join(', ')} (default web).
Providers: ${providerNames.join(', ')} (default: detected).`;

/** Reads `argv` (without node and the script); throws CliUsageError on anything it cannot use. */
export function parseCliArgs(argv: string[]): CliCommand {
  let parsed: ReturnType<typeof parseArgsStrict>;
  try {
    parsed = parseArgsStrict(argv);
  } catch (error) {
    // node:util messages are one line already; keep only the first in case that changes.
    throw new CliUsageError(String((error as Error).message).split('\n')[0]);
  }
  const { values, positionals } = parsed;
  const [command, capture, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help') return { command: 'help' };
  if (extra.length > 0) throw new CliUsageError(`unexpected argument "${extra[0]}"`);
  const speed = parseSpeed(values.speed);

  switch (command) {
    case 'demo':
      if (capture !== undefined)
        throw new CliUsageError(`demo takes no capture (got "${capture}")`);
      return { command: 'demo', speed };
    case 'replay':
    case 'inspect': {
      if (capture === undefined) throw new CliUsageError(`${command} needs a capture file`);
      const provider = parseProvider(values.provider);
      if (command === 'inspect') return { command, capture, provider, json: values.json ?? false };
      return {
        command,
        capture,
        provider,
        channel: parseChannel(values.channel),
        speed,
        json: values.json ?? false,
      };
    }
    default:
      throw new CliUsageError(`unknown command "${command}" (expected replay, inspect or demo)`);
  }
}

function parseArgsStrict(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      provider: { type: 'string' },
      channel: { type: 'string' },
      speed: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function parseSpeed(text: string | undefined): number {
  if (text === undefined) return 1;
  const speed = Number(text);
  if (text.trim() === '' || !Number.isFinite(speed) || speed < 0) {
    throw new CliUsageError(
      `--speed must be a number ≥ 0 (0 = as fast as possible), got "${text}"`,
    );
  }
  return speed;
}

function parseProvider(text: string | undefined): ProviderName | undefined {
  if (text === undefined) return undefined;
  if (!(providerNames as readonly string[]).includes(text)) {
    throw new CliUsageError(`unknown provider "${text}" (known: ${providerNames.join(', ')})`);
  }
  return text as ProviderName;
}

function parseChannel(text: string | undefined): ChannelName {
  if (text === undefined) return 'web';
  if (!isChannelName(text)) {
    throw new CliUsageError(`unknown channel "${text}" (known: ${channelNames.join(', ')})`);
  }
  return text;
}
