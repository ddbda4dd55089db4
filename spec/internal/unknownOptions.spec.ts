import { EMPTY } from 'rxjs';
import * as z from 'zod/mini';
import { parseOptions } from '../../src/internal/parseOptions';
import * as api from '../../src/index';
import * as redisApi from '../../src/redis/index';
import { LlmRxError } from '../../src/errors';

// A misspelt option key is an error at the call, naming the known ones, on every public entry
// point that takes an options object (they all go through parseOptions). The coverage check
// below finds those entry points from their parameter names, so one added later without a row
// here fails this spec.

const body = () =>
  new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } });
const transport = { send: async () => 1, edit: async () => undefined };
const redisClient = { sendCommand: async () => undefined, duplicate: () => redisClient };
const log = api.memoryEventLog();

/** Each entry point, called with valid options plus one misspelt key (`typo`). */
const calls: Record<string, { typo: string; call: (typo: Record<string, unknown>) => unknown }> = {
  streamEvents: { typo: 'idleTimeout', call: (o) => api.streamEvents(body(), o) },
  fromSse: { typo: 'maxBuffer', call: (o) => api.fromSse(body(), { maxBufferSize: 64, ...o }) },
  fromNdjson: { typo: 'onwarning', call: (o) => api.fromNdjson(body(), o) },
  fromEventStream: { typo: 'maxBuffer', call: (o) => api.fromEventStream(body(), o) },
  ensureTerminal: { typo: 'idleTimeout', call: (o) => api.ensureTerminal({ deadlineMs: 5, ...o }) },
  normalizeReasoning: { typo: 'tag', call: (o) => api.normalizeReasoning(o) },
  sortByIndex: { typo: 'window', call: (o) => api.sortByIndex({ windowMs: 5, ...o }) },
  partialToolInput: {
    typo: 'interval',
    call: (o) => api.partialToolInput({ intervalMs: 5, ...o }),
  },
  suppressSilent: { typo: 'token', call: (o) => api.suppressSilent(o) },
  bufferChunk: {
    typo: 'idle',
    call: (o) => api.bufferChunk({ minChars: 10, maxChars: 100, ...o } as never),
  },
  createBlockChunker: {
    typo: 'max',
    call: (o) => api.createBlockChunker({ minChars: 10, maxChars: 100, ...o } as never),
  },
  handleEvents: { typo: 'detached', call: (o) => api.handleEvents(() => undefined, o) },
  retryStream: { typo: 'attempts', call: (o) => api.retryStream(() => EMPTY, o) },
  channel: { typo: 'minchars', call: (o) => api.channel('telegram', o) },
  toMessageEdits: {
    typo: 'maxChars',
    call: (o) => api.toMessageEdits({ maxMessageChars: 4096, ...o } as never),
  },
  renderMarkdown: { typo: 'maxLen', call: (o) => api.renderMarkdown('Hi', 'telegram', o) },
  deliver: { typo: 'minInterval', call: (o) => api.deliver(transport, o) },
  telegramTransport: {
    typo: 'chat_id',
    call: (o) => api.telegramTransport({ token: 't', chatId: 1, ...o } as never),
  },
  createTelegramBot: {
    typo: 'maxPerSec',
    call: (o) => api.createTelegramBot({ token: 't', ...o } as never),
  },
  'createTelegramBot().transport': {
    typo: 'chat_id',
    call: (o) => api.createTelegramBot({ token: 't' }).transport(1, o as never),
  },
  createDiscordBot: {
    typo: 'maxPerSec',
    call: (o) => api.createDiscordBot({ token: 't', ...o } as never),
  },
  discordTransport: {
    typo: 'channel',
    call: (o) => api.discordTransport({ token: 't', channelId: '1', ...o } as never),
  },
  teamsTransport: {
    typo: 'personalChat',
    call: (o) =>
      api.teamsTransport({
        serviceUrl: 'https://smba.trafficmanager.net/amer/',
        conversationId: 'a:1',
        token: 't',
        ...o,
      } as never),
  },
  whatsappTransport: {
    typo: 'phoneNumber',
    call: (o) => api.whatsappTransport({ token: 't', phoneNumberId: '1', to: '2', ...o } as never),
  },
  googleChatTransport: {
    typo: 'threadKey',
    call: (o) => api.googleChatTransport({ space: 'spaces/A', token: 't', ...o } as never),
  },
  createSlackBot: {
    typo: 'maxPerSecond',
    call: (o) => api.createSlackBot({ token: 't', ...o } as never),
  },
  'createSlackBot().transport': {
    typo: 'minInterval',
    call: (o) => api.createSlackBot({ token: 't' }).transport({ channel: 'C1' }, o as never),
  },
  slackTransport: {
    typo: 'channelId',
    call: (o) => api.slackTransport({ token: 't', channel: 'C1', ...o } as never),
  },
  toSseFrames: { typo: 'heartbeat', call: (o) => api.toSseFrames(o) },
  toSseStream: { typo: 'heartbeat', call: (o) => api.toSseStream(EMPTY, o) },
  toSseResponse: { typo: 'heartbeat', call: (o) => api.toSseResponse(EMPTY, o) },
  toUIMessageChunks: { typo: 'messageID', call: (o) => api.toUIMessageChunks(o) },
  toUIMessageStream: { typo: 'messageID', call: (o) => api.toUIMessageStream(EMPTY, o) },
  toUIMessageStreamResponse: {
    typo: 'messageID',
    call: (o) => api.toUIMessageStreamResponse(EMPTY, o),
  },
  memoryEventLog: { typo: 'ttl', call: (o) => api.memoryEventLog(o) },
  followLog: { typo: 'afterSeq', call: (o) => api.followLog(log, 'stream', o) },
  recordTo: {
    typo: 'chatID',
    call: (o) => (api.recordTo as (...args: unknown[]) => unknown)(log, 'stream', o),
  },
  fromAISdk: {
    typo: 'abortSignal',
    call: (o) => api.fromAISdk(new ReadableStream<api.AISdkStreamPart>(), o),
  },
  resumableEvents: {
    typo: 'retries',
    call: (o) => api.resumableEvents(async () => body(), o),
  },
  redisEventLog: {
    typo: 'ttl',
    call: (o) => redisApi.redisEventLog({ client: redisClient, ...o } as never),
  },
  redisLedger: {
    typo: 'ttl',
    call: (o) => redisApi.redisLedger({ client: redisClient, ...o } as never),
  },
};

