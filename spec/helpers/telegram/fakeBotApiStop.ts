// The fake Bot API's Stop button on drafts (Bot API 10.3: `can_stop`, `stopped_message_generation`).

/**
 * What the fake says to a draft call after the user stopped that draft. The Bot API pages kept
 * for this project describe the button (`can_stop`: "show the user a button to stop further
 * drafts") and the update (`MessageGenerationStopped { chat, message_thread_id?, draft_id }`),
 * not the answer to a later write: the fake refuses it with this 400.
 */
export const STOPPED_DRAFT = 'Bad Request: MESSAGE_GENERATION_STOPPED';

/** A draft as the stop rules need it. */
interface StoppableDraft {
  draftId: number;
  canStop: boolean;
  threadId?: number;
}

/** The drafts users stopped, per chat, and the updates their Stop produced. */
export function createDraftStops() {
  const stopped = new Set<string>();
  let updateId = 700_000;
  return {
    /** Whether a write to `draftId` in `chat` is refused (the user stopped it). */
    refuses: (chat: string, draftId: unknown) => stopped.has(`${chat}:${String(draftId)}`),
    /**
     * The user presses Stop on `draft`: the draft is stopped for good and Telegram sends the bot
     * this `Update`. Throws when the draft was not sent with `can_stop: true` (no button shows).
     */
    press(chat: string, draft: StoppableDraft | undefined) {
      if (!draft) throw new Error(`the fake Bot API: chat ${chat} shows no draft to stop`);
      if (!draft.canStop) throw new Error('the fake Bot API: this draft has no Stop (can_stop)');
      stopped.add(`${chat}:${draft.draftId}`);
      return {
        update_id: ++updateId,
        stopped_message_generation: {
          chat: { id: Number(chat), type: 'private' },
          draft_id: draft.draftId,
          ...(draft.threadId === undefined ? {} : { message_thread_id: draft.threadId }),
        },
      };
    },
  };
}
