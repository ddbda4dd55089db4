// The three gateway paths of the bench, as an app would write them. Each `run*` starts `n`
// conversations and resolves when every one has ended.

import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Observable, filter, lastValueFrom, tap } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { deliver } from '../../src/delivery/deliver';
import { createTelegramBot } from '../../src/platforms/telegram/telegramBot';
import type { StreamEvent } from '../../src/events';
import type { EventLog } from '../../src/relay/log/eventLog';
import { followLog } from '../../src/relay/log/followLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { toSseResponse } from '../../src/relay/sse/toSseStream';
import { streamEvents } from '../../src/streamEvents';

/** Where a run's provider streams are. */
export interface RunTarget {
  providerBase: string;
  run: number;
  n: number;
}

const providerStream = async ({ providerBase, run }: RunTarget, i: number) =>
  streamEvents(await fetch(`${providerBase}/s/${run}/${i}`), { provider: 'openai-chat' });

/**
 * The floor: what reading the provider streams costs with nothing decoded (fetch, and every
 * body chunk read and dropped). At model pace a delta is about one network read.
 */
export async function runReadFloor(target: RunTarget): Promise<string[]> {
  await Promise.all(
    Array.from({ length: target.n }, async (_, i) => {
      const response = await fetch(`${target.providerBase}/s/${target.run}/${i}`);
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) void chunk;
    }),
  );
  return [];
}

/**
 * llm-rx: streamEvents → channel('telegram', live?) → toMessageEdits(render) →
 * deliver(bot.transport(chat)), every reply on one createTelegramBot (one budget per chat, one
 * for the token). `live`: small blocks within 250 ms, joined with no separator; else the
 * preset's blocks of 800-4096 characters.
 */
export async function runLlmRxBot(
  target: RunTarget,
  botApiBase: string,
  token: string,
  live: boolean,
) {
  const failures: string[] = [];
  const bot = createTelegramBot({ token, apiBase: botApiBase });
  await Promise.all(
    Array.from({ length: target.n }, async (_, i) => {
      const events$ = await providerStream(target, i);
      const reports = events$.pipe(
        channel('telegram', live ? { live: true } : {}),
        toMessageEdits({
          maxMessageChars: 4096,
          render: 'telegram',
          ...(live ? { separator: '' } : {}),
        }),
        deliver(bot.transport(1000 + i)),
      );
      await lastValueFrom(
        reports.pipe(
          tap((report) => {
            if (report.type === 'delivery-failed') failures.push(`${i}: ${JSON.stringify(report)}`);
          }),
        ),
        { defaultValue: undefined },
      );
    }),
  );
  return failures;
}

/**
 * grammY's stream plugin: `streamApi(bot.api.raw).streamMessage(chat, draftId, textStream)`
 * (drafts while it streams, sendMessage at the end), with a 429 waited and retried as the
 * plugin's docs ask (the auto-retry plugin's rule, written here: it is not installed).
 */
export async function runGrammyStream(target: RunTarget, botApiBase: string, token: string) {
  const { Bot } = (await import('grammy')) as any;
  // Its floor is Node 22, so it is installed in node22/ (npm run install:node22), not the root.
  // Its entry file (its package.json `main`): a directory import does not resolve as ESM.
  const plugin = join(
    __dirname,
    '..',
    '..',
    'node22',
    'node_modules',
    '@grammyjs',
    'stream',
    'out',
    'mod.js',
  );
  giveWithResolvers();
  const { streamApi } = (await import(plugin)) as any;
  const bot = new Bot(token, { client: { apiRoot: botApiBase } });
  bot.api.config.use(async (prev: any, method: string, payload: unknown, signal: unknown) => {
    for (let attempt = 0; ; attempt++) {
      const result = await prev(method, payload, signal);
      if (result.ok || result.error_code !== 429 || attempt >= 20) return result;
      const seconds = result.parameters?.retry_after ?? 1;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  });
  const api = streamApi(bot.api.raw);
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: target.n }, async (_, i) => {
      try {
        await api.streamMessage(1000 + i, i + 1, textDeltas(await providerStream(target, i)));
      } catch (error) {
        failures.push(`${i}: ${String(error)}`);
      }
    }),
  );
  return failures;
}

