// Telegram's message limits: its row of `platformLimits`.

import type { PlatformLimit } from '../limits';

export const telegramLimits: PlatformLimit = {
  maxMessageChars: 4096,
  source:
    'Bot API sendMessage, editMessageText, sendMessageDraft: 1-4096 characters after entities.',
};

export const telegramRichLimits: PlatformLimit = {
  maxMessageChars: 32768,
  source: 'Bot API sendRichMessage: 32,768 characters.',
};
