import fc from 'fast-check';
import { from, type Observable } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { toUIMessageStreamResponse } from '../../src/relay/ui/toUIMessageStream';
import { streamEvents, type StreamEventsOptions } from '../../src/streamEvents';
import { collectTurn } from '../../src/turn/collectTurn';
import { collect } from '../helpers/bytes';
import { faultyResponse } from '../reliability/leakCheck';
import { body, wireSamples, type WireSample } from '../reliability/wires';
import { aiSdkMajors } from '../helpers/aiSdkMajors';
import { readResponse, summaryOfMessage, summaryOfTurn } from './uiMessageReader';

/** The fault-matrix cases of spec/reliability/faultMatrix.spec.ts, as event streams. */
function faultCases(sample: WireSample): Array<[string, () => Observable<StreamEvent>]> {
  const run = (
    chunks: string[],
    after: 'end' | 'error' | 'stall',
    options: StreamEventsOptions = {},
    contentType = sample.contentType,
  ) =>
    streamEvents(faultyResponse(chunks, after, contentType).response, {
      provider: sample.provider,
      ...options,
    });
  const whole = body(sample, [...sample.textEvents, ...sample.endEvents]);
  const next = sample.endEvents[0];
  return [
    ['well-formed', () => run([whole], 'end')],
    [
      'reset mid-event',
      () => run([body(sample, sample.textEvents), next.slice(0, next.length >> 1)], 'error'),
    ],
    [
      'final event without blank line',
      () => run([whole.slice(0, whole.length - (sample.eventEnd.length + 1))], 'end'),
    ],
    [
      'final event cut in its JSON',
      () =>
        run(
          [
            body(sample, sample.textEvents) +
              sample.frame('{"choices":[{"delta":{"content":"lo').trimEnd(),
          ],
          'end',
        ),
    ],
    [
      'invalid JSON line',
      () =>
        run(
          [body(sample, sample.textEvents), sample.frame('{"oops": tru') + sample.eventEnd],
          'end',
        ),
    ],
    ['HTML body', () => run(['<!DOCTYPE html>\n<html></html>\n'], 'end', {}, 'text/html')],
    [
      'error object mid-stream',
      () => run([body(sample, [...sample.textEvents, sample.errorEvent])], 'end'),
    ],
    ['0-byte body', () => run([], 'end')],
    [
      'stall with idleTimeoutMs',
      () => run([body(sample, sample.textEvents)], 'stall', { idleTimeoutMs: 30 }),
    ],
    [
      'abort',
      () => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 30);
        return run([body(sample, sample.textEvents)], 'stall', { signal: controller.signal });
      },
    ],
  ];
}

describe.each(
  wireSamples.flatMap((sample) =>
    aiSdkMajors.map((major) => [sample.provider, major.name, sample, major] as const),
  ),
)('UI message stream over the fault matrix: %s, read by %s', (_provider, _major, sample, major) => {
  it.each(faultCases(sample))(
    '%s: read without error; the message equals collectTurn',
    async (_name, make) => {
      const events = await collect(make());
      const turn = (await collect(from(events).pipe(collectTurn())))[0];
      const read = await readResponse(toUIMessageStreamResponse(from(events)), major);
      expect(read.errors).toEqual([]);
      expect(read.done).toBe(true);
      expect(summaryOfMessage(read.message)).toEqual(summaryOfTurn(turn, events));
      const last = read.chunks[read.chunks.length - 1];
      expect(['finish', 'abort']).toContain(last.type);
    },
  );
});

// Any sequence of events — deltas without starts, ends without starts, tool results for
// unknown calls, no terminal, two terminals — is read without a framing error.
const ids = fc.constantFrom('a', 'b');
const anyEvent: fc.Arbitrary<StreamEvent> = fc.oneof(
  ids.map((id) => ({ type: 'text-start', id }) as StreamEvent),
  fc
    .record({ id: ids, delta: fc.string({ maxLength: 3 }) })
    .map((e) => ({ type: 'text-delta', ...e }) as StreamEvent),
  fc
    .record({ id: ids, text: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }) })
    .map(
      ({ id, text }) =>
        (text === undefined
          ? { type: 'text-end', id }
          : { type: 'text-end', id, text }) as StreamEvent,
    ),
  ids.map((id) => ({ type: 'reasoning-start', id: `r${id}`, index: 0 }) as StreamEvent),
  fc
    .string({ maxLength: 3 })
    .chain((delta) =>
      ids.map(
        (id) =>
          ({ type: 'reasoning-delta', id: `r${id}`, index: 0, delta, kind: 'text' }) as StreamEvent,
      ),
    ),
  ids.map((id) => ({ type: 'reasoning-end', id: `r${id}`, index: 0 }) as StreamEvent),
  ids.map(
    (id) => ({ type: 'tool-input-start', id: `t${id}`, name: 'get', index: 0 }) as StreamEvent,
  ),
  ids.map((id) => ({ type: 'tool-input-delta', id: `t${id}`, delta: '{"' }) as StreamEvent),
  ids.map(
    (id) =>
      ({ type: 'tool-call', id: `t${id}`, name: 'get', input: {}, inputText: '{}' }) as StreamEvent,
  ),
  fc.record({ id: ids, isError: fc.boolean(), named: fc.boolean() }).map(
    ({ id, isError, named }) =>
      ({
        type: 'tool-end',
        id: `t${id}`,
        ...(named ? { name: 'get' } : {}),
        result: 1,
        isError,
      }) as StreamEvent,
  ),
  fc.constantFrom<StreamEvent>(
    { type: 'finish', reason: 'stop' },
    { type: 'usage', outputTokens: 2 },
    { type: 'completed' },
    { type: 'incomplete', reason: 'aborted', message: 'gone' },
    { type: 'incomplete', reason: 'length', message: 'long' },
    { type: 'failed', error: { code: 'x', message: 'y', retryable: false } },
  ),
);

describe.each(aiSdkMajors.map((major) => [major.name, major] as const))(
  'UI message stream of any event sequence, read by %s',
  (_major, major) => {
    it('is read by readUIMessageStream without an error, ending in finish or abort (300 runs)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyEvent, { maxLength: 14 }), async (events) => {
          const read = await readResponse(toUIMessageStreamResponse(from(events)), major);
          expect(read.errors).toEqual([]);
          expect(read.done).toBe(true);
          expect(['finish', 'abort']).toContain(read.chunks[read.chunks.length - 1].type);
        }),
        { numRuns: 300, seed: 17 },
      );
    });
  },
);
