import type { TelegramEntity } from '../../../src/render/types';
import { startFakeJsonServer, type FakeAnswer, type FakeServerOptions } from '../fakeJsonServer';
import { createDraftStops, STOPPED_DRAFT } from './fakeBotApiStop';
import { formattingProblem, MAX_TEXT, readRichMessage, visibleLength } from './fakeBotApiRules';

/** One message as the fake Bot API holds it, with every text it showed, in order. */
export interface FakeTelegramMessage {
  id: number;
  /** The text, or a rich message's markdown. */
  text: string;
  entities?: TelegramEntity[];
  parseMode?: string;
  /** Sent with sendRichMessage (or edited into a rich message). */
  rich?: true;
  threadId?: number;
  history: string[];
}

/** The draft a private chat shows (at most one per chat), with every text it showed. */
export interface FakeTelegramDraft {
  draftId: number;
  text: string;
  rich: boolean;
  threadId?: number;
  /** Sent with `can_stop: true`: the user sees a Stop button (`stopGeneration`). */
  canStop: boolean;
  /** performance.now() of its last write, and when it vanishes without another one. */
  writtenAt: number;
  expiresAt: number;
  history: string[];
}

/** One request as the fake answered it. */
export interface FakeBotCall {
  method: string;
  chat: string;
  status: number;
  description?: string;
}

/** Settings of {@link startFakeBotApi}. */
export interface FakeBotApiOptions extends FakeServerOptions {
  token: string;
  /** Least time between two handled calls to one chat; closer ones get 429. @defaultValue 20 */
  minIntervalMs?: number;
  /**
   * A group, supergroup or channel (a chat id that is not a positive number) takes at most this
   * many calls per `groupWindowMs`, counted when handled; more get 429. @defaultValue no limit
   */
  groupMaxCalls?: number;
  /** @defaultValue 60000 (Telegram: 20 messages a minute per group) */
  groupWindowMs?: number;
  /** The token takes at most this many calls per `tokenWindowMs`, all chats together. @defaultValue no limit */
  tokenMaxCalls?: number;
  /** @defaultValue 1000 (Telegram: about 30 messages a second per bot) */
  tokenWindowMs?: number;
  /** Forced answers, by request number (0-based) and method: a 429 or a 500 before anything is done. */
  fault?: (
    request: number,
    method: string,
    chat: string,
  ) => 'rate-limit' | 'server-error' | undefined;
  /** Chats that exist (others get 400 "chat not found"). @defaultValue any */
  knownChats?: string[];
  /** Chats whose user blocked the bot (403). @defaultValue none */
  blockedChats?: string[];
  /** Chats with forum topics, where `message_thread_id` is valid. @defaultValue any */
  forumChats?: string[];
  /** `retry_after` (seconds) for a forced 429. @defaultValue 0.01 */
  forcedRetryAfterSeconds?: number;
  /** How long a draft shows without a new write (Telegram: about 30 s). @defaultValue 30000 */
  draftExpiryMs?: number;
  /** false: a Bot API server without drafts (sendMessageDraft* answer 404). @defaultValue true */
  drafts?: boolean;
  /** false: a Bot API server older than 10.1 (sendRichMessage* answer 404). @defaultValue true */
  richMessages?: boolean;
  /**
   * Told, as the answer goes out, of every text a chat now shows: a sent or edited message, or
   * a draft (as the message it will become: the id after the chat's last message).
   */
  onShown?: (chat: string, message: Pick<FakeTelegramMessage, 'id' | 'text'>) => void;
}

const NOT_MODIFIED =
  'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
const DRAFT_METHODS = new Set(['sendMessageDraft', 'sendRichMessageDraft']);
const METHODS = new Set(['sendMessage', 'editMessageText', 'sendRichMessage', ...DRAFT_METHODS]);

