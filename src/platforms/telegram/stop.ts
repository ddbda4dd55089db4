// Telegram's Stop button on a draft (Bot API 10.3): the update that says a user pressed it.

/** Which answer a user stopped: the chat, the draft, and its topic when it has one. */
export interface TelegramStop {
  chatId: number;
  draftId: number;
  messageThreadId?: number;
}

/**
 * Reads a `stopped_message_generation` update (the user pressed Stop on a draft the bot sent
 * with `can_stop: true`) and tells which chat and draft it stops, or `undefined` for any other
 * update. The bot then calls `stop()` on the transport answering in that chat
 * (`transport.hasDraft(draftId)` tells it apart from another answer in the same chat).
 *
 * ```
 * update:  { update_id, stopped_message_generation: { chat: { id }, draft_id, message_thread_id? } }
 * result:  { chatId, draftId, messageThreadId? }
 * ```
 *
 * @example
 * ```ts
 * bot.on('stopped_message_generation', (ctx) => {
 *   const stop = telegramStopOf(ctx.update);
 *   if (stop) answering.get(stop.chatId)?.stop();
 * });
 * ```
 * @param update - one Telegram `Update` object, as the webhook or `getUpdates` gives it
 */
export function telegramStopOf(update: unknown): TelegramStop | undefined {
  const stopped = (update as { stopped_message_generation?: unknown } | null)
    ?.stopped_message_generation as
    { chat?: { id?: unknown }; draft_id?: unknown; message_thread_id?: unknown } | undefined;
  const chatId = stopped?.chat?.id;
  const draftId = stopped?.draft_id;
  if (typeof chatId !== 'number' || typeof draftId !== 'number') return undefined;
  const thread = stopped?.message_thread_id;
  return { chatId, draftId, ...(typeof thread === 'number' ? { messageThreadId: thread } : {}) };
}

/**
 * A draft call refused because the user stopped that draft. The Bot API pages kept here do not
 * give this answer's text; the fake Bot API answers `400 Bad Request: MESSAGE_GENERATION_STOPPED`,
 * and the transport also takes any 400 that names a stopped draft or generation as this.
 */
export function isStoppedDraftAnswer(status: number, description: string): boolean {
  return status === 400 && /GENERATION_STOPPED|(draft|generation).{0,20}stopped/i.test(description);
}