/** The exported functions whose parameter list has an `options` (or `overrides`) parameter. */
function entryPointsTakingOptions(): string[] {
  return [...Object.entries(api), ...Object.entries(redisApi)]
    .filter(([, value]) => typeof value === 'function')
    .filter(([, value]) => {
      const source = Function.prototype.toString.call(value);
      if (source.startsWith('class')) return false;
      const parameters = /\(([^)]*)\)/.exec(source)?.[1] ?? '';
      return /\b(options|overrides)\b/.test(parameters);
    })
    .map(([name]) => name)
    .sort();
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a misspelt option key throws invalid-options at the call, naming the known ones', () => {
  it('every exported entry point that takes options has a row here', () => {
    const missing = entryPointsTakingOptions().filter((name) => !(name in calls));
    expect(missing).toEqual([]);
  });

  it('finds the entry points by their parameters (the spec cannot pass on an empty list)', () => {
    expect(entryPointsTakingOptions()).toEqual(
      expect.arrayContaining(['streamEvents', 'channel', 'deliver', 'redisEventLog']),
    );
  });

  const taking = new Set(entryPointsTakingOptions());
  for (const [name, { typo, call }] of Object.entries(calls)) {
    // A row for an entry point that takes no options yet waits until it does.
    const run = taking.has(name) ? it : it.skip;
    run(`${name}({ ${typo} })`, () => {
      expect(call({})).toBeDefined();
      const error = thrownBy(() => call({ [typo]: 1 }));
      expect(error).toBeInstanceOf(LlmRxError);
      expect(error).toMatchObject({ code: 'invalid-options' });
      const message = (error as Error).message;
      expect(message).toMatch(
        /^[\w.("")]+: invalid options\n✖ Unknown option "\w+"; known options: /,
      );
      expect(message).toContain(`Unknown option "${typo}"`);
      // The message names the function the caller called, not one it calls inside.
      expect(message.split(': invalid options')[0].replace(/\(.*\)$/, '')).toBe(name);
      const known = message.split('known options: ')[1].split(', ');
      expect(known).not.toContain(typo);
      expect(known.length).toBeGreaterThan(0);
    });
  }

  it('toSseResponse and toUIMessageStreamResponse name themselves, and list status and headers', () => {
    expect(thrownBy(() => api.toSseResponse(EMPTY, { retry: 1 } as never))).toMatchObject({
      code: 'invalid-options',
      message:
        'toSseResponse: invalid options\n✖ Unknown option "retry"; known options: heartbeatMs, startAt, retryMs, scheduler, status, headers',
    });
    expect(
      thrownBy(() => api.toUIMessageStreamResponse(EMPTY, { heartbeat: 1 } as never)),
    ).toMatchObject({
      code: 'invalid-options',
      message:
        'toUIMessageStreamResponse: invalid options\n✖ Unknown option "heartbeat"; known options: messageId, reasoning, status, headers',
    });
  });

  it('streamEvents: the exact message', () => {
    expect(() => api.streamEvents(body(), { idleTimeout: 5 } as never)).toThrow(
      new LlmRxError(
        'invalid-options',
        'streamEvents: invalid options\n✖ Unknown option "idleTimeout"; known options: ' +
          'provider, idleTimeoutMs, deadlineMs, signal, maxBufferSize, scheduler',
      ),
    );
  });

  it('channel: the exact message, every misspelt key named', () => {
    const error = thrownBy(() => api.channel('slack', { minchars: 5, idlems: 3 } as never));
    expect((error as Error).message).toBe(
      'channel("slack"): invalid options\n✖ Unknown option "minchars", "idlems"; known options: ' +
        'minChars, maxChars, idleMs, mode, breakPreference, flushOnParagraph, reasoning, tags, ' +
        'silentTokens, windowMs, progress, live, liveIntervalMs, scheduler',
    );
  });

  it('a known key with a bad value still reads as before', () => {
    expect(() => api.ensureTerminal({ idleTimeoutMs: -1 })).toThrow(
      /^ensureTerminal: invalid options\n✖ .*\n {2}→ at idleTimeoutMs$/,
    );
  });

  it('no options, undefined options and an empty object are all fine', () => {
    expect(api.ensureTerminal()).toBeDefined();
    expect(api.ensureTerminal(undefined)).toBeDefined();
    expect(api.ensureTerminal({})).toBeDefined();
  });
});

describe('parseOptions, the one place the keys are checked', () => {
  const shape = { limit: z.optional(z.number()), name: z.optional(z.string()) };
  const unknown = 'f: invalid options\n✖ Unknown option "limt"; known options: limit, name';

  it('z.object and z.strictObject: the same message', () => {
    expect(() => parseOptions('f', z.object(shape), { limt: 1 })).toThrow(unknown);
    expect(() => parseOptions('f', z.strictObject(shape), { limt: 1 })).toThrow(unknown);
  });

  it('z.looseObject lets unknown keys pass', () => {
    expect(parseOptions('f', z.looseObject(shape), { limt: 1, limit: 2 })).toEqual({
      limt: 1,
      limit: 2,
    });
  });

  it('an object with checks (a refine) is still checked', () => {
    const checked = z.object(shape).check(z.refine(() => true));
    expect(() => parseOptions('f', checked, { limt: 1 })).toThrow(unknown);
  });
});
