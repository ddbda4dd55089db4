// Slack's message limits: its row of `platformLimits`.

import type { PlatformLimit } from '../limits';

export const slackLimits: PlatformLimit = {
  maxMessageChars: 4000,
  maxStreamChars: 12000,
  source: 'chat.postMessage: under 4,000 characters; a stream: 12,000.',
};
