import type { Observable } from 'rxjs';
import { channel, deliver, followLog, telegramTransport, toMessageEdits } from '../../src/index';
import type {
  DeliveryLedger,
  DeliveryReport,
  EventLog,
  TelegramTransportOptions,
} from '../../src/index';

/**
 * Delivers the reply recorded in `log` under `streamId` to a Telegram chat, exactly once across
 * restarts: `deliver` writes each message's ref and acknowledged text to `ledger` under the
 * reply's id, so a process that runs this again after the first one died (same log, same
 * ledger, same id) sends only what the chat does not show yet.
 */
export function deliverReply(
  log: EventLog,
  ledger: DeliveryLedger,
  streamId: string,
  options: TelegramTransportOptions,
): Observable<DeliveryReport> {
  const bot = telegramTransport(options);
  return followLog(log, streamId).pipe(
    // from the start of the log, every time
    channel('telegram'),
    toMessageEdits({ maxMessageChars: bot.maxMessageChars, render: 'telegram' }),
    deliver(bot, { ledger, key: streamId }),
  );
}
