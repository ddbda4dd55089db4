import * as z from 'zod/mini';
import type { MessageEdit } from '../channels/messageEditPlanner';
import { parseOptions } from '../internal/options';
import { DeliveryError } from './deliveryError';
import { postJson, scrub, type HttpAnswer } from './httpCall';
import type { DeliveryTransport, TransportCall } from './types';

/** Options of {@link telegramTransport}. */
export interface TelegramTransportOptions {
  /** The bot token from @BotFather. Never printed: messages show `***` in its place. */
  token: string;
  /** The chat to post in. */
  chatId: number | string;
  /**
   * How `edit.rendered` is sent: `telegram` as `entities`, `telegram-html` as
   * `parse_mode: 'HTML'`. An edit without `rendered` goes out as plain text.
   * @defaultValue `'telegram'`
   */
  format?: 'telegram' | 'telegram-html';
  /** @defaultValue `'https://api.telegram.org'` */
  apiBase?: string;
  /** @defaultValue the global `fetch` */
  fetch?: typeof fetch;
  /** The least time between two calls to this chat (`deliver`'s default). @defaultValue 1000 */
  minIntervalMs?: number;
}

const TelegramTransportOptions = z.object({
  token: z.string().check(z.minLength(1, 'the bot token is required')),
  chatId: z.union([z.int(), z.string().check(z.minLength(1))]),
  format: z._default(z.enum(['telegram', 'telegram-html']), 'telegram'),
  apiBase: z._default(z.url(), 'https://api.telegram.org'),
  fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
  minIntervalMs: z._default(z.number().check(z.nonnegative()), 1000),
});

/** Telegram's `ResponseParameters`: what we read from a failed answer. */
const TelegramAnswer = z.looseObject({
  ok: z.boolean(),
  description: z.optional(z.string()),
  result: z.optional(z.union([z.looseObject({ message_id: z.number() }), z.unknown()])),
  parameters: z.optional(z.looseObject({ retry_after: z.optional(z.number()) })),
});

/**
 * A {@link DeliveryTransport} for the Telegram Bot API: `sendMessage` / `editMessageText` in one
 * chat. The message reference is Telegram's `message_id`.
 *
 * - `edit.rendered` (from `toMessageEdits({ render: 'telegram' })`) goes out as its text plus
 *   `entities`, or with `parse_mode: 'HTML'` for `telegram-html`; without it, plain `text`.
 * - 429 → `retryAfterMs` from `parameters.retry_after`; 400 "message is not modified" →
 *   `notModified`; a formatting Telegram cannot parse → the call is retried at once as plain
 *   text, and that message stays plain (each report carries a `plain-text-fallback` warning).
 * - Other 400s, 401, 403, 404 are permanent; 5xx and network failures are retried.
 *
 * @example
 * ```ts
 * edits$.pipe(deliver(telegramTransport({ token: process.env.BOT_TOKEN!, chatId })));
 * ```
 * @param options - {@link TelegramTransportOptions}
 */
export function telegramTransport(options: TelegramTransportOptions): DeliveryTransport<number> {
  const { token, chatId, format, apiBase, minIntervalMs, ...rest } = parseOptions(
    'telegramTransport',
    TelegramTransportOptions,
    options,
  );
  const fetchFn = rest.fetch ?? globalThis.fetch;
  const base = apiBase.replace(/\/+$/, '');
  // Messages whose formatting Telegram rejected: they stay plain text.
  const plainMessages = new Set<number>();

  const call = async (
    method: 'sendMessage' | 'editMessageText',
    edit: MessageEdit,
    fields: Record<string, unknown>,
    context: TransportCall,
  ): Promise<unknown> => {
    // A first send attempt starts a message afresh (a transport may serve several replies,
    // each numbering its messages from 0); the plain-text retry of a send is attempt 2 or more.
    if (method === 'sendMessage' && context.attempt === 1) plainMessages.delete(edit.message);
    const plain = plainMessages.has(edit.message);
    const content = plain ? plainContent(edit) : formattedContent(edit, format);
    if (plain && edit.rendered) {
      context.warn(
        'plain-text-fallback',
        'Telegram rejected this formatting once; sent as plain text.',
      );
    }
    const label = `Telegram ${method}`;
    const answer = await postJson(
      `${base}/bot${token}/${method}`,
      { chat_id: chatId, ...fields, ...content },
      { fetch: fetchFn, signal: context.signal, secret: token, label },
    );
    return readAnswer(answer, label, token, () => {
      if (plain || !content.formatted) return false;
      plainMessages.add(edit.message);
      return true;
    });
  };

  return {
    minIntervalMs,
    async send(edit, context) {
      const result = await call('sendMessage', edit, {}, context);
      const messageId = (result as { message_id?: unknown } | undefined)?.message_id;
      if (typeof messageId !== 'number') {
        throw new DeliveryError('Telegram sendMessage: the answer has no message_id.', {
          permanent: true,
        });
      }
      return messageId;
    },
    async edit(messageId, edit, context) {
      await call('editMessageText', edit, { message_id: messageId }, context);
    },
  };
}

interface Content {
  text: string;
  entities?: unknown[];
  parse_mode?: 'HTML';
  /** Whether Telegram has formatting to parse (not sent). */
  formatted?: boolean;
}

function formattedContent(edit: MessageEdit, format: 'telegram' | 'telegram-html'): Content {
  const rendered = edit.rendered;
  if (!rendered) return { text: edit.text };
  const isHtml = rendered.parseMode === 'HTML';
  if (isHtml !== (format === 'telegram-html')) {
    throw new DeliveryError(
      `telegramTransport: message ${edit.message} was rendered for ${isHtml ? 'telegram-html' : 'telegram'} but the transport's format is ${format}; use the same format in toMessageEdits({ render }) and telegramTransport({ format }).`,
      { permanent: true },
    );
  }
  if (isHtml) return { text: rendered.text, parse_mode: 'HTML', formatted: true };
  const entities = rendered.entities ?? [];
  return entities.length > 0
    ? { text: rendered.text, entities, formatted: true }
    : { text: rendered.text };
}

function plainContent(edit: MessageEdit): Content {
  return { text: edit.rendered ? edit.rendered.plain : edit.text };
}

/**
 * The `result` of a successful answer, or a DeliveryError saying what to do. `fallBack()` is
 * asked on a formatting error: true when the next call of that message will be plain text.
 */
function readAnswer(
  answer: HttpAnswer,
  label: string,
  token: string,
  fallBack: () => boolean,
): unknown {
  const parsed = TelegramAnswer.safeParse(answer.body);
  const { status } = answer;
  if (parsed.success && parsed.data.ok && status < 300) return parsed.data.result;
  const description = scrub(parsed.success ? (parsed.data.description ?? '') : '', token);
  const what = `${label}: ${status} ${description || 'an answer that is not the Bot API'}`;
  if (status === 429) {
    const seconds = parsed.success ? parsed.data.parameters?.retry_after : undefined;
    return fail(what, { status, retryAfterMs: seconds === undefined ? undefined : seconds * 1000 });
  }
  if (status === 400 && /message is not modified/i.test(description)) {
    return fail(what, { status, notModified: true });
  }
  if (status === 400 && /can't parse entities|entit(y|ies)|can't find end/i.test(description)) {
    if (fallBack()) return fail(`${what}; retrying as plain text`, { status, retryAfterMs: 0 });
  }
  return fail(what, { status, permanent: status < 500 && status !== 408 });
}

function fail(message: string, context: ConstructorParameters<typeof DeliveryError>[1]): never {
  throw new DeliveryError(message, context);
}
