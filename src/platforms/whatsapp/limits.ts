// WhatsApp's message limits: its row of `platformLimits`.

import type { PlatformLimit } from '../limits';

export const whatsappLimits: PlatformLimit = {
  maxMessageChars: 4096,
  source: 'Cloud API text message: body up to 4096 characters.',
};