/**
 * A fake Telegram Bot API on 127.0.0.1 that enforces what the real one does, with its exact
 * error bodies (`{ ok: false, error_code, description, parameters? }`). Each rule and its source:
 *
 * - The token in the path, else 401 "Unauthorized" (core.telegram.org/bots/api#making-requests).
 * - Optional windows (`groupMaxCalls` per group, `tokenMaxCalls` per token), else the same 429
 *   (bots FAQ: "no more than 20 messages per minute" in a group, "about 30 messages per
 *   second" per bot). Retry-after is the time until the window's oldest call leaves it.
 * - A per-chat minimum interval, else 429 "Too Many Requests: retry after N" with
 *   `parameters.retry_after` (bots/faq: about one message per second per chat;
 *   ResponseParameters.retry_after). Scaled: `retry_after` here may be a fraction of a second.
 * - `sendMessage` / `editMessageText` / `sendMessageDraft`: 1-4096 characters after entity
 *   parsing ("message is too long"), valid entities or HTML ("can't parse entities"), an
 *   identical edit is "message is not modified".
 * - `sendMessageDraft` / `sendRichMessageDraft` ("Unique identifier for the target private
 *   chat"; "the streamed draft is ephemeral and acts as a temporary 30-second preview — once the
 *   output is finalized, you must call sendMessage with the complete message to persist it"):
 *   a chat that is not private → 400 "Bad Request: TEXTDRAFT_PEER_INVALID" (what Telegram's
 *   servers answer for groups and supergroups); `draft_id` missing or 0 →
 *   "Bad Request: RANDOM_ID_INVALID"; one draft per chat (another `draft_id` replaces it); it
 *   vanishes `draftExpiryMs` after its last write (recorded in `expiredDrafts`), and any
 *   message the bot sends to the chat removes it. `can_stop: true` shows a Stop button:
 *   `stopGeneration(chat)` presses it (the draft vanishes, the `stopped_message_generation`
 *   update is returned) and later writes of that draft get 400 (fakeBotApiStop.ts).
 * - `sendRichMessage` and `editMessageText` with `rich_message` (Bot API 10.1): see
 *   fakeBotApiRules.ts (32,768 characters, 20 table columns, 16 levels, 500 blocks).
 * - 403 "Forbidden: bot was blocked by the user"; 400 "chat not found"; `message_thread_id`
 *   outside a forum chat → 400 "Bad Request: message thread not found".
 *
 * A chat's type follows Telegram's ids: a positive id is a user's private chat, a negative one
 * a group, supergroup or channel, an `@name` a channel or supergroup.
 */
