import * as z from 'zod/mini';
import type { MessageEdit } from '../../channels/messageEditPlanner';
import { DeliveryError } from '../../delivery/errors';
import { createPartedMessages, messagePieces } from '../../delivery/messagePieces';
import { withStatusLine } from '../../delivery/statusLine';
import type { DeliveryTransport, TransportCall } from '../../delivery/types';
import type { StopControl } from '../../delivery/transportStop';
import { fetchOption, oneTokenSource, parseOptions } from '../../internal/options';
import { createGoogleChatApi } from './googleChatApi';
import { googleChatLimits } from './limits';

/** The characters one Google Chat message holds here (`platformLimits.googlechat`). */
export const GOOGLE_CHAT_MAX_MESSAGE_CHARS = googleChatLimits.maxMessageChars;

/** Options of {@link googleChatTransport}: a `token`, or `getToken` for one that expires. */
export interface GoogleChatTransportOptions {
  /** The space, as `spaces/AAAA…` (or just its id). */
  space: string;
  /** An OAuth access token with the `chat.bot` scope (the app's service account). Never printed. */
  token?: string;
  /** Called before each request for a fresh access token (e.g. google-auth-library's). */
  getToken?: () => string | PromiseLike<string>;
  /** The thread to answer in (`spaces/…/threads/…`); without it, each answer opens a thread. */
  thread?: string;
  /**
   * The least time between two writes (Google Chat: 60 writes a minute per space, shared by
   * every app in it). @defaultValue 1000
   */
  minIntervalMs?: number;
  /** The first wait after a 429 without `Retry-After`; doubles while 429s follow. @defaultValue 1000 */
  rateLimitBackoffMs?: number;
  /** @defaultValue `'https://chat.googleapis.com'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
}

const GoogleChatTransportOptions = z
  .object({
    space: z.string().check(z.minLength(1, 'the space is required')),
    token: z.optional(z.string().check(z.minLength(1))),
    getToken: z.optional(z.custom<() => string>((value) => typeof value === 'function')),
    thread: z.optional(z.string().check(z.minLength(1))),
    minIntervalMs: z._default(z.number().check(z.nonnegative()), 1000),
    rateLimitBackoffMs: z._default(z.number().check(z.positive()), 1000),
    apiBase: z._default(z.url(), 'https://chat.googleapis.com'),
    fetch: fetchOption,
  })
  .check(oneTokenSource);

/**
 * What {@link googleChatTransport} keeps for one message: the Chat messages showing it (one, or
 * several past 4096 characters) by resource name, and the text each shows. Plain JSON.
 */
export interface GoogleChatMessageRef {
  names: string[];
  texts: string[];
}

/** A transport with the message lifecycle: `finish` and the limit `toMessageEdits` should use. */
export type GoogleChatTransport = DeliveryTransport<GoogleChatMessageRef> &
  // No Stop button of its own: the bot's Stop calls stop(); stopSignal goes to the model's fetch.
  StopControl & {
    finish(
      ref: GoogleChatMessageRef,
      edit: MessageEdit,
      call: TransportCall,
    ): Promise<GoogleChatMessageRef>;
    readonly maxMessageChars: number;
    readonly minIntervalMs: number;
  };

const CreatedMessage = z.looseObject({ name: z.string().check(z.minLength(1)) });

/**
 * A {@link DeliveryTransport} for Google Chat: `spaces.messages.create`, then
 * `spaces.messages.patch` with `updateMask=text` as the answer grows.
 *
 * ```
 * edits:     send "A" ── edit "AB" ── edit "ABC" ── finish "ABC"
 * requests:  create      ·1 s· patch  ·1 s· patch   (nothing: same text)
 * ```
 *
 * - Paced at `minIntervalMs` (1 s: a space takes 60 writes a minute, shared by every app in
 *   it). A 429 waits its `Retry-After`, else 1 s, 2 s, 4 s … (Google asks for exponential
 *   backoff), without counting against `deliver`'s `maxAttempts`.
 * - Text in Google Chat's markup (`render: 'googlechat'`: `*bold*`, `_italic_`, `~strike~`,
 *   backticks, `<url|text>`); an edit without `rendered` is rendered here. A text over 4096
 *   characters continues in further messages (the API takes 32,000 bytes; never truncated).
 * - 400, 401, 403, 404 are permanent; 5xx and network failures are retried. The token never
 *   appears in an error. Google Chat's streaming messages (`spaces.streamMessages`, a Developer
 *   Preview) are not used.
 *
 * @example
 * ```ts
 * events$.pipe(
 *   channel('googlechat', { live: true }),
 *   toMessageEdits({ maxMessageChars: 4096, render: 'googlechat' }),
 *   deliver(googleChatTransport({ space: 'spaces/AAAA', getToken, thread })),
 * );
 * ```
 * @param options - {@link GoogleChatTransportOptions}
 */
export function googleChatTransport(options: GoogleChatTransportOptions): GoogleChatTransport {
  const settings = parseOptions('googleChatTransport', GoogleChatTransportOptions, options);
  const base = settings.apiBase.replace(/\/+$/, '');
  const space = settings.space.startsWith('spaces/') ? settings.space : `spaces/${settings.space}`;
  const fixedToken = settings.token;
  const call = createGoogleChatApi({
    getToken: settings.getToken ?? (() => fixedToken ?? ''),
    fetch: settings.fetch ?? globalThis.fetch,
    firstBackoffMs: settings.rateLimitBackoffMs,
    minIntervalMs: settings.minIntervalMs,
  });
  const createUrl =
    `${base}/v1/${space}/messages` +
    (settings.thread ? '?messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' : '');

  const create = async (text: string, context: TransportCall): Promise<string> => {
    const payload = settings.thread ? { text, thread: { name: settings.thread } } : { text };
    const created = CreatedMessage.safeParse(
      await call('POST', createUrl, payload, context.signal),
    );
    if (!created.success) {
      throw new DeliveryError('Google Chat spaces.messages.create: the answer has no name.', {
        permanent: true,
      });
    }
    return created.data.name;
  };

  /** Brings the Chat messages of `ref` to `pieces`: patches what changed, creates what is new. */
  const show = async (ref: GoogleChatMessageRef, pieces: string[], context: TransportCall) => {
    for (const [i, text] of pieces.entries()) {
      if (i >= ref.names.length) {
        ref.names.push(await create(text, context));
        ref.texts.push(text);
      } else if (ref.texts[i] !== text) {
        await call('PATCH', `${base}/v1/${ref.names[i]}?updateMask=text`, { text }, context.signal);
        ref.texts[i] = text;
      }
    }
    return ref;
  };

  const piecesOf = (edit: MessageEdit) =>
    messagePieces(edit, {
      format: 'googlechat',
      maxChars: GOOGLE_CHAT_MAX_MESSAGE_CHARS,
      transport: 'googleChatTransport',
    });

  return {
    ...createPartedMessages<GoogleChatMessageRef>({
      transport: 'googleChatTransport',
      empty: () => ({ names: [], texts: [] }),
      maxMessageChars: GOOGLE_CHAT_MAX_MESSAGE_CHARS,
      piecesOf,
      // Tool activity shows as a status line while the message grows; `finish` shows the text alone.
      preview: (edit) => withStatusLine(edit, GOOGLE_CHAT_MAX_MESSAGE_CHARS),
      show,
    }),
    minIntervalMs: settings.minIntervalMs,
  };
}
