import { lastValueFrom, toArray } from 'rxjs';
import {
  channel,
  deliver,
  googleChatTransport,
  streamEvents,
  toMessageEdits,
} from '../../src/index';
import type { DeliveryReport, GoogleChatTransportOptions } from '../../src/index';

/**
 * Answers in a Google Chat space (in `thread`, when given): a message created, then patched as
 * the answer grows, at most one write a second (the space's quota). `options`: `{ space, token }`
 * or `{ space, getToken }` (an access token of the app's service account, `chat.bot` scope).
 */
export function answerInGoogleChat(
  response: Response,
  options: GoogleChatTransportOptions,
): Promise<DeliveryReport[]> {
  const chat = googleChatTransport(options);
  return lastValueFrom(
    streamEvents(response).pipe(
      channel('googlechat', { live: true }), // live: whole words as they come (≤ 250 ms)
      toMessageEdits({
        maxMessageChars: chat.maxMessageChars,
        separator: '',
        render: 'googlechat',
      }),
      deliver(chat),
      toArray(),
    ),
  );
}
