import { lastValueFrom, toArray } from 'rxjs';
import { channel, deliver, streamEvents, telegramTransport, toMessageEdits } from '../../src/index';
import type { DeliveryReport, TelegramTransportOptions } from '../../src/index';

/**
 * Answers one Telegram message with the model's streamed `response`. In a private chat
 * (`chatId` > 0) the user watches a live draft, persisted as a message when it is final; in a
 * group the bot sends a message and edits it. Resolves with the delivery reports once the last
 * call settled. `options`: `{ token, chatId }`, and `format: 'telegram-rich'` for Rich Messages.
 */
export async function answerInTelegram(
  response: Response,
  options: TelegramTransportOptions,
): Promise<DeliveryReport[]> {
  const bot = telegramTransport(options);
  const render = options.format ?? 'telegram'; // what the transport sends: entities, HTML or rich
  try {
    return await lastValueFrom(
      streamEvents(response).pipe(
        channel('telegram', { live: true }), // live: whole words as they come (≤ 250 ms), reasoning dropped
        toMessageEdits({ maxMessageChars: bot.maxMessageChars, separator: '', render }),
        deliver(bot), // one call at a time, paced, retried; every final text persisted
        toArray(),
      ),
    );
  } finally {
    bot.close(); // no draft refresh timer outlives the answer
  }
}
