import { Observable, lastValueFrom, toArray } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { deliver } from '../../src/delivery/deliver';
import type { DeliveryReport, DeliveryTransport } from '../../src/delivery/types';
import type { StreamEvent } from '../../src/events';

/** A reply's events in real time: `words` text deltas `everyMs` apart, then its terminal. */
export function timedReply(words: string[], everyMs: number): Observable<StreamEvent> {
  return new Observable<StreamEvent>((subscriber) => {
    let index = 0;
    subscriber.next({ type: 'text-start', id: 't' });
    const timer = setInterval(() => {
      if (index < words.length) {
        subscriber.next({ type: 'text-delta', id: 't', delta: words[index++] });
        return;
      }
      clearInterval(timer);
      subscriber.next({ type: 'text-end', id: 't' });
      subscriber.next({ type: 'finish', reason: 'stop' });
      subscriber.next({ type: 'completed', finishReason: 'stop' });
      subscriber.complete();
    }, everyMs);
    return () => clearInterval(timer);
  });
}

/** The words of a reply of `count` words, each followed by a space (the last by a period). */
export function replyWords(label: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${label}${i}${i === count - 1 ? '.' : ' '}`);
}

/** Delivers a live telegram reply through `transport`; resolves to its reports. */
export function deliverLive(
  events$: Observable<StreamEvent>,
  transport: DeliveryTransport & { maxMessageChars?: number },
  liveIntervalMs = 20,
): Promise<DeliveryReport[]> {
  return lastValueFrom(
    events$.pipe(
      channel('telegram', { live: true, liveIntervalMs }),
      toMessageEdits({ maxMessageChars: transport.maxMessageChars ?? 4096, separator: '' }),
      deliver(transport),
      toArray(),
    ),
  );
}
