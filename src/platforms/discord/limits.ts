// Discord's message limits: its row of `platformLimits`.

import type { PlatformLimit } from '../limits';

export const discordLimits: PlatformLimit = {
  maxMessageChars: 2000,
  source: 'Create Message: 2000 characters.',
};
