// Microsoft Teams's message limits: its row of `platformLimits`.

import type { PlatformLimit } from '../limits';

export const teamsLimits: PlatformLimit = {
  maxMessageChars: 28000,
  source: 'Teams: about 28 KB per message.',
};
