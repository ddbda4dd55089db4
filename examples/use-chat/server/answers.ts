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
