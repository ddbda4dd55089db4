import { randomUUID } from 'node:crypto';
import { firstValueFrom } from 'rxjs';
import {
  followLog,
  parseLastEventId,
  recordTo,
  streamEvents,
  toSseResponse,
} from '../../../src/index';
import type { EventLog } from '../../../src/index';
import type { CallModel } from './chatRoutes.js';

/**
 * llm-rx's own SSE wire over an event log, for a page that reads it with `streamEvents` or a
 * standard `EventSource`. Each response is a stream of its own id, sent in `x-llm-rx-response`;
 * positions (`id:`) count within one response, so a reconnect names it.
 */
export function relayRoutes(log: EventLog, callModel: CallModel) {
  return {
    /** POST /api/chat: `{ chatId, messages }`, answered with a new response. */
    async POST(request: Request): Promise<Response> {
      const { chatId, messages } = await request.json();
      const responseId = randomUUID();
      const stopSignal = log.stopSignal(responseId); // aborted when any node calls log.stop
      streamEvents(await callModel(messages, stopSignal), { signal: stopSignal })
        .pipe(recordTo(log, responseId, { chatId }))
        .subscribe((event) => {
          if (event.type === 'failed') console.error(`${responseId}: ${event.error.message}`);
        });
      const headers = { 'x-llm-rx-response': responseId };
      return toSseResponse(followLog(log, responseId), { headers });
    },

    /**
     * GET /api/chat?responseId=…  with Last-Event-ID: k → that response from position k + 1;
     * GET /api/chat?chatId=…      → the chat's latest response from its start.
     * 204 No Content when there is nothing more to send: an unknown or expired id, or a
     * Last-Event-ID at or past the terminal of a finished response (an EventSource stops there).
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
      if (named === null) after = -1; // a position counts within the response it came from
      if (responseId === undefined || !(await hasMore(log, responseId, after))) {
        return new Response(null, { status: 204 });
      }
      const headers = { 'x-llm-rx-response': responseId };
      // Ahead of an open stream: waits for the events past it.
      return toSseResponse(followLog(log, responseId, { after }), { startAt: after + 1, headers });
    },

    /** POST /api/chat/stop?responseId=…: the page's Stop, on whichever node it lands. */
    async stop(request: Request): Promise<Response> {
      const responseId = new URL(request.url).searchParams.get('responseId');
      if (!responseId) return new Response('responseId is missing', { status: 400 });
      await log.stop(responseId, 'the user pressed Stop');
      return new Response(null, { status: 204 });
    },
  };
}

/** Whether the log has events of `responseId` past `after` to send, now or later. */
async function hasMore(log: EventLog, responseId: string, after: number): Promise<boolean> {
  const status = await log.status(responseId);
  if (status !== 'finished') return status === 'open';
  // Finished: anything past `after`? (At or past the terminal, the read errors at once.)
  return firstValueFrom(log.read(responseId, after)).then(
    () => true,
    () => false,
  );
}
