import type { OperatorFunction } from 'rxjs';
import * as z from 'zod/mini';
import { blockOriginOf } from '../chunking/blockOrigin';
import type { StreamEvent, TerminalEvent } from '../events';
import { failedEvent, failedFromError, isTerminal } from '../terminalEvents';
import { createOperator } from '../internal/createOperator';
import { parseOptions } from '../internal/options';
import { statusLineOf } from '../delivery/statusLine';
import { MIN_RENDER_LENGTH, renderFormats, renderMessages } from '../render/renderMarkdown';
import type { RenderFormat } from '../render/types';
import {
  createMessageEditPlanner,
  type MessageEdit,
  type MessageStep,
  type ToolStatus,
} from './messageEditPlanner';

/** Options of {@link toMessageEdits}. */
export interface ToMessageEditsOptions {
  /** The platform's limit for one message, e.g. `channelPresets.telegram.maxMessageChars`. */
  maxMessageChars: number;
  /**
   * Put between two blocks in one message when the model's text between them is not known
   * (a new text part, blocks made by hand): blocks of one text part are joined as the model
   * wrote them. @defaultValue `'\n\n'`
   */
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
 * (Telegram `editMessageText`, Slack `chat.update`, Discord message edits), and ends them with
 * the answer's outcome: one `{ op: 'end', terminal }`.
 *
 * ```
 * source:   -a----b----c------(t|)        a, b, c = blocks; t = completed
 * result:   -s----e---(ts)----(z|)        s = send a new message, e = edit it (whole text)
 *           (a+b+c passes maxMessageChars)     t = trim message 0 back to its best break
 *                                               z = { op: 'end', terminal: t }
 * ```
 *
 * - `text` is the whole message so far; each message's edit texts only grow, but for the one
 *   edit that trims it back to its cut as the next message starts.
 * - Within one message the text is the model's: blocks of one text part are joined as the
 *   model wrote them (an idle flush mid-word joins back to the word, no separator; a fence the
 *   chunker closed and reopened between two blocks is one fence again). Only where a message
 *   boundary cuts a fence is it closed at the end of one message and reopened in the next.
 *   Blocks whose model text is not known (a new text part, blocks made by hand or copied)
 *   follow `separator`.
 * - Where a message ends depends on the text alone, never on when its blocks came (an idle
 *   flush, a pause, live mode's small blocks give the same messages): when the message would
 *   pass `maxMessageChars`, it is cut where the block chunker would cut it (`cutMessage`: the
 *   last paragraph break, else line break, sentence end, whitespace in the second half of the
 *   limit; never inside a table row; a heading kept with its section; a cut fence closed and
 *   reopened with its info string), trimmed back to that cut with an `edit` if it showed more,
 *   and the rest goes on in the next message. (Below 16 characters, a block that does not fit
 *   starts the next message, split at whitespace when it alone is too long.)
 * - `progress` events (`channel(name, { progress: true })`) repeat the current message's last
 *   edit with `progress`: every tool of the answer and its status; later edits carry it too.
 *   Before any text they open message 0 with an empty `text`. The transports show it their
 *   own way and never in the final text. An answer of tool calls only (no text at all, e.g.
 *   finish `tool-calls`) ends message 0 with one more edit whose `text` is every tool and its
 *   status (`✓ web_search · ✗ fetch`): that is the final text the chat keeps, never an empty
 *   message or a status line left running.
 * - The terminal (`completed`, `incomplete`, `failed`) becomes the last step, `{ op: 'end',
 *   terminal }`, as it came (`silent: true` when a `silent` event came before it: nothing is
 *   shown). A source that completes without a terminal ends with a `failed` terminal, code
 *   `stream-closed` (the answer was cut off); a source that errors ends with the `failed`
 *   terminal of its error (`failedFromError`), then the error passes on. Events after the
 *   terminal are dropped.
 * - Everything else (text deltas, reasoning, tool events) is dropped: this is the sink-side
 *   mapping. Subscribe to the events themselves (`share()`) for a typing indicator.
 * - With `render` (any `renderMarkdown` format, `telegram-rich` included), each edit also
 *   carries `rendered` (its text as `renderMarkdown` renders it), and a message fits when it
 *   renders into one message within `maxMessageChars`. It is cut by the same rules, from its
 *   text alone, at the largest budget of markdown whose cut still fits once rendered (a cut
 *   code block is one `pre` of its language in each message). Only when the cut falls inside
 *   a paragraph with a `**`, a backtick or a link open at it (no blank line in reach) is the
 *   block sent in the pieces `renderMarkdown` cuts (each `text` then that piece's visible
 *   text).
 *
 * @example
 * Send the edits with `deliver`: one call at a time, at the app's pace, the final text always,
 * then one `answer` report with the outcome (a notice in the chat unless it `completed`).
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
 *   concatMap(async (step) => {
 *     if (step.op === 'end') return console.log('answer', step.terminal.type);
 *     const { op, message, text } = step;
 *     if (op === 'send') ids[message] = (await bot.sendMessage(chatId, text)).message_id;
 *     else await bot.editMessageText(text, { chat_id: chatId, message_id: ids[message] });
 *   }),
 * );
 * ```
 * @param options - {@link ToMessageEditsOptions}
 */
export function toMessageEdits(
  options: ToMessageEditsOptions,
): OperatorFunction<StreamEvent, MessageStep> {
  const settings = parseOptions('toMessageEdits', ToMessageEditsOptions, options);
  return createOperator<StreamEvent, MessageStep>(({ subscriber }) => {
    const planner = createMessageEditPlanner(settings);
    const tools = new Map<string, ToolStatus>();
    let last: MessageEdit | undefined;
    const withTools = (edit: MessageEdit): MessageEdit =>
      tools.size === 0 ? edit : { ...edit, progress: [...tools.values()] };
    const emit = (step: MessageStep) => {
      if (step.op === 'end') return subscriber.next(step);
      subscriber.next(withTools((last = step)));
    };
    let silent = false;
    let ended = false;
    const end = (terminal: TerminalEvent) => {
      ended = true;
      for (const edit of planner.close()) emit(edit);
      // An answer of tool calls only: message 0 (opened by its progress) gets their statuses
      // as its final text, so no message stays empty or ends as a bare status line.
      if (!last && tools.size > 0 && !silent) emit(toolsOnlyEdit([...tools.values()], settings));
      subscriber.next(silent ? { op: 'end', terminal, silent: true } : { op: 'end', terminal });
    };
    return {
      next(event) {
        if (ended) return;
        if (event.type === 'block') {
          for (const edit of planner.push(event.text, blockOriginOf(event))) emit(edit);
        } else if (event.type === 'progress') {
          const { type: _type, ...status } = event;
          tools.set(event.id, status);
          // Before any text, the tool activity opens the first message (its text still empty);
          // the planner's first send then reaches the same message.
          subscriber.next(
            withTools(last ? { ...last, op: 'edit' } : { op: 'send', message: 0, text: '' }),
          );
        } else if (event.type === 'silent') silent = true;
        else if (isTerminal(event)) end(event);
      },
      complete() {
        if (!ended) end(failedEvent('stream-closed', STREAM_CLOSED, true));
        subscriber.complete();
      },
      error(error) {
        if (!ended) end(failedFromError(error));
        subscriber.error(error);
      },
    };
  });
}

/** The final edit of message 0 when no text came: every tool with its icon, as plain text. */
function toolsOnlyEdit(
  tools: ToolStatus[],
  settings: { maxMessageChars: number; render?: RenderFormat },
): MessageEdit {
  const text = statusLineOf(tools, false);
  const edit: MessageEdit = { op: 'edit', message: 0, text };
  if (!settings.render) return edit;
  const [first] = renderMessages(text, settings.render, { maxLength: settings.maxMessageChars });
  return { ...edit, rendered: first.rendered };
}

const STREAM_CLOSED = "The events ended before the stream's terminal event.";

export type { MessageEdit, MessageEnd, MessageStep } from './messageEditPlanner';
