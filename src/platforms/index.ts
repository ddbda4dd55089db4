// The chat apps: one folder each (src/platforms/<app>/, everything that app needs), and here their
// limits in one table that channel presets, renderMarkdown's default maxLength and the transports
// read. Adding an app is one new folder plus its line in this table.

import { discordLimits } from './discord/limits';
import { googleChatLimits } from './googlechat/limits';
import type { PlatformLimit } from './limits';
import { slackLimits } from './slack/limits';
import { teamsLimits } from './teams/limits';
import { telegramLimits, telegramRichLimits } from './telegram/limits';
import { whatsappLimits } from './whatsapp/limits';

export type { PlatformLimit } from './limits';

/** The platforms llm-rx knows a limit for. */
export type PlatformName =
  | 'telegram'
  | 'telegram-rich'
  | 'slack'
  | 'discord'
  | 'signal'
  | 'msteams'
  | 'sms'
  | 'whatsapp'
  | 'googlechat';

/**
 * One message's size limit per chat platform, read by `channelPresets`, `renderMarkdown`
 * (its default `maxLength`) and the transports (their `maxMessageChars`).
 *
 * | platform | one message at most | native stream |
 * |---|---|---|
 * | telegram | 4096 | (drafts: 4096) |
 * | telegram-rich | 32,768 | (rich drafts: 32,768) |
 * | slack | 4000 | 12,000 |
 * | discord | 2000 | — |
 * | signal | 2000 | — |
 * | msteams | 28,000 | — |
 * | sms | 160 | — |
 * | whatsapp | 4096 | — (no edits: a typing indicator while it streams) |
 * | googlechat | 4096 (the API: 32,000 bytes) | — |
 *
 * @example
 * ```ts
 * toMessageEdits({ maxMessageChars: platformLimits.telegram.maxMessageChars, render: 'telegram' });
 * ```
 */
export const platformLimits: Readonly<Record<PlatformName, PlatformLimit>> = Object.freeze({
  telegram: telegramLimits,
  'telegram-rich': telegramRichLimits,
  slack: slackLimits,
  discord: discordLimits,
  signal: {
    maxMessageChars: 2000,
    source: 'Over 2,000 characters becomes a long-text attachment.',
  },
  msteams: teamsLimits,
  sms: {
    maxMessageChars: 160,
    source: 'One GSM-7 segment: 160 characters.',
  },
  whatsapp: whatsappLimits,
  googlechat: googleChatLimits,
} satisfies Record<PlatformName, PlatformLimit>);
