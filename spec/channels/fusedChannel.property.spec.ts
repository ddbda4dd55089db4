import fc from 'fast-check';
import type { MonoTypeOperatorFunction, Observable, SchedulerLike } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { ColdObservable } from 'rxjs/internal/testing/ColdObservable';
import type { TestMessage } from 'rxjs/internal/testing/TestMessage';
import { channel, type ChannelOverrides } from '../../src/channels/channel';
import { channelNames, channelPresets, type ChannelName } from '../../src/channels/presets';
import type { StreamEvent } from '../../src/events';
import { bufferChunk } from '../../src/operators/bufferChunk';
import { monotonicText } from '../../src/operators/monotonicText';
import { normalizeReasoning } from '../../src/operators/normalizeReasoning';
import { sortByIndex } from '../../src/operators/sortByIndex';
import { suppressSilent } from '../../src/operators/suppressSilent';
import { MARKDOWN_PIECES, SILENT_PIECES } from '../helpers/textPieces';

// channel() runs its stages fused (one subscriber). The reference is the pipe of the single
// operators, built here from the preset by hand: both must give the same notifications at the
// same frames, and subscribe and unsubscribe the source at the same frames.

/** The composed reference: the single operators piped, with the preset's options. */
function composedChannel(
  name: ChannelName,
  overrides: ChannelOverrides,
  scheduler: SchedulerLike,
): MonoTypeOperatorFunction<StreamEvent> {
  const preset = channelPresets[name];
  const minChars = overrides.minChars ?? preset.minChars;
  const maxChars = overrides.maxChars ?? preset.maxChars;
  const stages: Array<MonoTypeOperatorFunction<StreamEvent>> = [
    normalizeReasoning({ reasoning: overrides.reasoning ?? preset.reasoning }),
    sortByIndex({
      scheduler,
      ...(overrides.windowMs === undefined ? {} : { windowMs: overrides.windowMs }),
    }),
    monotonicText(),
    suppressSilent(),
  ];
  if (minChars !== undefined && maxChars !== undefined) {
    stages.push(
      bufferChunk({
        minChars,
        maxChars,
        idleMs: overrides.idleMs ?? preset.idleMs,
        mode: overrides.mode ?? preset.mode,
        scheduler,
      }),
    );
  }
  return (source) => stages.reduce((events, stage) => stage(events), source);
}

const PIECES = [
  ...new Set([
    ...MARKDOWN_PIECES,
    ...SILENT_PIECES,
    'Hello there.',
    ' ',
    '\n\n',
    '```js\n',
    '\n```\n',
    '| a | b |\n',
    '# Title\n',
    'Sentence one. Sentence two! ',
    '文字。',
    'x'.repeat(40),
  ]),
];

const textArbitrary = fc
  .array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 4 })
  .map((pieces) => pieces.join(''));
const textId = fc.constantFrom('t1', 't2');
const reasoningIndex = fc.integer({ min: 0, max: 3 });

const eventArbitrary: fc.Arbitrary<StreamEvent> = fc.oneof(
  { weight: 2, arbitrary: textId.map((id): StreamEvent => ({ type: 'text-start', id })) },
  {
    weight: 12,
    arbitrary: fc
      .tuple(textId, textArbitrary)
      .map(([id, delta]): StreamEvent => ({ type: 'text-delta', id, delta })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(textId, fc.option(textArbitrary, { nil: undefined }))
      .map(([id, text]): StreamEvent =>
        text === undefined ? { type: 'text-end', id } : { type: 'text-end', id, text },
      ),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom('start', 'delta', 'end'), reasoningIndex, textArbitrary)
      .map(([kind, index, delta]): StreamEvent => {
        const id = `r${index}`;
        if (kind === 'start') return { type: 'reasoning-start', id, index };
        if (kind === 'end') return { type: 'reasoning-end', id, index };
        return { type: 'reasoning-delta', id, index, delta, kind: 'text' };
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<StreamEvent>(
      { type: 'tool-input-start', id: 'c1', name: 'lookup', index: 0 },
      { type: 'tool-start', id: 'c1', name: 'lookup' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', inputTokens: 3, outputTokens: 5 },
      { type: 'warning', code: 'unknown-field', message: 'x' },
      { type: 'completed', finishReason: 'stop' },
      { type: 'failed', error: { code: 'stalled', message: 'stalled', retryable: true } },
    ),
  },
);

/** A stream: events with the frames between them, then how it ends, and when to unsubscribe. */
const scenarioArbitrary = fc.record({
  name: fc.constantFrom(...channelNames),
  overrides: fc.option(
    fc.record({
      minChars: fc.integer({ min: 1, max: 60 }),
      maxChars: fc.integer({ min: 60, max: 120 }),
      idleMs: fc.integer({ min: 0, max: 40 }),
      windowMs: fc.integer({ min: 0, max: 30 }),
      mode: fc.constantFrom<'stream' | 'end'>('stream', 'end'),
      reasoning: fc.constantFrom<'keep' | 'drop'>('keep', 'drop'),
    }),
    { nil: undefined },
  ),
  steps: fc.array(
    fc.tuple(
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 }), fc.constant(1000)),
      eventArbitrary,
    ),
    { maxLength: 30 },
  ),
  ending: fc.constantFrom('complete', 'error', 'none'),
  unsubscribeAt: fc.option(fc.integer({ min: 0, max: 1500 }), { nil: undefined }),
});

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer S> ? S : never;

/** Every notification of one pipeline with its frame, and the source's subscription log. */
function run(
  scenario: Scenario,
  pipeline: (scheduler: SchedulerLike) => MonoTypeOperatorFunction<StreamEvent>,
) {
  const scheduler = new TestScheduler(() => undefined);
  const seen: unknown[] = [];
  let subscriptions: unknown;
  scheduler.run(() => {
    const messages: TestMessage[] = [];
    let frame = 0;
    for (const [gap, event] of scenario.steps) {
      frame += gap;
      messages.push({ frame, notification: { kind: 'N', value: event } });
    }
    const ending = scenario.ending;
    if (ending === 'complete') messages.push({ frame: frame + 1, notification: { kind: 'C' } });
    if (ending === 'error') {
      messages.push({ frame: frame + 1, notification: { kind: 'E', error: 'boom' } });
    }
    // A cold source from exact frames (createColdObservable only reads marble strings).
    const source = new ColdObservable<StreamEvent>(messages, scheduler);
    const output: Observable<StreamEvent> = source.pipe(pipeline(scheduler));
    const subscription = output.subscribe({
      next: (event) => seen.push([scheduler.now(), 'next', event]),
      error: (error) => seen.push([scheduler.now(), 'error', error]),
      complete: () => seen.push([scheduler.now(), 'complete']),
    });
    if (scenario.unsubscribeAt !== undefined) {
      scheduler.schedule(() => subscription.unsubscribe(), scenario.unsubscribeAt);
    }
    subscriptions = source.subscriptions;
  });
  return { seen, subscriptions };
}

describe('channel() fused ≡ the single operators piped', () => {
  it('gives the same notifications at the same frames, for random streams and timing', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const overrides: ChannelOverrides = scenario.overrides ?? {};
        const fused = run(scenario, (scheduler) =>
          channel(scenario.name, { ...overrides, scheduler }),
        );
        const composed = run(scenario, (scheduler) =>
          composedChannel(scenario.name, overrides, scheduler),
        );
        expect(fused).toEqual(composed);
      }),
      { numRuns: 1000, seed: 20261201 },
    );
  });
});
