import { randomUUID } from 'node:crypto';
import { followLog, recordTo, streamEvents, toUIMessageStreamResponse } from '../../../src/index';
import type { EventLog } from '../../../src/index';

/**
 * Calls the model with the chat's messages; answers its streaming response (OpenAI, …). Give
 * `signal` to the provider's `fetch`: a Stop then closes the provider request.
 */
export type CallModel = (messages: unknown[], signal: AbortSignal) => Promise<Response>;

/**
 * A `useChat` server over an event log (`memoryEventLog()` on one process, `redisEventLog(…)`
 * on many). useChat sends its chat id with every turn: each turn's response is a stream of
 * its own id, and the log remembers which is the chat's latest.
 */
export function chatRoutes(log: EventLog, callModel: CallModel) {
  return {
    /** POST /api/chat: `{ id, messages }` from useChat's DefaultChatTransport. */
    async POST(request: Request): Promise<Response> {
      const { id: chatId, messages } = await request.json();
      const responseId = randomUUID(); // one stream per response, never the chat id
      const stopSignal = log.stopSignal(responseId); // aborted when any node calls log.stop
      // Recorded on its own: no client connection owns the model call.
      streamEvents(await callModel(messages, stopSignal), { signal: stopSignal })
        .pipe(recordTo(log, responseId, { chatId }))
        .subscribe((event) => {
          if (event.type === 'failed') console.error(`${responseId}: ${event.error.message}`);
        });
      return toUIMessageStreamResponse(followLog(log, responseId), { messageId: responseId });
    },

    /** GET /api/chat/:id/stream: useChat({ resume: true }) asks on every mount. */
    async resume(chatId: string): Promise<Response> {
      const responseId = await log.latest(chatId);
      if (responseId === undefined) return new Response(null, { status: 204 }); // nothing to resume
      return toUIMessageStreamResponse(followLog(log, responseId), { messageId: responseId });
    },

    /** POST /api/chat/:id/stop: the page's Stop; stops the chat's latest response, on any node. */
    async stop(chatId: string): Promise<Response> {
      const responseId = await log.latest(chatId);
      if (responseId !== undefined) await log.stop(responseId, 'the user pressed Stop');
      return new Response(null, { status: 204 });
    },
  };
}
