import type { OperatorFunction } from 'rxjs';
import * as z from 'zod/mini';
import type { StreamEvent } from '../events';
import { createOperator } from '../internal/createOperator';
import { parseOptions } from '../internal/options';
import { MIN_RENDER_LENGTH, renderFormats } from '../render/renderMarkdown';
import type { RenderFormat } from '../render/types';
import { createMessageEditPlanner, type MessageEdit, type ToolStatus } from './messageEditPlanner';

/** Options of {@link toMessageEdits}. */
export interface ToMessageEditsOptions {
  /** The platform's limit for one message, e.g. `channelPresets.telegram.maxMessageChars`. */
  maxMessageChars: number;
  /** Put between two blocks in one message. @defaultValue `'\n\n'` */
  separator?: string;
  /**
   * Render each message for this chat app (`renderMarkdown`): every edit then
   * carries `rendered`, and `maxMessageChars` counts the rendered length as the app does.
   */
  render?: RenderFormat;
}

const ToMessageEditsOptions = z
  .object({
    maxMessageChars: z.int().check(z.positive()),
    separator: z._default(z.string(), '\n\n'),
    render: z.optional(z.enum(renderFormats as [RenderFormat, ...RenderFormat[]])),
  })
  .check(
    z.refine((options) => options.separator.length < options.maxMessageChars, {
      message: 'separator must be shorter than maxMessageChars',
      path: ['separator'],
    }),
    z.refine((options) => !options.render || options.maxMessageChars >= MIN_RENDER_LENGTH, {
      message: `with render, maxMessageChars must be at least ${MIN_RENDER_LENGTH}`,
      path: ['maxMessageChars'],
    }),
  );

/**
 * Turns a channel's blocks into send-then-edit steps for bots that grow one message in place
 * (Telegram `editMessageText`, Slack `chat.update`, Discord message edits).
 *
 * ```
 * source:   -a----b----c------(t|)        a, b, c = blocks; t = completed
 * result:   -s----e----s------|           s = send a new message, e = edit it (whole text)
 *           (maxMessageChars fits a+b, not a+b+c)
 * ```
 *
 * - `text` is the whole message so far; each message's edit texts only grow.
 * - A new message starts when the next block (plus `separator`) would pass `maxMessageChars`.
 * - A block is split across messages only when it alone is longer than `maxMessageChars`: at
 *   the last whitespace within the limit, else hard at the limit (never inside a surrogate pair).
 * - `progress` events (`channel(name, { progress: true })`) repeat the current message's last
 *   edit with `progress`: every tool of the answer and its status; later edits carry it too.
 *   Before any text they open message 0 with an empty `text`. The transports show it their
 *   own way and never in the final text.
 * - Only `block` and `progress` events count. Everything else (text deltas, reasoning, tool events, `silent`,
 *   the terminal) is dropped: this is the sink-side mapping, its output is the edit, not an
 *   event. Subscribe to the events themselves (`share()`) for the terminal or a typing
 *   indicator. A `silent` reply has no blocks, so it yields no edit at all.
 * - With `render` (any `renderMarkdown` format, `telegram-rich` included), each edit also
 *   carries `rendered` (its text as `renderMarkdown` renders it), and a block fits when the
 *   rendered message stays within `maxMessageChars`; a block too long for one message is sent
 *   in the pieces `renderMarkdown` cuts (each `text` then that piece's visible text).
 * - Completes when the source completes; errors pass on.
 *
 * @example
 * Send the edits with `deliver`: one call at a time, at the app's pace, the final text always.
 * ```ts
 * streamEvents(response).pipe(
 *   channel('telegram'),
 *   toMessageEdits({ maxMessageChars: 4096, render: 'telegram' }),
 *   deliver(telegramTransport({ token, chatId, format: 'telegram' })),
 * );
 * ```
 *
 * With your own client, one edit at a time (`concatMap`: an edit waits for its send; an
 * `async` subscribe callback would not):
 * ```ts
 * channel$.pipe(
 *   toMessageEdits({ maxMessageChars: 4096 }),
 *   concatMap(async ({ op, message, text }) => {
 *     if (op === 'send') ids[message] = (await bot.sendMessage(chatId, text)).message_id;
 *     else await bot.editMessageText(text, { chat_id: chatId, message_id: ids[message] });
 *   }),
 * );
 * ```
 * @param options - {@link ToMessageEditsOptions}
 */
export function toMessageEdits(
  options: ToMessageEditsOptions,
): OperatorFunction<StreamEvent, MessageEdit> {
  const settings = parseOptions('toMessageEdits', ToMessageEditsOptions, options);
  return createOperator<StreamEvent, MessageEdit>(({ subscriber }) => {
    const planner = createMessageEditPlanner(settings);
    const tools = new Map<string, ToolStatus>();
    let last: MessageEdit | undefined;
    const withTools = (edit: MessageEdit): MessageEdit =>
      tools.size === 0 ? edit : { ...edit, progress: [...tools.values()] };
    return {
      next(event) {
        if (event.type === 'progress') {
          const { type: _type, ...status } = event;
          tools.set(event.id, status);
          // Before any text, the tool activity opens the first message (its text still empty);
          // the planner's first send then reaches the same message.
          subscriber.next(
            withTools(last ? { ...last, op: 'edit' } : { op: 'send', message: 0, text: '' }),
          );
          return;
        }
        if (event.type !== 'block') return;
        for (const edit of planner.push(event.text)) subscriber.next(withTools((last = edit)));
      },
    };
  });
}

export type { MessageEdit } from './messageEditPlanner';
