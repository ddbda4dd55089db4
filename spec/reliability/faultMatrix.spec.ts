import type { Observable } from 'rxjs';
import { type StreamEvent, type TerminalEvent } from '../../src/events';
import { isTerminal } from '../../src/terminalEvents';
import { streamEvents, type StreamEventsOptions } from '../../src/streamEvents';
import { abortListenerCount, countingScheduler, faultyResponse } from './leakCheck';
import { body, wireSamples, type WireSample } from './wires';

/** Runs a stream to its end; resolves with every event. */
function run(events$: Observable<StreamEvent>): Promise<StreamEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: StreamEvent[] = [];
    events$.subscribe({
      next: (event) => seen.push(event),
      error: reject,
      complete: () => resolve(seen),
    });
  });
}

function textOf(events: StreamEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');
}

/** Exactly one terminal, and it is the last event. */
function theTerminal(events: StreamEvent[]): TerminalEvent {
  const terminals = events.filter(isTerminal);
  expect(terminals).toHaveLength(1);
  expect(events[events.length - 1]).toBe(terminals[0]);
  return terminals[0];
}

describe.each(wireSamples.map((sample) => [sample.provider, sample] as const))(
  'fault matrix: %s',
  (_name, sample: WireSample) => {
    const scheduler = countingScheduler();
    let released: () => boolean;

    async function caseOf(
      chunks: string[],
      after: 'end' | 'error' | 'stall',
      options: StreamEventsOptions = {},
      contentType = sample.contentType,
    ): Promise<StreamEvent[]> {
      const faulty = faultyResponse(chunks, after, contentType);
      released = faulty.released;
      return run(
        streamEvents(faulty.response, { provider: sample.provider, scheduler, ...options }),
      );
    }

    afterEach(() => {
      // Nothing left behind by any case: every timer ran or was cancelled, the body released.
      expect(scheduler.pending()).toBe(0);
      expect(released()).toBe(true);
    });

    it('a well-formed stream completes with all its text', async () => {
      const events = await caseOf(
        [body(sample, [...sample.textEvents, ...sample.endEvents])],
        'end',
      );
      expect(theTerminal(events).type).toBe('completed');
      expect(textOf(events)).toBe('Hello');
    });

    it('connection reset mid-event: failed stream-error, text so far delivered', async () => {
      const next = sample.endEvents[0];
      const events = await caseOf(
        [body(sample, sample.textEvents), next.slice(0, Math.floor(next.length / 2))],
        'error',
      );
      expect(theTerminal(events)).toEqual({
        type: 'failed',
        error: {
          code: 'stream-error',
          message: 'Reading the response body failed: read ECONNRESET',
          retryable: true,
        },
      });
      expect(textOf(events)).toBe('Hello');
    });

    it('final event without its blank line, complete JSON: accepted', async () => {
      const whole = body(sample, [...sample.textEvents, ...sample.endEvents]);
      const cut = whole.slice(0, whole.length - (sample.eventEnd.length + 1));
      const events = await caseOf([cut], 'end');
      expect(theTerminal(events).type).toBe('completed');
      expect(textOf(events)).toBe('Hello');
      expect(events.filter((event) => event.type === 'warning')).toEqual([]);
    });

    it('final event cut inside its JSON: truncated-event warning, then stream-closed', async () => {
      const partial = sample.frame(
        '{"type":"content_block_delta","choices":[{"delta":{"content":"lo',
      );
      const events = await caseOf([body(sample, sample.textEvents) + partial.trimEnd()], 'end');
      expect(
        events
          .filter((event) => event.type === 'warning')
          .map((w) => w.type === 'warning' && w.code),
      ).toEqual(['truncated-event']);
      expect(theTerminal(events)).toMatchObject({
        type: 'failed',
        error: { code: 'stream-closed', retryable: true },
      });
      expect(textOf(events)).toBe('Hello');
    });

    it('an invalid JSON data line: failed malformed-event, text so far delivered', async () => {
      const bad = sample.frame('{"oops": tru') + sample.eventEnd;
      const events = await caseOf(
        [body(sample, sample.textEvents), bad, body(sample, sample.endEvents)],
        'end',
      );
      expect(theTerminal(events)).toMatchObject({
        type: 'failed',
        error: { code: 'malformed-event', retryable: false },
      });
      expect(textOf(events)).toBe('Hello');
    });

    it('HTTP 200 with an HTML body: failed unexpected-body naming what arrived', async () => {
      const events = await caseOf(
        ['<!DOCTYPE html>\n<html><body>Gateway</body></html>\n'],
        'end',
        {},
        'text/html',
      );
      const terminal = theTerminal(events);
      expect(terminal).toMatchObject({
        type: 'failed',
        error: { code: 'unexpected-body', retryable: false },
      });
      // Named by its text, never as markup: the message reaches browsers and chats.
      expect(terminal.type === 'failed' && terminal.error.message).toBe(
        'The provider answered HTTP 200 with an HTML page reading "Gateway", not an event stream. Check the URL, the API key and that the request asked for a stream.',
      );
    });

    it('HTTP 200 with a plain-text body: failed unexpected-body', async () => {
      const events = await caseOf(['Internal Server Error\n'], 'end', {}, 'text/plain');
      expect(theTerminal(events)).toMatchObject({
        type: 'failed',
        error: { code: 'unexpected-body' },
      });
    });

    it('an error object mid-stream: one failed with the provider code, text so far delivered', async () => {
      const events = await caseOf([body(sample, [...sample.textEvents, sample.errorEvent])], 'end');
      expect(theTerminal(events)).toMatchObject({
        type: 'failed',
        error: { code: sample.errorCode },
      });
      expect(textOf(events)).toBe('Hello');
    });

    it('a 0-byte body: failed stream-closed', async () => {
      const events = await caseOf([], 'end');
      expect(theTerminal(events)).toMatchObject({
        type: 'failed',
        error: { code: 'stream-closed', retryable: true },
      });
    });

    it('a stall with idleTimeoutMs: failed stalled, the body cancelled', async () => {
      const events = await caseOf([body(sample, sample.textEvents)], 'stall', {
        idleTimeoutMs: 40,
      });
      expect(theTerminal(events)).toMatchObject({
        type: 'failed',
        error: { code: 'stalled', retryable: true },
      });
      expect(textOf(events)).toBe('Hello');
    });

    it('abort through a signal: incomplete aborted, no listener left', async () => {
      const controller = new AbortController();
      const faulty = faultyResponse([body(sample, sample.textEvents)], 'stall', sample.contentType);
      released = faulty.released;
      const events: StreamEvent[] = [];
      await new Promise<void>((resolve) => {
        streamEvents(faulty.response, {
          provider: sample.provider,
          scheduler,
          signal: controller.signal,
        }).subscribe({
          next(event) {
            events.push(event);
            if (textOf(events) === 'Hello') controller.abort();
          },
          complete: resolve,
        });
      });
      expect(theTerminal(events)).toEqual({
        type: 'incomplete',
        reason: 'aborted',
        message: 'The caller aborted the stream.',
      });
      expect(textOf(events)).toBe('Hello');
      expect(abortListenerCount(controller.signal)).toBe(0);
    });

    it('unsubscribe: no terminal, the body cancelled, no listener or timer left', async () => {
      const controller = new AbortController();
      const faulty = faultyResponse([body(sample, sample.textEvents)], 'stall', sample.contentType);
      released = faulty.released;
      const events: StreamEvent[] = [];
      await new Promise<void>((resolve) => {
        const subscription = streamEvents(faulty.response, {
          provider: sample.provider,
          scheduler,
          signal: controller.signal,
          idleTimeoutMs: 10_000,
        }).subscribe((event) => {
          events.push(event);
          if (textOf(events) === 'Hello') {
            subscription.unsubscribe();
            resolve();
          }
        });
      });
      expect(events.filter(isTerminal)).toEqual([]);
      expect(abortListenerCount(controller.signal)).toBe(0);
    });
  },
);
