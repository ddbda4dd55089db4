import { throwError, timer, mergeMap, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ensureTerminal } from '../../src/operators/ensureTerminal';
import { bufferChunk } from '../../src/operators/bufferChunk';
import { retryStream } from '../../src/operators/retryStream';
import { normalizeReasoning } from '../../src/operators/normalizeReasoning';
import { sortByIndex } from '../../src/operators/sortByIndex';
import { partialToolInput } from '../../src/operators/partialToolInput';
import { monotonicText } from '../../src/operators/monotonicText';
import { suppressSilent } from '../../src/operators/suppressSilent';
import { handleEvents, type EventHandler } from '../../src/operators/handleEvents';
import { collectTurn } from '../../src/turn/collectTurn';
import { channel } from '../../src/channels/channel';
import { toMessageEdits, type ToMessageEditsOptions } from '../../src/channels/toMessageEdits';
import { decodeAnthropic } from '../../src/providers/anthropic';
import { decodeOllama } from '../../src/providers/ollama';
import { decodeOpenAIResponses } from '../../src/providers/openaiResponses';
import { toSseFrames } from '../../src/relay/sse/toSseFrames';
import { relayMarbleOperators } from './relayMarbleOperators';
import { resumableMarbleOperators } from './resumableMarbleOperators';
import { slackMarbleOperators } from './slackMarbleOperators';
import { deliver } from '../../src/delivery/deliver';
import { scheduledLedger, scheduledTransport } from './scheduledTransport';

/** Builds the operator a `.marble` file names, from its `args` and the test scheduler. */
export type MarbleOperatorFactory = (
  args: Record<string, any>,
  scheduler: TestScheduler,
  helpers: MarbleHelpers,
) => OperatorFunction<any, any>;

/** What a factory may need beyond args: more cold sources (with the file's values) and checks. */
export interface MarbleHelpers {
  /** A cold Observable from a marble string, using the file's values and `#` error. */
  cold(marbles: string): Observable<any>;
  /** Expects the subscription log of an Observable made by `cold` (`[]`: never subscribed). */
  expectSubscriptions(observable: Observable<any>, marbles: string | string[]): void;
  /** Expects what an Observable emits (subscribed at frame 0), using the file's values. */
  expectObservable(observable: Observable<any>, marbles: string): void;
}

/**
 * The registry `.marble` files name their `operator:` from. Plain operators take their args as
 * their options object plus `scheduler`; entries that need more (a signal, a handler) build it
 * from args here.
 */
