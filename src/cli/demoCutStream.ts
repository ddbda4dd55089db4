import { lastValueFrom, toArray } from 'rxjs';
import { channel } from '../channels/channel';
import { toMessageEdits } from '../channels/toMessageEdits';
import { deliver } from '../delivery/deliver';
import type { AnswerReport, DeliveryTransport } from '../delivery/types';
import { renderMarkdown } from '../render/renderMarkdown';
import { streamEvents } from '../streamEvents';
import type { Capture } from './capture';

/** How much of the demo capture the cut stream keeps: its first 40 % of wire messages. */
const CUT_AT = 0.4;

/** What a chat shows once a cut stream's answer is delivered: each message's text, and the report. */
export interface CutStreamOutcome {
  /** The wire messages kept, and all there were. */
  kept: number;
  of: number;
  /** Each chat message's final text as Telegram shows it (entities applied, no markers). */
  messages: string[];
  answer: AnswerReport;
}

/**
 * The demo capture cut after 40 % of its wire messages, as a proxy that drops the connection
 * does, delivered through `channel('telegram')` → `toMessageEdits` → `deliver` to a chat kept
 * in memory: the chat shows the text that arrived and the notice that says it was cut.
 */
export async function deliverCutStream(capture: Capture): Promise<CutStreamOutcome> {
  const kept = Math.max(1, Math.floor(capture.messages.length * CUT_AT));
  const texts: string[] = [];
  const chat: DeliveryTransport<number> = {
    maxMessageChars: 4096,
    send: async (edit) => texts.push(edit.text) - 1,
    edit: async (ref, edit) => void (texts[ref] = edit.text),
  };
  async function* body() {
    yield* capture.messages.slice(0, kept);
  }
  const reports = await lastValueFrom(
    streamEvents(body(), { provider: capture.providerHint }).pipe(
      channel('telegram'),
      toMessageEdits({ maxMessageChars: 4096 }),
      deliver(chat, { minIntervalMs: 0 }),
      toArray(),
    ),
  );
  const answer = reports.find((report): report is AnswerReport => report.type === 'answer');
  if (answer === undefined) throw new Error('deliver ended without its answer report');
  const messages = texts.map((text) =>
    renderMarkdown(text, 'telegram')
      .map((message) => message.plain)
      .join('\n'),
  );
  return { kept, of: capture.messages.length, messages, answer };
}
