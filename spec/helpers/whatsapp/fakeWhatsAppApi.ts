// A fake WhatsApp Cloud API (Graph `POST /{version}/{phone-number-id}/messages`) on 127.0.0.1,
// enforcing what the docs say: a Bearer token (else code 190), `messaging_product: whatsapp`,
// text bodies of at most 4096 characters (code 100), the typing indicator only on a received
// message id, and the pair rate (131056: one business number to one user, at most one message
// every `pairRateMs`), with Graph's error bodies.

import { startFakeJsonServer, type FakeAnswer, type FakeServerOptions } from '../fakeJsonServer';

export interface FakeWhatsAppApiOptions extends FakeServerOptions {
  token: string;
  phoneNumberId: string;
  /** Message ids the users sent (the typing indicator is accepted only on these). */
  inbound: string[];
  /** Least time between two messages to one user. @defaultValue 0 (no pair limit) */
  pairRateMs?: number;
  /** Answer the n-th request (1-based) with Cloud API throughput exhaustion (130429). */
  throughputFault?: (n: number) => boolean;
}

export interface FakeWhatsAppMessage {
  id: string;
  to: string;
  body: string;
  at: number;
}

export interface FakeWhatsAppApi {
  apiBase: string;
  messages: FakeWhatsAppMessage[];
  /** When each typing indicator was accepted, and on which message. */
  typing: { at: number; messageId: string }[];
  counts: { pairRateLimited: number; throughputLimited: number; rejected: number };
  close(): Promise<void>;
}

const graphError = (
  status: number,
  code: number,
  message: string,
  details?: string,
): FakeAnswer => ({
  status,
  body: {
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
      fbtrace_id: 'AbCdEfGhIjK',
    },
  },
});

export async function startFakeWhatsAppApi(
  options: FakeWhatsAppApiOptions,
): Promise<FakeWhatsAppApi> {
  const { token, phoneNumberId, inbound, pairRateMs = 0, throughputFault } = options;
  const messages: FakeWhatsAppMessage[] = [];
  const typing: FakeWhatsAppApi['typing'] = [];
  const counts = { pairRateLimited: 0, throughputLimited: 0, rejected: 0 };
  const lastTo = new Map<string, number>();
  let n = 0;
  const reject = (answer: FakeAnswer) => {
    counts.rejected++;
    return answer;
  };
  const server = await startFakeJsonServer(({ method, path, headers, body, receivedAt }) => {
    n++;
    if (method !== 'POST' || path !== `/v23.0/${phoneNumberId}/messages`) {
      return reject(graphError(400, 100, 'Unsupported post request.'));
    }
    if (headers.authorization !== `Bearer ${token}`) {
      return reject(graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token'));
    }
    if (throughputFault?.(n)) {
      counts.throughputLimited++;
      return graphError(
        429,
        130429,
        '(#130429) Rate limit hit',
        'Cloud API message throughput has been reached.',
      );
    }
    if (body?.messaging_product !== 'whatsapp') {
      return reject(graphError(400, 100, '(#100) The parameter messaging_product is required.'));
    }
    if (body.status === 'read') {
      if (!inbound.includes(body.message_id)) {
        return reject(graphError(400, 100, 'Invalid parameter', 'Message id not found.'));
      }
      if (body.typing_indicator !== undefined && body.typing_indicator?.type !== 'text') {
        return reject(
          graphError(400, 100, 'Invalid parameter', 'typing_indicator.type must be text.'),
        );
      }
      if (body.typing_indicator) typing.push({ at: receivedAt, messageId: body.message_id });
      return { status: 200, body: { success: true } };
    }
    const text: unknown = body.text?.body;
    if (body.type !== 'text' || typeof text !== 'string' || typeof body.to !== 'string') {
      return reject(graphError(400, 100, '(#100) Invalid parameter'));
    }
    if ([...text].length > 4096) {
      return reject(
        graphError(400, 100, "(#100) Param text['body'] must be at most 4096 characters long."),
      );
    }
    const previous = lastTo.get(body.to);
    if (previous !== undefined && receivedAt - previous < pairRateMs) {
      counts.pairRateLimited++;
      return graphError(
        429,
        131056,
        '(#131056) (Business Account, Consumer Account) pair rate limit hit',
        'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
      );
    }
    lastTo.set(body.to, receivedAt);
    const id = `wamid.FAKE${messages.length + 1}`;
    messages.push({ id, to: body.to, body: text, at: receivedAt });
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id }],
      },
    };
  }, options);
  return { apiBase: `${server.base}/v23.0`, messages, typing, counts, close: server.close };
}
