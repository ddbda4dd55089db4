import { type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import * as z from 'zod/mini';
import { LlmRxError } from '../errors';
import type { StreamEvent } from '../events';
import { durationOption, parseOptions, schedulerOption } from '../internal/options';
import type { OperatorStage } from '../internal/createOperator';
import { bufferChunkStage } from '../operators/bufferChunk';
import { monotonicTextStage } from '../operators/monotonicText';
import { normalizeReasoningStage } from '../operators/normalizeReasoning';
import { sortByIndexStage } from '../operators/sortByIndex';
import { suppressSilentStage } from '../operators/suppressSilent';
import { fuseStages } from './fusedChannel';
import { toolProgressStage } from './toolProgress';
import { liveChunkStage } from './liveChunk';
import { channelNames, channelPresets, isChannelName, type ChannelName } from './presets';

/** What `channel(name, overrides)` may change in a preset. Each field replaces the preset's. */
export interface ChannelOverrides {
  /** bufferChunk `minChars`. Giving both `minChars` and `maxChars` turns chunking on for `web`. */
  minChars?: number;
  /** bufferChunk `maxChars`. */
  maxChars?: number;
  /** bufferChunk `idleMs`: a pause this long sends what is held. */
  idleMs?: number;
  /** bufferChunk `mode`. */
  mode?: 'stream' | 'end';
  /** bufferChunk `breakPreference`. @defaultValue bufferChunk's own */
  breakPreference?: 'paragraph' | 'newline' | 'sentence';
  /** bufferChunk `flushOnParagraph`. @defaultValue bufferChunk's own */
  flushOnParagraph?: boolean;
  /** normalizeReasoning `reasoning`: `keep` or `drop` reasoning events. */
  reasoning?: 'keep' | 'drop';
  /** normalizeReasoning `tags`: the tag names read as reasoning. @defaultValue its own */
  tags?: string[];
  /** suppressSilent `tokens`. @defaultValue `['NO_REPLY', 'ANNOUNCE_SKIP', 'REPLY_SKIP']` */
  silentTokens?: string[];
  /** sortByIndex `windowMs`. @defaultValue 50 */
  windowMs?: number;
  /**
   * Adds a `progress` event after each tool event that changes a tool's status (running, done,
   * error), for transports to show tool activity the platform's way; never part of the text.
   * @defaultValue false
   */
  progress?: boolean;
  /**
   * Live mode, for apps whose transport edits or streams one message (`telegram`, `slack`,
   * `discord`, `msteams`): text goes out in small blocks as the model writes, whole words only,
   * at most `liveIntervalMs` after its delta, instead of blocks of minChars..maxChars. Join
   * the blocks with no separator (`toMessageEdits({ separator: '' })`). The chunking
   * overrides (`minChars`, `maxChars`, `idleMs`, `mode`, …) do not apply.
   * @defaultValue false
   */
  live?: boolean;
  /** Live mode: the longest a delta's text waits before it goes out. @defaultValue 250 */
  liveIntervalMs?: number;
  /** Where every timer of the pipeline runs. @defaultValue asyncScheduler */
  scheduler?: SchedulerLike;
}

/** The channels whose transports edit or stream one message: the ones live mode is for. */
const liveChannels: readonly ChannelName[] = [
  'telegram',
  'slack',
  'discord',
  'msteams',
  'googlechat',
];

// A misspelt override (`minchars`) is an error naming the known ones (parseOptions).
const ChannelOverrides = z.object({
  minChars: z.optional(z.int().check(z.positive())),
  maxChars: z.optional(z.int().check(z.positive())),
  idleMs: z.optional(durationOption),
  mode: z.optional(z.enum(['stream', 'end'])),
  breakPreference: z.optional(z.enum(['paragraph', 'newline', 'sentence'])),
  flushOnParagraph: z.optional(z.boolean()),
  reasoning: z.optional(z.enum(['keep', 'drop'])),
  tags: z.optional(z.array(z.string())),
  silentTokens: z.optional(z.array(z.string())),
  windowMs: z.optional(durationOption),
  progress: z.optional(z.boolean()),
  live: z.optional(z.boolean()),
  liveIntervalMs: z.optional(z.number().check(z.positive())),
  scheduler: schedulerOption,
});

/**
 * The ready pipeline for one channel: normalizeReasoning → sortByIndex → monotonicText →
 * suppressSilent → bufferChunk, with the channel's preset (`channelPresets`). It runs them as
 * one fused operator (one subscriber), with the same output, event for event and frame for
 * frame, as piping those operators. (Where reasoning is dropped, sortByIndex, which only
 * reorders reasoning, has nothing to do and is left out.)
 *
 * ```
 * channel('slack')     minChars 1500, maxChars 4000, idleMs 1000
 * source:   -a 1500ms (efc|)                a = 1535 characters + "\n\nBye"
 * result:   -x 999ms y 500ms (efc|)         x = block(1535, size)  y = block("Bye", idle)
 * channel('web')       deltas pass as they come, reasoning kept
 * channel('telegram', { live: true, liveIntervalMs: 5 })
 * source:   -a-b--c 10ms |                  a = "Hel"  b = "lo wo"  c = "rld"
 * result:   ------x------y|                 x = block "Hello "  y = block "world" (5 ms quiet)
 * ```
 *
 * - `web` does no chunking (text deltas pass) and keeps reasoning; every other preset cuts
 *   blocks and drops reasoning.
 * - The single terminal stays last: bufferChunk sends what it holds before it, and nothing
 *   follows it. A stream without a terminal stays without one (pipe `ensureTerminal()`
 *   before, as `streamEvents` does).
 * - `overrides` replace preset values (validated at once; an unknown key is an error). On
 *   `web`, giving both `minChars` and `maxChars` turns chunking on.
 * - `live: true` (telegram, slack, discord, msteams, googlechat): small blocks as the model writes, whole
 *   words only, each delta's text out at most `liveIntervalMs` after it came (a word's
 *   unfinished tail waits for its end, or for `liveIntervalMs` without a delta); never
 *   reasoning, never a silent token's prefix (suppressSilent runs before). The blocks joined
 *   with no separator are exactly the text (marbles/channel/live-*.marble).
 * - An unknown `name` throws an LlmRxError `invalid-options` naming the known channels.
 * - `progress: true` adds `progress { id, name, status }` events for tool activity (see
 *   `toolProgress`): `toMessageEdits` carries them to the transports as a status, never as text.
 *
 * @example
 * ```ts
 * streamEvents(response).pipe(channel('telegram')).subscribe((event) => {
 *   if (event.type === 'block') bot.sendMessage(chatId, event.text);
 * });
 * channel('discord', { idleMs: 2000, reasoning: 'keep' });
 * channel('slack', { progress: true }); // tool runs as Slack task cards
 * channel('telegram', { live: true }); // first words within 250 ms
 * ```
 * @param name - one of `web`, `telegram`, `discord`, `slack`, `signal`, `msteams`, `sms`
 * @param overrides - {@link ChannelOverrides} @defaultValue the preset unchanged
 */
export function channel(
  name: ChannelName,
  overrides: ChannelOverrides = {},
): MonoTypeOperatorFunction<StreamEvent> {
  if (typeof name !== 'string' || !isChannelName(name)) {
    throw new LlmRxError(
      'invalid-options',
      `channel: unknown channel ${JSON.stringify(name)}; known channels: ${channelNames.join(', ')}.`,
    );
  }
  const options = parseOptions(`channel("${name}")`, ChannelOverrides, overrides);
  const preset = channelPresets[name];
  const minChars = options.minChars ?? preset.minChars;
  const maxChars = options.maxChars ?? preset.maxChars;
  const { scheduler } = options;

  const reasoning = options.reasoning ?? preset.reasoning;
  const stages: Array<OperatorStage<StreamEvent, StreamEvent>> = [
    normalizeReasoningStage(defined({ reasoning, tags: options.tags })),
  ];
  // sortByIndex reorders reasoning entries only, and passes every other event at once: with
  // reasoning dropped just before it, it has nothing to do, so it is left out (same output).
  if (reasoning === 'keep')
    stages.push(sortByIndexStage(defined({ windowMs: options.windowMs, scheduler })));
  stages.push(monotonicTextStage(), suppressSilentStage(defined({ tokens: options.silentTokens })));
  if (options.live) {
    if (!liveChannels.includes(name)) {
      throw new LlmRxError(
        'invalid-options',
        `channel("${name}"): live mode is for channels whose messages are edited or streamed (${liveChannels.join(', ')}).`,
      );
    }
    stages.push(liveChunkStage({ liveIntervalMs: options.liveIntervalMs ?? 250, scheduler }));
  } else if (minChars !== undefined || maxChars !== undefined) {
    if (minChars === undefined || maxChars === undefined) {
      throw new LlmRxError(
        'invalid-options',
        `channel("${name}"): chunking needs both minChars and maxChars (got ${minChars ?? '—'} and ${maxChars ?? '—'}).`,
      );
    }
    if (minChars > maxChars) {
      throw new LlmRxError(
        'invalid-options',
        `channel("${name}"): minChars (${minChars}) must not exceed maxChars (${maxChars}).`,
      );
    }
    stages.push(
      bufferChunkStage(
        defined({
          minChars,
          maxChars,
          idleMs: options.idleMs ?? preset.idleMs,
          mode: options.mode ?? preset.mode,
          breakPreference: options.breakPreference,
          flushOnParagraph: options.flushOnParagraph,
          scheduler,
        }),
      ),
    );
  }
  // Last, so a block flushed before a tool (bufferChunk) goes out before that tool's progress.
  if (options.progress) stages.push(toolProgressStage());
  // One operator, one subscriber: the stages are the single operators' own logic, called
  // directly (fuseStages), which behaves as piping the operators (fusedChannel.property.spec).
  return fuseStages(stages);
}

/** `options` without its undefined fields, so each operator applies its own defaults. */
function defined<T extends Record<string, unknown>>(options: T): T {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as T;
}
