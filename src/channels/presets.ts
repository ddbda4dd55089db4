import { platformLimits, type PlatformName } from '../platforms';

/**
 * How one channel wants a reply delivered: the block sizes its users read comfortably, how long a
 * pause flushes what is held, whether reasoning is shown, and the hard size of one message.
 */
export interface ChannelPreset {
  /**
   * Smallest block worth sending: a block is cut at the first break at or past it.
   * `undefined` = no chunking, text deltas pass as they come (web).
   */
  readonly minChars?: number;
  /** Largest block; also ≤ the platform's limit for one message. `undefined` = no chunking. */
  readonly maxChars?: number;
  /** A pause this long after the last delta sends what is held, even below `minChars`. */
  readonly idleMs?: number;
  /** bufferChunk mode: `stream` sends blocks while the model writes. */
  readonly mode?: 'stream' | 'end';
  /** `keep` shows reasoning (web renders it dimmed); `drop` removes it before the channel. */
  readonly reasoning: 'keep' | 'drop';
  /** The platform's hard limit for one message, for `toMessageEdits`. `undefined` = none. */
  readonly maxMessageChars?: number;
  /** Where the limit comes from, in one line. */
  readonly limitSource: string;
}

/** The channels llm-rx ships a preset for. */
export type ChannelName =
  | 'web'
  | 'telegram'
  | 'discord'
  | 'slack'
  | 'signal'
  | 'msteams'
  | 'sms'
  | 'whatsapp'
  | 'googlechat';

/**
 * An IM channel: blocks of minChars..maxChars sent while the model writes, flushed after 1 s
 * idle, reasoning dropped; one message holds the platform's limit (`platformLimits`), and a
 * block is at most that (`maxChars` defaults to it).
 */
function imPreset(
  platform: PlatformName,
  minChars: number,
  maxChars = platformLimits[platform].maxMessageChars,
): ChannelPreset {
  const { maxMessageChars, source } = platformLimits[platform];
  return {
    minChars,
    maxChars: Math.min(maxChars, maxMessageChars),
    idleMs: 1000,
    mode: 'stream',
    reasoning: 'drop',
    maxMessageChars,
    limitSource: source,
  };
}

// minChars: blocks below it arrive too often on IM channels (each one is a push notification).
// idleMs: one second without a delta means the model paused (a tool, a long think): send what
// is held so the user is not left waiting.
/**
 * The per-channel presets `channel(name)` composes. Plain data: read it, or take fields from
 * one as `channel(name, overrides)`. Pick the fields you want rather than spreading a whole
 * preset: `maxMessageChars` and `limitSource` are not overrides, and `channel()` rejects an
 * unknown key.
 *
 * | name | minChars | maxChars | idleMs | reasoning | one message at most |
 * |---|---|---|---|---|---|
 * | web | — | — | — | keep | — |
 * | telegram | 800 | 4096 | 1000 | drop | 4096 |
 * | discord | 1500 | 2000 | 1000 | drop | 2000 |
 * | slack | 1500 | 4000 | 1000 | drop | 4000 |
 * | signal | 1500 | 2000 | 1000 | drop | 2000 |
 * | msteams | 1500 | 4000 | 1000 | drop | 28,000 |
 * | sms | 120 | 160 | 1000 | drop | 160 |
 * | whatsapp | 1500 | 4096 | 1000 | drop | 4096 |
 * | googlechat | 1500 | 4096 | 1000 | drop | 4096 |
 *
 * Characters are JavaScript string length (UTF-16 code units): never fewer than what Telegram,
 * Discord or Slack count, so a block within the limit here is within it there.
 *
 * @example
 * ```ts
 * channelPresets.telegram.maxChars; // 4096
 * // discord with slack's block sizes, reasoning kept
 * const { minChars, maxChars, idleMs, mode } = channelPresets.slack;
 * channel('discord', { minChars, maxChars, idleMs, mode, reasoning: 'keep' });
 * ```
 */
export const channelPresets: Readonly<Record<ChannelName, ChannelPreset>> = Object.freeze({
  web: {
    reasoning: 'keep',
    limitSource: 'A web UI renders deltas as they arrive; it has no message size limit.',
  },
  telegram: imPreset('telegram', 800),
  discord: imPreset('discord', 1500),
  slack: imPreset('slack', 1500),
  signal: imPreset('signal', 1500),
  // 4,000 characters keeps a Teams block readable, well inside the message limit.
  msteams: imPreset('msteams', 1500, 4000),
  sms: imPreset('sms', 120),
  whatsapp: imPreset('whatsapp', 1500),
  googlechat: imPreset('googlechat', 1500),
} satisfies Record<ChannelName, ChannelPreset>);

/** The names of every preset, in table order (for error messages and the CLI). */
export const channelNames = Object.keys(channelPresets) as ChannelName[];

/** True when `name` is one of the shipped presets. */
export function isChannelName(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(channelPresets, name);
}
