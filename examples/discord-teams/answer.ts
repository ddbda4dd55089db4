import { lastValueFrom, toArray } from 'rxjs';
import {
  channel,
  deliver,
  discordTransport,
  streamEvents,
  teamsTransport,
  toMessageEdits,
} from '../../src/index';
import type {
  DeliveryReport,
  DiscordTransportOptions,
  TeamsTransportOptions,
} from '../../src/index';

/**
 * Answers in a Discord channel or thread: a message created, then edited as the answer grows,
 * paced by Discord's own `X-RateLimit-*` headers. `options`: `{ token, channelId }`.
 */
export function answerInDiscord(
  response: Response,
  options: DiscordTransportOptions,
): Promise<DeliveryReport[]> {
  const discord = discordTransport(options);
  return lastValueFrom(
    streamEvents(response).pipe(
      channel('discord', { live: true }), // live: whole words as they come (≤ 250 ms)
      toMessageEdits({
        maxMessageChars: discord.maxMessageChars,
        separator: '',
        render: 'discord',
      }),
      deliver(discord),
      toArray(),
    ),
  );
}

/** What a Bot Framework activity says about the conversation it came from. */
export interface TeamsActivity {
  serviceUrl: string;
  conversation: { id: string; conversationType?: string };
}

/**
 * Answers a Teams activity: streamed in a 1:1 chat (`typing` activities, then the final
 * message), posted and updated in group chats and channels. `options`: `{ token }` or
 * `{ getToken }` (a Bot Framework token, refreshed by you).
 */
export function answerInTeams(
  response: Response,
  activity: TeamsActivity,
  options: Omit<TeamsTransportOptions, 'serviceUrl' | 'conversationId'>,
): Promise<DeliveryReport[]> {
  const teams = teamsTransport({
    isPersonalChat: activity.conversation.conversationType === 'personal',
    ...options,
    serviceUrl: activity.serviceUrl,
    conversationId: activity.conversation.id,
  });
  return lastValueFrom(
    streamEvents(response).pipe(
      channel('msteams', { live: true }),
      toMessageEdits({ maxMessageChars: teams.maxMessageChars, separator: '' }),
      deliver(teams),
      toArray(),
    ),
  );
}
