import { lastValueFrom, toArray } from 'rxjs';
import { channel, deliver, streamEvents, telegramTransport, toMessageEdits } from '../../src/index';
import type { DeliveryReport, TelegramTransportOptions } from '../../src/index';

/**
 * Answers one Telegram message with the model's streamed `response`: the bot sends a message
 * with the first words and edits it as the model writes (`mode: 'auto'` drafts it in a private
 * chat instead). Resolves with the delivery reports once the last call settled. `options`:
 * `{ token, chatId }` (or `{ client: bot.api, chatId }`), and `format: 'telegram-rich'`.
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
