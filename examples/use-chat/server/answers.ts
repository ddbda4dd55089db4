import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Capture } from '../../../src/cli/capture';

/** Where a held answer waits: released by the test (or never, for Stop). */
export interface Gate {
  /** Wire messages sent before the answer waits. */
  after: number;
  /** Resolves when the answer may go on. */
  opened: Promise<void>;
  /** Lets the answer go on. */
  open(): void;
  /** Resolves once the answer reached the gate (its first `after` messages are sent). */
  reached: Promise<void>;
  /** Called by the body when it reaches the gate. */
  arrive(): void;
}

/** A gate that holds an answer after `after` wire messages until `open()`. */
export function createGate(after: number): Gate {
  let open!: () => void;
  let arrive!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  return { after, opened, open, reached, arrive };
}

/**
 * A capture's body as its provider sent it, one wire message every `gapMs`; with a gate, it
 * waits at the gate's position until the gate opens. Cancelling clears the pending timer.
 */
export function pacedBody(
  capture: Capture,
  gapMs: number,
  gate?: Gate,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = () => {
        if (cancelled) return;
        if (next >= capture.messages.length) return controller.close();
        if (gate && next === gate.after) {
          gate.arrive();
          return void gate.opened.then(() => {
            gate = undefined;
            send();
          });
        }
        controller.enqueue(encoder.encode(capture.messages[next++]));
        timer = setTimeout(send, gapMs);
      };
      timer = setTimeout(send, gapMs);
    },
    cancel() {
      cancelled = true;
      clearTimeout(timer);
    },
  });
}

/** The example's model: an HTTP server on 127.0.0.1 that streams bundled captures, paced. */
export interface CaptureModel {
  /** `http://127.0.0.1:<port>/`: POST `{ capture, gapMs }`, answered with that capture's body. */
  url: string;
  /** How many answers the client closed before their end (a Stop that reached the model). */
  aborted(): number;
  close(): Promise<void>;
}

/**
 * Starts the model on a free port. `gateOf()` is asked once per request for the gate that
 * answer waits at (or none). A client that goes away cancels the paced body (no timer left).
 */
export async function startCaptureModel(
  captures: Map<string, { capture: Capture }>,
  gateOf: () => Gate | undefined,
): Promise<CaptureModel> {
  let aborted = 0;
  const server = createServer((req, res) => {
    void textOfRequest(req).then((text) => {
      const { capture, gapMs } = JSON.parse(text) as { capture: string; gapMs: number };
      const bundled = captures.get(capture);
      if (!bundled) return void res.writeHead(404).end();
      const body = pacedBody(bundled.capture, gapMs, gateOf());
      res.once('close', () => {
        if (!res.writableFinished) aborted++;
      });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      const reader = body.getReader();
      res.once('close', () => void reader.cancel().catch(() => undefined));
      const pump = async (): Promise<void> => {
        const { done, value } = await reader.read();
        if (done) return void res.end();
        res.write(value);
        return pump();
      };
      return pump();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    aborted: () => aborted,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

async function textOfRequest(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
