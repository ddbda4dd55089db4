import type { TelegramEntity } from '../../src/render/types';
import { startFakeJsonServer, type FakeAnswer, type FakeServerOptions } from './fakeJsonServer';

/** One message as the fake Bot API holds it, with every text it showed, in order. */
export interface FakeTelegramMessage {
  id: number;
  text: string;
  entities?: TelegramEntity[];
  parseMode?: string;
  history: string[];
}

/** Settings of {@link startFakeBotApi}. */
export interface FakeBotApiOptions extends FakeServerOptions {
  token: string;
  /** Least time between two handled calls to one chat; closer ones get 429. @defaultValue 20 */
  minIntervalMs?: number;
  /** Forced answers, by request number (0-based): a 429 or a 500 before anything is done. */
  fault?: (request: number) => 'rate-limit' | 'server-error' | undefined;
  /** Chats that exist (others get 400 "chat not found"). @defaultValue any */
  knownChats?: string[];
  /** `retry_after` (seconds) for a forced 429. @defaultValue 0.01 */
  forcedRetryAfterSeconds?: number;
  /** Told, as the answer goes out, of every text a chat now shows (a sent or edited message). */
  onShown?: (chat: string, message: FakeTelegramMessage) => void;
}

const ENTITY_TYPES = new Set([
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'code',
  'pre',
  'text_link',
  'blockquote',
  'spoiler',
]);
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-spoiler',
  'span',
]);
const NOT_MODIFIED =
  'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

/**
 * A fake Telegram Bot API on 127.0.0.1 (`sendMessage`, `editMessageText`) that enforces what
 * the real one does: the token in the path (401), a per-chat minimum interval (429 with
 * `parameters.retry_after`), 4096 characters, valid entities or HTML (400 "can't parse
 * entities"), and 400 "message is not modified" for an identical edit.
 */
export async function startFakeBotApi(options: FakeBotApiOptions) {
  const { token, minIntervalMs = 20, fault, forcedRetryAfterSeconds = 0.01 } = options;
  const chats = new Map<string, FakeTelegramMessage[]>();
  const lastHandledAt = new Map<string, number>();
  const counts = { requests: 0, rateLimited: 0, notModified: 0, badEntities: 0 };

  const error = (status: number, description: string, retryAfter?: number): FakeAnswer => ({
    status,
    body: {
      ok: false,
      error_code: status,
      description,
      ...(retryAfter === undefined ? {} : { parameters: { retry_after: retryAfter } }),
    },
  });

  const handle = (path: string, body: any): FakeAnswer => {
    const n = counts.requests++;
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(path);
    if (!match || match[1] !== token) return error(401, 'Unauthorized');
    const method = match[2];
    if (method !== 'sendMessage' && method !== 'editMessageText') return error(404, 'Not Found');
    const forced = fault?.(n);
    if (forced === 'server-error') return error(500, 'Internal Server Error');
    const chat = String(body.chat_id ?? '');
    if (forced === 'rate-limit') {
      counts.rateLimited++;
      return error(429, 'Too Many Requests: retry later', forcedRetryAfterSeconds);
    }
    const now = performance.now();
    const waitMs = (lastHandledAt.get(chat) ?? -Infinity) + minIntervalMs - now;
    if (waitMs > 0) {
      counts.rateLimited++;
      return error(429, `Too Many Requests: retry after ${waitMs / 1000}`, waitMs / 1000);
    }
    lastHandledAt.set(chat, now);
    if (chat === '' || (options.knownChats && !options.knownChats.includes(chat))) {
      return error(400, 'Bad Request: chat not found');
    }
    if (typeof body.text !== 'string' || body.text === '') {
      return error(400, 'Bad Request: message text is empty');
    }
    const problem =
      body.parse_mode === 'HTML'
        ? htmlProblem(body.text)
        : entitiesProblem(body.text, body.entities);
    if (problem) {
      counts.badEntities++;
      return error(400, `Bad Request: can't parse entities: ${problem}`);
    }
    if (visibleLength(body) > 4096) return error(400, 'Bad Request: message is too long');
    const messages = chats.get(chat) ?? [];
    chats.set(chat, messages);
    const content = { text: body.text, entities: body.entities, parseMode: body.parse_mode };
    // The result is a Message, as the Bot API answers (clients read `chat` and `date` from it).
    const result = (id: number) => ({
      message_id: id,
      date: Math.floor(Date.now() / 1000),
      chat: { id: Number(chat) || chat, type: 'private' },
      text: body.text,
      ...(body.entities ? { entities: body.entities } : {}),
    });
    if (method === 'sendMessage') {
      const message = { id: messages.length + 1, ...content, history: [body.text] };
      messages.push(message);
      options.onShown?.(chat, message);
      return { status: 200, body: { ok: true, result: result(message.id) } };
    }
    const message = messages.find((m) => m.id === body.message_id);
    if (!message) return error(400, 'Bad Request: message to edit not found');
    if (
      JSON.stringify([message.text, message.entities, message.parseMode]) ===
      JSON.stringify([content.text, content.entities, content.parseMode])
    ) {
      counts.notModified++;
      return error(400, NOT_MODIFIED);
    }
    Object.assign(message, content);
    message.history.push(body.text);
    options.onShown?.(chat, message);
    return { status: 200, body: { ok: true, result: result(message.id) } };
  };

  const server = await startFakeJsonServer(({ path, body }) => handle(path, body), options);
  return {
    apiBase: server.base,
    /** Messages per chat id (as a string), in the order they were sent. */
    chats,
    counts,
    close: server.close,
  };
}

/** What a fake Bot API started by {@link startFakeBotApi} offers a spec. */
export type FakeBotApi = Awaited<ReturnType<typeof startFakeBotApi>>;

function entitiesProblem(text: string, entities: unknown): string | undefined {
  if (entities === undefined) return undefined;
  if (!Array.isArray(entities)) return 'entities must be an array';
  for (const [i, entity] of entities.entries()) {
    const { type, offset, length, url, language } = entity ?? {};
    if (!ENTITY_TYPES.has(type)) return `entity ${i} has an unsupported type`;
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 1) {
      return `entity ${i} has a bad offset or length`;
    }
    if (offset + length > text.length) return `entity ${i} ends after the end of the text`;
    if (type === 'text_link' && typeof url !== 'string') return `entity ${i} has no url`;
    if (language !== undefined && typeof language !== 'string') return `entity ${i} language`;
  }
  return undefined;
}

function htmlProblem(html: string): string | undefined {
  const open: string[] = [];
  const tokens = html.match(/<[^>]*>?|&[^;\s<&]*;?/g) ?? [];
  for (const token of tokens) {
    if (token.startsWith('&')) {
      if (!/^&(amp|lt|gt|quot|#\d+|#x[0-9a-f]+);$/i.test(token)) return `bad entity ${token}`;
      continue;
    }
    const tag = /^<(\/?)([a-z-]+)(\s[^>]*)?>$/i.exec(token);
    if (!tag || !HTML_TAGS.has(tag[2].toLowerCase())) return `unsupported tag ${token}`;
    const name = tag[2].toLowerCase();
    if (tag[1] === '') open.push(name);
    else if (open.pop() !== name) return `can't find end tag corresponding to start tag ${name}`;
  }
  return open.length > 0 ? `can't find end tag for ${open[open.length - 1]}` : undefined;
}

function visibleLength(body: { text: string; parse_mode?: string }): number {
  if (body.parse_mode !== 'HTML') return body.text.length;
  return body.text.replace(/<[^>]*>/g, '').replace(/&[^;]+;/g, '_').length;
}