export async function startFakeBotApi(options: FakeBotApiOptions) {
  const { token, minIntervalMs = 20, fault, forcedRetryAfterSeconds = 0.01 } = options;
  const { draftExpiryMs = 30_000 } = options;
  const chats = new Map<string, FakeTelegramMessage[]>();
  const drafts = new Map<string, FakeTelegramDraft>();
  const expiredDrafts: Array<FakeTelegramDraft & { chat: string }> = [];
  const calls: FakeBotCall[] = [];
  const callTimes: number[] = [];
  const lastHandledAt = new Map<string, number>();
  const stops = createDraftStops();
  const handledTimes = new Map<string, number[]>();
  const counts = { requests: 0, rateLimited: 0, notModified: 0, badEntities: 0, badRich: 0 };

  const error = (status: number, description: string, retryAfter?: number): FakeAnswer => ({
    status,
    body: {
      ok: false,
      error_code: status,
      description,
      ...(retryAfter === undefined ? {} : { parameters: { retry_after: retryAfter } }),
    },
  });
  const ok = (result: unknown): FakeAnswer => ({ status: 200, body: { ok: true, result } });
  /** A sent or edited message as the Bot API answers it: a Message (clients read `chat`, `date`). */
  const sentMessage = (chat: string, message: FakeTelegramMessage): FakeAnswer => {
    options.onShown?.(chat, message);
    return ok({
      message_id: message.id,
      date: Math.floor(Date.now() / 1000),
      chat: { id: Number(chat) || chat, type: /^[1-9]\d*$/.test(chat) ? 'private' : 'supergroup' },
      text: message.text,
      ...(message.entities ? { entities: message.entities } : {}),
    });
  };

  /** Drops the chat's draft once it has shown longer than the expiry without a write. */
  const expire = (chat: string, now: number) => {
    const draft = drafts.get(chat);
    if (draft && now > draft.expiresAt) {
      expiredDrafts.push({ ...draft, chat });
      drafts.delete(chat);
    }
  };

  const handle = (method: string, body: any, now: number): FakeAnswer => {
    const chat = String(body.chat_id ?? '');
    if (chat === '' || (options.knownChats && !options.knownChats.includes(chat))) {
      return error(400, 'Bad Request: chat not found');
    }
    if (options.blockedChats?.includes(chat)) {
      return error(403, 'Forbidden: bot was blocked by the user');
    }
    const threadId = body.message_thread_id;
    if (threadId !== undefined && options.forumChats && !options.forumChats.includes(chat)) {
      return error(400, 'Bad Request: message thread not found');
    }
    expire(chat, now);
    const isRich = method === 'sendRichMessage' || method === 'sendRichMessageDraft';
    let content: Omit<FakeTelegramMessage, 'id' | 'history'>;
    if (isRich || (method === 'editMessageText' && body.rich_message !== undefined)) {
      const read = readRichMessage(body.rich_message);
      if ('problem' in read) {
        counts.badRich++;
        return error(400, read.problem);
      }
      content = { text: read.markdown, rich: true };
    } else {
      if (typeof body.text !== 'string' || (body.text === '' && !DRAFT_METHODS.has(method))) {
        return error(400, 'Bad Request: message text is empty');
      }
      const problem = formattingProblem(body);
      if (problem) {
        counts.badEntities++;
        return error(400, problem);
      }
      if (visibleLength(body) > MAX_TEXT) return error(400, 'Bad Request: message is too long');
      content = { text: body.text, entities: body.entities, parseMode: body.parse_mode };
    }
    if (DRAFT_METHODS.has(method)) {
      if (!/^[1-9]\d*$/.test(chat)) return error(400, 'Bad Request: TEXTDRAFT_PEER_INVALID');
      if (!Number.isInteger(body.draft_id) || body.draft_id === 0) {
        return error(400, 'Bad Request: RANDOM_ID_INVALID');
      }
      if (stops.refuses(chat, body.draft_id)) return error(400, STOPPED_DRAFT);
      const shown = drafts.get(chat);
      const draft: FakeTelegramDraft =
        shown && shown.draftId === body.draft_id
          ? shown
          : {
              draftId: body.draft_id,
              text: '',
              rich: isRich,
              threadId,
              canStop: false,
              writtenAt: 0,
              expiresAt: 0,
              history: [],
            };
      Object.assign(draft, { text: content.text, rich: isRich, writtenAt: now });
      draft.canStop = body.can_stop === true;
      draft.expiresAt = now + draftExpiryMs;
      draft.history.push(content.text);
      drafts.set(chat, draft);
      options.onShown?.(chat, { id: (chats.get(chat)?.length ?? 0) + 1, text: draft.text });
      return ok(true);
    }
    const messages = chats.get(chat) ?? [];
    chats.set(chat, messages);
    if (method !== 'editMessageText') {
      drafts.delete(chat);
      const message = { id: messages.length + 1, ...content, threadId, history: [content.text] };
      messages.push(message);
      return sentMessage(chat, message);
    }
    const message = messages.find((m) => m.id === body.message_id);
    if (!message) return error(400, 'Bad Request: message to edit not found');
    const same = (m: Partial<FakeTelegramMessage>) =>
      JSON.stringify([m.text, m.entities, m.parseMode, m.rich]);
    if (same(message) === same(content)) {
      counts.notModified++;
      return error(400, NOT_MODIFIED);
    }
    Object.assign(message, { entities: undefined, parseMode: undefined, rich: undefined }, content);
    message.history.push(content.text);
    return sentMessage(chat, message);
  };

  const route = (path: string, body: any): FakeAnswer => {
    const n = counts.requests++;
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(path);
    if (!match || match[1] !== token) return error(401, 'Unauthorized');
    const method = match[2];
    const known =
      METHODS.has(method) &&
      !(options.richMessages === false && /Rich/.test(method)) &&
      !(options.drafts === false && DRAFT_METHODS.has(method));
    if (!known) return error(404, 'Not Found');
    const chat = String(body.chat_id ?? '');
    const forced = fault?.(n, method, chat);
    if (forced === 'server-error') return error(500, 'Internal Server Error');
    if (forced === 'rate-limit') {
      counts.rateLimited++;
      return error(
        429,
        `Too Many Requests: retry after ${forcedRetryAfterSeconds}`,
        forcedRetryAfterSeconds,
      );
    }
    const now = performance.now();
    const waitMs = (lastHandledAt.get(chat) ?? -Infinity) + minIntervalMs - now;
    if (waitMs > 0) {
      counts.rateLimited++;
      return error(429, `Too Many Requests: retry after ${waitMs / 1000}`, waitMs / 1000);
    }
    // Sliding windows of handled calls: per group, and per token across every chat.
    const isGroup = !/^[1-9]\d*$/.test(chat);
    const windows = [
      { key: '', max: options.tokenMaxCalls, ms: options.tokenWindowMs ?? 1000 },
      {
        key: chat,
        max: isGroup ? options.groupMaxCalls : undefined,
        ms: options.groupWindowMs ?? 60_000,
      },
    ];
    for (const { key, max, ms } of windows) {
      if (max === undefined) continue;
      const times = (handledTimes.get(key) ?? []).filter((at) => at > now - ms);
      handledTimes.set(key, times);
      if (times.length >= max) {
        counts.rateLimited++;
        const seconds = (times[0] + ms - now) / 1000;
        return error(429, `Too Many Requests: retry after ${seconds}`, seconds);
      }
    }
    for (const { key, max } of windows) if (max !== undefined) handledTimes.get(key)!.push(now);
    lastHandledAt.set(chat, now);
    return handle(method, body, now);
  };

  const server = await startFakeJsonServer(({ path, body }) => {
    const answer = route(path, body);
    const reply = answer.body as { description?: string };
    callTimes.push(performance.now());
    calls.push({
      method: /\/(\w+)$/.exec(path)?.[1] ?? path,
      chat: String(body?.chat_id ?? ''),
      status: answer.status,
      ...(reply.description ? { description: reply.description } : {}),
    });
    return answer;
  }, options);
  return {
    apiBase: server.base,
    /** Messages per chat id (as a string), in the order they were sent. */
    chats,
    /** The draft each chat shows now (undefined once expired or replaced by a message). */
    draftOf(chat: string): FakeTelegramDraft | undefined {
      expire(chat, performance.now());
      return drafts.get(chat);
    },
    /** The user presses Stop on the chat's draft: it vanishes; returns Telegram's update. */
    stopGeneration(chat: string) {
      const draft = drafts.get(chat);
      const update = stops.press(chat, draft);
      drafts.delete(chat);
      return update;
    },
    /** Drafts that vanished because nothing wrote them for `draftExpiryMs`. */
    expiredDrafts,
    /** Every request, in order, with its answer's status. */
    calls,
    /** performance.now() of each request in `calls`, when it was answered. */
    callTimes,
    counts,
    close: server.close,
  };
}

/** What a fake Bot API started by {@link startFakeBotApi} offers a spec. */
export type FakeBotApi = Awaited<ReturnType<typeof startFakeBotApi>>;
