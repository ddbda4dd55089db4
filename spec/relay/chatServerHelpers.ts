import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/** The text of the last message useChat sent (`parts` of type text). */
function lastText(messages: unknown[]): string {
  const last = messages[messages.length - 1] as { parts?: { type: string; text?: string }[] };
  return (last?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * A fake model on the OpenAI chat wire: it answers "You said: <text>." in three deltas. While
 * `hold()` is in force, the deltas after the first wait until `release()`.
 */
export function fakeModel() {
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  const calls: string[] = [];
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return {
    calls,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    async call(messages: unknown[]): Promise<Response> {
      const text = lastText(messages);
      calls.push(text);
      const waitFor = gate;
      const parts = ['You said: ', text, '.'];
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode(chunk({ role: 'assistant', content: parts[0] })));
          await waitFor;
          controller.enqueue(encoder.encode(chunk({ content: parts[1] })));
          controller.enqueue(encoder.encode(chunk({ content: parts[2] })));
          controller.enqueue(encoder.encode(chunk({}, 'stop')));
          controller.enqueue(encoder.encode('data: [DONE]\n\n'));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    },
  };
}

/** A user message as useChat sends it. */
export const userMessage = (id: string, text: string) => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

/** What a UI message stream body said: the status, the message id in `start`, the text, the finish. */
export interface UIAnswer {
  status: number;
  messageId?: string;
  text: string;
  finishReason?: string;
}

/** Reads a UI message stream response whole (data: lines, `[DONE]` last). */
export function readUIAnswer(response: Response): Promise<UIAnswer> {
  return openUIAnswer(response).done;
}

/**
 * Reads a UI message stream response as it comes: `started` resolves at its first text delta
 * (the response was recorded by then), `done` with the whole answer. A read cut short (a test
 * that failed first) rejects `done` without an unhandled rejection.
 */
export function openUIAnswer(response: Response): {
  started: Promise<void>;
  done: Promise<UIAnswer>;
} {
  const answer: UIAnswer = { status: response.status, text: '' };
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const done = (async () => {
    const decoder = new TextDecoder();
    let held = '';
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      held += decoder.decode(read.value, { stream: true });
      const frames = held.split('\n\n');
      held = frames.pop() ?? '';
      for (const frame of frames) {
        const data = frame.replace(/^data: /, '');
        if (data === '' || data === '[DONE]') continue;
        const chunk = JSON.parse(data) as {
          type: string;
          delta?: string;
          messageId?: string;
          finishReason?: string;
        };
        if (chunk.type === 'start') answer.messageId = chunk.messageId;
        if (chunk.type === 'text-delta') {
          answer.text += chunk.delta;
          markStarted();
        }
        if (chunk.type === 'finish') answer.finishReason = chunk.finishReason;
      }
    }
    markStarted();
    return answer;
  })();
  done.catch(() => undefined);
  return { started, done };
}

/** Starts `server` on 127.0.0.1 and answers its base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The useChat client's calls: a turn (POST /api/chat) and the resume route. */
export function chatClient(base: string) {
  return {
    turn: (chatId: string, messages: unknown[]) =>
      fetch(`${base}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: chatId, messages, trigger: 'submit-message' }),
      }),
    resume: (chatId: string) => fetch(`${base}/api/chat/${encodeURIComponent(chatId)}/stream`),
  };
}
