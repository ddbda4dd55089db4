import { lastValueFrom, toArray } from 'rxjs';
import { channel, deliver, streamEvents, toMessageEdits, whatsappTransport } from '../../src/index';
import type { DeliveryReport, WhatsAppTransportOptions } from '../../src/index';

/** What a WhatsApp `messages` webhook says about the user's message. */
export interface WhatsAppInbound {
  id: string;
  from: string;
}

/**
 * Answers a user's WhatsApp message: typing shown on it while the model writes (refreshed
 * every 20 s), then the answer as text messages of at most 4096 characters. `options`: `{
 * token, phoneNumberId }` (and `apiBase` to point it elsewhere).
 */
export function answerOnWhatsApp(
  response: Response,
  inbound: WhatsAppInbound,
  options: Omit<WhatsAppTransportOptions, 'to' | 'replyTo'>,
): Promise<DeliveryReport[]> {
  const whatsapp = whatsappTransport({ ...options, to: inbound.from, replyTo: inbound.id });
  return lastValueFrom(
    streamEvents(response).pipe(
      channel('whatsapp'), // no edits on WhatsApp: blocks, each message sent when it is final
      toMessageEdits({ maxMessageChars: whatsapp.maxMessageChars, render: 'whatsapp' }),
      deliver(whatsapp),
      toArray(),
    ),
  );
}
