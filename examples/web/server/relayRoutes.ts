import { randomUUID } from 'node:crypto';
import {
  followLog,
  parseLastEventId,
  recordTo,
  streamEvents,
  toSseResponse,
} from '../../../src/index';
import type { EventLog } from '../../../src/index';
import type { CallModel } from './chatRoutes';

/**
 * llm-rx's own SSE wire over an event log, for a page that reads it with `streamEvents`. Each
 * response is a stream of its own id, sent in `x-llm-rx-response`; positions (`id:`) count
 * within one response, so a reconnect names it.
 */
export function relayRoutes(log: EventLog, callModel: CallModel) {
  return {
    /** POST /api/chat: `{ chatId, messages }`, answered with a new response. */
    async POST(request: Request): Promise<Response> {
      const { chatId, messages } = await request.json();
      const responseId = randomUUID();
      streamEvents(await callModel(messages))
        .pipe(recordTo(log, responseId, { chatId }))
        .subscribe((event) => {
          if (event.type === 'failed') console.error(`${responseId}: ${event.error.message}`);
        });
      const headers = { 'x-llm-rx-response': responseId };
      return toSseResponse(followLog(log, responseId), { headers });
    },

    /**
     * GET /api/chat?responseId=…  with Last-Event-ID: k → that response from position k + 1;
     * GET /api/chat?chatId=…      → the chat's latest response from its start, 204 when none.
     */
    async GET(request: Request): Promise<Response> {
      const query = new URL(request.url).searchParams;
      let after: number;
      try {
        after = parseLastEventId(request.headers.get('last-event-id')); // -1 when absent
      } catch (error) {
        return new Response((error as Error).message, { status: 400 }); // "abc", "1.5"
      }
      const named = query.get('responseId');
      const responseId = named ?? (await log.latest(query.get('chatId') ?? ''));
      if (responseId === undefined) return new Response(null, { status: 204 });
      if (named === null) after = -1; // a position counts within the response it came from
      const headers = { 'x-llm-rx-response': responseId };
      // Ahead of the stream: waits. At or past its terminal: `failed` `invalid-last-event-id`.
      return toSseResponse(followLog(log, responseId, { after }), { startAt: after + 1, headers });
    },
  };
}
