import type { StreamEvent } from '../events';
import type { ProviderName } from '../providers/detect';
import { streamEvents } from '../streamEvents';
import type { Capture } from './capture';

/**
 * The replay pace: captures carry no timing, so wire message n (an SSE event or comment block,
 * an NDJSON line) is taken to arrive at n × 20 ms, about 50 tokens per second.
 */
export const PACE_MS = 20;

/** An event and when it happens, in ms from the first wire message, at speed 1. */
export interface TimedEvent {
  atMs: number;
  event: StreamEvent;
}

/** What `streamEvents` makes of a capture, each event timed by the wire message it came from. */
export interface DecodedCapture {
  events: TimedEvent[];
  /** Wire messages read before the stream ended (a terminal may end it early). */
  messagesRead: number;
}

/** Decodes a capture with `streamEvents`, as fast as it can, noting which message each event came from. */
export async function decodeCapture(
  capture: Capture,
  provider?: ProviderName,
): Promise<DecodedCapture> {
  const events: TimedEvent[] = [];
  const messagesRead = await decodeCaptureInto(capture, provider, (entry) => events.push(entry));
  return { events, messagesRead };
}

/**
 * {@link decodeCapture} without keeping the events: each goes to `onEvent` as it is decoded.
 * Resolves to the number of wire messages read.
 */
export function decodeCaptureInto(
  capture: Capture,
  provider: ProviderName | undefined,
  onEvent: (entry: TimedEvent) => void,
): Promise<number> {
  let current = 0;
  let read = 0;
  async function* body() {
    for (let index = 0; index < capture.messages.length; index++) {
      current = index;
      read = index + 1;
      yield capture.messages[index];
    }
  }
  return new Promise((resolve, reject) => {
    streamEvents(body(), { provider: provider ?? capture.providerHint }).subscribe({
      next: (event) => onEvent({ atMs: current * PACE_MS, event }),
      error: reject,
      complete: () => resolve(read),
    });
  });
}

/**
 * Calls `show` for each entry at its time divided by `speed` (0: all at once), and `tick`
 * with the replay time about every 100 ms while it waits. Wall-clock waiting lives here, in the
 * CLI, never in an operator.
 */
export async function playTimeline<Entry extends { atMs: number }>(
  entries: Entry[],
  speed: number,
  show: (entry: Entry) => void,
  tick: (atMs: number) => void = () => undefined,
): Promise<void> {
  if (speed === 0) {
    entries.forEach(show);
    return;
  }
  const start = performance.now();
  const replayTime = () => (performance.now() - start) * speed;
  for (const entry of entries) {
    while (replayTime() < entry.atMs) {
      tick(replayTime());
      const waitMs = Math.min(100, (entry.atMs - replayTime()) / speed);
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, waitMs)));
    }
    show(entry);
  }
}

/** The provider `streamEvents` detected (from `response-start`). */
export function providerOf(events: TimedEvent[]): string | undefined {
  const start = events.find(({ event }) => event.type === 'response-start')?.event;
  return start?.type === 'response-start' ? start.provider : undefined;
}
