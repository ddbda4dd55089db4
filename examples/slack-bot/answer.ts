import { lastValueFrom, toArray } from 'rxjs';
import { channel, deliver, slackTransport, streamEvents, toMessageEdits } from '../../src/index';
import type { DeliveryReport, SlackTransportOptions } from '../../src/index';

/** What a Bolt `app_mention` or `message` handler knows about the message it answers. */
export interface SlackMention {
  channel: string;
  ts: string;
  thread_ts?: string;
  user: string;
  team: string;
}

/**
 * Answers a Slack message in its thread with the model's streamed `response`: natively streamed
 * (`chat.startStream` / `appendStream` / `stopStream`), falling back to `chat.postMessage` +
 * `chat.update` when Slack refuses a stream. Resolves with the delivery reports.
 */
export async function answerInSlack(
  response: Response,
  mention: SlackMention,
  options: Omit<SlackTransportOptions, 'channel'>, // { token }; apiBase and fetch for tests
): Promise<DeliveryReport[]> {
  const slack = slackTransport({
    ...options,
    channel: mention.channel,
    threadTs: mention.thread_ts ?? mention.ts, // a reply in the user's thread
    recipientUserId: mention.user, // Slack requires both outside DMs
    recipientTeamId: mention.team,
  });
  return lastValueFrom(
    streamEvents(response).pipe(
      channel('slack', { live: true }),
      toMessageEdits({ maxMessageChars: slack.maxMessageChars, separator: '' }), // 12,000 while streaming
      deliver(slack),
      toArray(),
    ),
  );
}