export const marbleOperators: Record<string, MarbleOperatorFactory> = {
  // The source is the first attempt; args.attempts are the cold marbles request() returns next,
  // args.attemptSubs their expected subscription logs ([] for an attempt never started).
  retryStream: ({ attempts = [], attemptSubs = [], ...options }, scheduler, helpers) => {
    const later = (attempts as string[]).map((marbles) => helpers.cold(marbles));
    (attemptSubs as Array<string | string[]>).forEach((subs, i) =>
      helpers.expectSubscriptions(later[i], subs),
    );
    return (source) => {
      let calls = 0;
      return retryStream(
        () => {
          const next = calls++ === 0 ? source : later[calls - 2];
          if (!next) throw new Error(`attempt ${calls} is not in args.attempts`);
          return next;
        },
        { ...options, scheduler },
      );
    };
  },
  // args.abortAtMs: abort the signal at that frame.
  ensureTerminal: ({ abortAtMs, ...options }, scheduler) => {
    if (abortAtMs === undefined) return ensureTerminal({ ...options, scheduler });
    const controller = new AbortController();
    scheduler.schedule(() => controller.abort(), abortAtMs);
    return ensureTerminal({ ...options, signal: controller.signal, scheduler });
  },
  // No timers: args are its options as they are.
  suppressSilent: (options) => suppressSilent(options),
  // The handler, from args: delays {type: ms} → returns timer(ms) (an Observable);
  // throws [type] → throws; failsAfter {type: ms} → an Observable that errors after ms.
  // Every other arg is an option of handleEvents.
  handleEvents: ({ delays = {}, throws = [], failsAfter = {}, ...options }, scheduler) =>
    handleEvents(markedHandler({ delays, throws, failsAfter }, scheduler), {
      ...options,
      scheduler,
    }),
  // bufferChunk with args.chunk as its options, then handleEvents with the other args (as above).
  bufferChunkThenHandleEvents: ({ chunk, ...handleArgs }, scheduler, helpers) => {
    const handle = marbleOperators.handleEvents(handleArgs, scheduler, helpers);
    return (source) => source.pipe(bufferChunk({ ...chunk, scheduler }), handle);
  },
  // No timers: args are its options as they are.
  normalizeReasoning: (options) => normalizeReasoning(options),
  // args are its options; the idle timer runs on the test scheduler.
  bufferChunk: (options, scheduler) => bufferChunk({ ...(options as any), scheduler }),
  sortByIndex: (options, scheduler) => sortByIndex({ ...options, scheduler }),
  partialToolInput: (options, scheduler) => partialToolInput({ ...options, scheduler }),
  // No options, no timers.
  monotonicText: () => monotonicText(),
  // No options, no timers.
  collectTurn: () => collectTurn(),
  // Decoders: no options, no timers; values are SSE messages (NDJSON values for ollama).
  decodeAnthropic: () => decodeAnthropic(),
  decodeOpenAIResponses: () => decodeOpenAIResponses(),
  decodeOllama: () => decodeOllama(),
  // args: { name, ...overrides }; the channel's timers run on the test scheduler.
  channel: ({ name, ...overrides }, scheduler) => channel(name, { ...overrides, scheduler }),
  // No timers: args are its options as they are; values out are MessageEdits, not events.
  toMessageEdits: (options) => toMessageEdits(options as ToMessageEditsOptions),
  // args.chunk are bufferChunk's options (its idle timer on the test scheduler), the rest toMessageEdits'.
  bufferChunkThenToMessageEdits:
    ({ chunk, ...options }, scheduler) =>
    (source) =>
      source.pipe(
        bufferChunk({ ...chunk, scheduler }),
        toMessageEdits(options as ToMessageEditsOptions),
      ),
  // args.channel is channel()'s { name, ...overrides } (its timers on the test scheduler), the
  // rest toMessageEdits' options: the bot path in blocks or live mode.
  channelThenToMessageEdits:
    ({ channel: { name, ...overrides }, ...options }, scheduler) =>
    (source) =>
      source.pipe(
        channel(name, { ...overrides, scheduler }),
        toMessageEdits(options as ToMessageEditsOptions),
      ),
  // args are its options; the heartbeat runs on the test scheduler.
  toSseFrames: (options, scheduler) => toSseFrames({ ...options, scheduler }),
  // The event-log entries (recordThenFollow, …): see relayMarbleOperators.ts.
  ...relayMarbleOperators,
  ...resumableMarbleOperators,
  // The Slack bot's shared rate limits: see slackMarbleOperators.ts.
  ...slackMarbleOperators,
  // args.transport describes a fake transport whose calls settle on the test scheduler:
  // { latencyMs, finishes?, recordRefs?, replies: { "<call number>": { latencyMs?, fails?,
  // retryAfterMs?, notModified?, permanent?, status?, ambiguous?, throws?, returns?, ref? } },
  // calls: "<marble of the calls as they start>" }. args.ledger, when present, is a scheduled
  // ledger (key "reply"): { entries?, readLatencyMs?, writeLatencyMs?, readFails?, failWrites?,
  // writes: "<marble of the entries as their writes start>" }.
  // Every other arg is an option of deliver.
  deliver: ({ transport: { calls, ...script } = {}, ledger, ...options }, scheduler, helpers) => {
    const transport = scheduledTransport(script, scheduler);
    if (calls !== undefined) helpers.expectObservable(transport.calls, calls);
    if (ledger === undefined) return deliver(transport, { ...options, scheduler });
    const { writes, ...ledgerScript } = ledger;
    const scheduled = scheduledLedger(ledgerScript, scheduler);
    if (writes !== undefined) helpers.expectObservable(scheduled.writes, writes);
    return deliver(transport, { ...options, ledger: scheduled, key: 'reply', scheduler });
  },
};

/** The handleEvents handler a marble's args describe (see the registry entry). */
function markedHandler(
  behaviour: {
    delays: Record<string, number>;
    throws: string[];
    failsAfter: Record<string, number>;
  },
  scheduler: SchedulerLike,
): EventHandler {
  return (event) => {
    const failure = new Error(`handler failed on ${event.type}`);
    if (behaviour.throws.includes(event.type)) throw failure;
    const failAfter = behaviour.failsAfter[event.type];
    if (failAfter !== undefined) {
      return timer(failAfter, scheduler).pipe(mergeMap(() => throwError(() => failure)));
    }
    const delay = behaviour.delays[event.type];
    return delay === undefined ? undefined : timer(delay, scheduler);
  };
}
