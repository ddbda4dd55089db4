import { parseArgs } from 'node:util';
import { channelNames, isChannelName, type ChannelName } from '../channels/presets';
import { PROVIDER_NAMES, type ProviderName } from '../providers/detect';

/** A mistake in how the command was called: one line for the user, exit code 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
  /** Print the usage line after the message (a mistake in the shape of the command line). */
  readonly showUsage: boolean;

  constructor(message: string, options: { showUsage?: boolean } = {}) {
    super(message);
    this.showUsage = options.showUsage ?? false;
  }
}

/** Provider names `--provider` accepts: those of `streamEvents` but `llm-rx` (always detected). */
export const providerNames: readonly ProviderName[] = PROVIDER_NAMES.filter(
  (name) => name !== 'llm-rx',
);

/** One parsed command line. */
export type CliCommand =
  | { command: 'help' }
  | { command: 'version' }
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

/** The one line printed after a usage mistake, and at the top of `--help`. */
export const usageLine = 'Usage: llm-rx replay|inspect|demo [options]  (llm-rx --help for more)';

/** The text `llm-rx --help` prints. */
export const usage = `Usage:
  llm-rx replay <capture> [--provider <id>] [--channel <name>] [--speed N|0] [--json]
  llm-rx inspect <capture> [--provider <id>] [--json]
  llm-rx demo [--speed N|0]
  llm-rx --version | --help

replay exits 1 when the stream ends \`failed\`, 0 otherwise (completed or incomplete); every
command exits 2 after a usage mistake, a file that is not a capture (missing, binary, not UTF-8)
included.

A capture is a raw SSE body (.sse), Ollama NDJSON (.ndjson) or one JSON payload per line
(.chunks.jsonl). Captures carry no timing: replay paces them at one wire message every 20 ms
(about 50 tokens/s); --speed 2 plays twice as fast, --speed 0 as fast as possible (same output,
same times). Channels: ${channelNames.join(', ')} (default web).
Providers: ${providerNames.join(', ')} (default: detected).`;

/** Which options each command takes: any other one given is a usage mistake, never ignored. */
const optionsOf = {
  replay: ['provider', 'channel', 'speed', 'json'],
  inspect: ['provider', 'json'],
  demo: ['speed'],
} as const;

/**
 * Reads `argv` (without node and the script); throws CliUsageError on anything it cannot use.
 * No arguments at all is a usage mistake (exit 2 after the usage); `--help` is not. `--version`
 * stands alone: with a command, a file or another option it is a usage mistake.
 */
export function parseCliArgs(argv: string[]): CliCommand {
  if (argv.length === 0) throw new CliUsageError('no command given', { showUsage: true });
  const { values, positionals } = parseArgsStrict(joinDashValues(argv));
  const [command, capture, ...extra] = positionals;
  if (values.help || command === 'help') return { command: 'help' };
  if (values.version) {
    // `llm-rx --version extra` is a mistake, not a version query that ignores the rest.
    const option = Object.keys(values).find((name) => name !== 'version');
    const extraText = positionals.length > 0 ? `"${positionals[0]}"` : option && `--${option}`;
    if (extraText) {
      throw new CliUsageError(`--version takes no other argument (got ${extraText})`, {
        showUsage: true,
      });
    }
    return { command: 'version' };
  }
  if (command === undefined) throw new CliUsageError('no command given', { showUsage: true });
  if (extra.length > 0) throw new CliUsageError(`unexpected argument "${extra[0]}"`);

  switch (command) {
    case 'demo':
      rejectOptionsOutside(command, values);
      if (capture !== undefined)
        throw new CliUsageError(`demo takes no capture (got "${capture}")`);
      return { command: 'demo', speed: parseSpeed(values.speed) };
    case 'replay':
    case 'inspect': {
      rejectOptionsOutside(command, values);
      if (capture === undefined) throw new CliUsageError(`${command} needs a capture file`);
      const provider = parseProvider(values.provider);
      if (command === 'inspect') return { command, capture, provider, json: values.json ?? false };
      return {
        command,
        capture,
        provider,
        channel: parseChannel(values.channel),
        speed: parseSpeed(values.speed),
        json: values.json ?? false,
      };
    }
    default:
      throw new CliUsageError(`unknown command "${command}" (expected replay, inspect or demo)`);
  }
}

const cliOptions = {
  provider: { type: 'string' },
  channel: { type: 'string' },
  speed: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type OptionName = keyof typeof cliOptions;
type OptionValues = Partial<Record<OptionName, string | boolean>>;

function parseArgsStrict(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: cliOptions });
  } catch (error) {
    // node:util's own sentences speak of its API ("To specify a positional argument…"):
    // say what the user typed instead.
    const code = (error as { code?: string }).code;
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
      throw new CliUsageError(`unknown option ${option}`, { showUsage: true });
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
      const name = option.replace(/^-+/, '').split(/[ =]/)[0];
      throw new CliUsageError(`--${name} needs a value`, { showUsage: true });
    }
    throw new CliUsageError(String((error as Error).message).split('\n')[0], { showUsage: true });
  }
}

/** `--speed -1`: node:util reads `-1` as an option; a value option takes it as its value. */
function joinDashValues(argv: string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const name = argv[index].startsWith('--') ? argv[index].slice(2) : '';
    const next = argv[index + 1];
    const takesValue = name in cliOptions && cliOptions[name as OptionName].type === 'string';
    if (takesValue && next !== undefined && next.startsWith('-') && next !== '--') {
      joined.push(`--${name}=${next}`);
      index++;
    } else {
      joined.push(argv[index]);
    }
  }
  return joined;
}

function rejectOptionsOutside(command: keyof typeof optionsOf, values: OptionValues): void {
  const allowed: readonly string[] = optionsOf[command];
  for (const name of Object.keys(values)) {
    if (values[name as OptionName] !== undefined && !allowed.includes(name)) {
      throw new CliUsageError(`${command} takes no --${name}`, { showUsage: true });
    }
  }
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
