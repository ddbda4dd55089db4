// Google Chat's message limits: its row of `platformLimits`.

import type { PlatformLimit } from '../limits';

export const googleChatLimits: PlatformLimit = {
  // The API's bound is 32,000 bytes a message; 4096 characters stay under it in any script
  // (4 UTF-8 bytes a character at most) and keep a message readable.
  maxMessageChars: 4096,
  source: 'spaces.messages.create: 32,000 bytes a message; 4096 characters always fit.',
};