/** The text deltas of a stream as the AsyncIterable<string> the Chat SDK streams. */
async function* textDeltas(events$: Observable<StreamEvent>): AsyncIterable<string> {
  const queue: string[] = [];
  let done = false;
  let wake: (() => void) | undefined;
  const subscription = events$.pipe(filter((event) => event.type === 'text-delta')).subscribe({
    next: (event) => {
      queue.push(event.delta);
      wake?.();
    },
    complete: () => {
      done = true;
      wake?.();
    },
  });
  try {
    while (true) {
      if (queue.length > 0) yield queue.splice(0, queue.length).join('');
      else if (done) return;
      else await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    subscription.unsubscribe();
  }
}

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child() {
    return quiet;
  },
};

/**
 * The Vercel Chat SDK: one TelegramAdapter for the bot (as an app has), `adapter.stream(thread,
 * text)` per reply: what `thread.post(textStream)` runs for Telegram (post a placeholder, edit
 * it as text comes, at most every 1.1 s in a private chat). Its text stream is the same
 * decoded provider stream (streamEvents' text deltas): the Chat SDK has no provider decoder
 * of its own (apps pass it the AI SDK's textStream).
 */
export async function runChatSdk(target: RunTarget, botApiBase: string, token: string) {
  const { TelegramAdapter } = (await import('@chat-adapter/telegram')) as any;
  const adapter = new TelegramAdapter({
    botToken: token,
    apiBaseUrl: botApiBase,
    mode: 'webhook',
    allowUnverifiedWebhooks: true,
    userName: 'bench',
    logger: quiet,
  });
  // Bot API 10.1 rich messages (sendRichMessage, editMessageText with rich_message): the fake
  // speaks the classic sendMessage / editMessageText, as llm-rx's transport does.
  adapter.richMessagesAvailable = false;
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: target.n }, async (_, i) => {
      try {
        await adapter.stream(`telegram:${1000 + i}`, textDeltas(await providerStream(target, i)));
      } catch (error) {
        failures.push(`${i}: ${String(error)}`);
      }
    }),
  );
  return failures;
}

/** The web path's HTTP side: GET /s/<run>/<i> follows stream i on the second node's log. */
export class WebNode {
  private server?: Server;
  private readonly recording = new Map<string, { started: Promise<void>; start: () => void }>();
  private readonly open = new Set<Promise<void>>();

  constructor(private readonly followerLog: EventLog) {}

  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      const id = (req.url ?? '').slice(1).replaceAll('/', '-');
      const served = (async () => {
        await this.recordingOf(id).started;
        // (The recorder claimed the id before its first event passed: the stream exists.)
        const body = toSseResponse(followLog(this.followerLog, id)).body!;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        await new Promise<void>((resolve, reject) =>
          Readable.fromWeb(body as any)
            .on('error', reject)
            .on('end', resolve)
            .pipe(res),
        );
      })();
      this.open.add(served);
      void served.finally(() => this.open.delete(served)).catch(() => undefined);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private recordingOf(id: string) {
    let entry = this.recording.get(id);
    if (!entry) {
      let start!: () => void;
      const started = new Promise<void>((resolve) => (start = resolve));
      entry = { started, start };
      this.recording.set(id, entry);
    }
    return entry;
  }

  /** The node that calls the model: streamEvents → recordTo(log) for each stream. */
  async run(target: RunTarget, recorderLog: EventLog): Promise<string[]> {
    const failures: string[] = [];
    const done = Array.from({ length: target.n }, (_, i) => {
      const id = `s-${target.run}-${i}`;
      const { start } = this.recordingOf(id);
      return (async () => {
        const events$ = await providerStream(target, i);
        let first = true;
        await lastValueFrom(
          events$.pipe(
            recordTo(recorderLog, id),
            tap((event) => {
              if (first) ((first = false), start());
              if (event.type === 'failed') failures.push(`${i}: ${event.error.code}`);
            }),
          ),
        );
      })();
    });
    await Promise.all(done);
    // Every response body has ended (the clients have read the terminal).
    while (this.open.size > 0) await Promise.all([...this.open]);
    return failures;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/**
 * The plugin calls `Promise.withResolvers` (Node 22); on Node 20 every reply failed with
 * "Promise.withResolvers is not a function". The bench, never src/, gives that peer one.
 */
function giveWithResolvers() {
  const promise = Promise as unknown as { withResolvers?: () => unknown };
  if (typeof promise.withResolvers === 'function') return;
  promise.withResolvers = () => {
    let resolve!: (value: unknown) => void;
    let reject!: (reason: unknown) => void;
    const made = new Promise((yes, no) => ((resolve = yes), (reject = no)));
    return { promise: made, resolve, reject };
  };
}
