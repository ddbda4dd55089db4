import type { MessageEdit } from '../../channels/messageEditPlanner';
import { parseOptions } from '../../internal/options';
import { DeliveryError } from '../../delivery/errors';
import { previewOf } from '../../delivery/healPreview';
import type { TelegramOutcome } from './telegramApi';
import {
  firstLevel,
  isFormatted,
  levelLimit,
  lowerLevel,
  piecesOf,
  type ContentLevel,
  type Piece,
} from './telegramContent';
import { createDraftRefresher, type DraftRefresher } from './telegramDrafts';
import { TelegramTransportOptions } from './telegramOptions';
import type { TransportCall } from '../../delivery/types';
import { createStopControl, type StopControl } from '../../delivery/transportStop';
import type { CallBudget } from '../../delivery/callBudget';
import { budgetedCaller } from './telegramCaller';
import { isPrivateChat, telegramChatBudget, telegramChatGates } from './telegramBudget';

export type { TelegramTransportOptions } from './telegramOptions';

/**
 * What `telegramTransport` gives `deliver` for one message: the platform messages showing it
 * (several when its text is longer than one Telegram message), and its draft while it is one.
 */
export interface TelegramRef {
  messageIds: number[];
  draftId?: number;
}

/** {@link telegramTransport}'s transport: `deliver`'s calls, its limits, its Stop, and `close()`. */
export interface TelegramTransport extends StopControl {
  send(edit: MessageEdit, call: TransportCall): Promise<TelegramRef>;
  edit(ref: TelegramRef, edit: MessageEdit, call: TransportCall): Promise<TelegramRef>;
  /** The message is final: a draft is persisted, an edited message shows the final text. */
  finish(ref: TelegramRef, edit: MessageEdit, call: TransportCall): Promise<TelegramRef>;
  readonly minIntervalMs: number;
  /** The chat's flood budget: every call passes it (`deliver` asks it when a call may start). */
  readonly budget: CallBudget;
  /** One message's limit: 4096, or 32,768 for `telegram-rich` (for `toMessageEdits`). */
  readonly maxMessageChars: number;
  /** Whether messages are drafted now (false after a TEXTDRAFT_PEER_INVALID). */
  readonly drafting: boolean;
  /** Whether `draftId` (of a `stopped_message_generation` update) is one of this answer's drafts. */
  hasDraft(draftId: number): boolean;
  /** Stops every draft refresh timer (the transport is done; `deliver` finishing does this too). */
  close(): void;
}

interface MessageState {
  level: ContentLevel;
  /** What each platform message of the ref shows (its piece as JSON). */
  shown: string[];
}

/**
 * A transport for the Telegram Bot API, for `deliver`, that streams natively where it can.
 *
 * ```
 * private chat (drafts):  send → sendMessageDraft   edit → sendMessageDraft (same draft_id)
 *                         … every draftRefreshMs without a new text → the same draft again
 *                         finish → sendMessage (the final text, persisted; the draft goes)
 * group, or TEXTDRAFT_PEER_INVALID:  send → sendMessage   edit → editMessageText   finish → (edit if needed)
 * ```
 *
 * - Drafts carry `can_stop: true` (Bot API 10.3). The user's Stop (`telegramStopOf` → `stop()`,
 *   or a draft call refused as stopped) aborts `stopSignal`; no draft is written after it, and
 *   `finish` persists the partial text (with `deliver`'s stop notice) as a message.
 * - One `draft_id` per message. Telegram rejected drafts once (TEXTDRAFT_PEER_INVALID): that
 *   call is retried at once as a message, and drafts stay off for the transport's life.
 * - A text longer than one Telegram message continues in further messages (the ref lists them
 *   all); a draft shows the last part, `finish` persists every part in order. Never truncated.
 * - Formatting Telegram refuses falls back once per message, each step retried at once: rich
 *   → entities → plain text (`rendered.plain`), with a `plain-text-fallback` warning.
 * - Failures are classified once: 429 → `retryAfterMs`; "not modified" → delivered; 401, 403,
 *   chat not found and other 4xx → `permanent`; 5xx and network → retried with backoff.
 * - The ref is plain JSON and all a new transport needs (a ledger, a restart): an open draft
 *   (`draftId`, no `messageIds`) is written again under its `draft_id` and persisted by
 *   `finish`, even when it expired meanwhile (a draft is never a message, so nothing doubles);
 *   persisted messages are edited part by part (what they show is only cached in memory: a
 *   part already showing its text answers "not modified", which is delivered).
 *
 * @example
 * ```ts
 * const bot = telegramTransport({ token: process.env.BOT_TOKEN!, chatId: update.message.chat.id });
 * events$.pipe(
 *   channel('telegram'),
 *   toMessageEdits({ maxMessageChars: bot.maxMessageChars, render: 'telegram' }),
 *   deliver(bot),
 * );
 * ```
 * @param options - {@link TelegramTransportOptions}
 */
export function telegramTransport(options: TelegramTransportOptions): TelegramTransport {
  const settings = parseOptions('telegramTransport', TelegramTransportOptions, options);
  return createTelegramTransport(settings, {
    budget: telegramChatBudget(telegramChatGates(settings), [], settings.scheduler),
  });
}

/** What a transport shares with others of its bot (createTelegramBot): its chat's budget. */
export interface TelegramTransportShared {
  budget: CallBudget;
}

/** {@link telegramTransport} from checked settings, with a budget that may be shared. */
export function createTelegramTransport(
  settings: ReturnType<typeof TelegramTransportOptions.parse>,
  { budget }: TelegramTransportShared,
): TelegramTransport {
  const { format, messageThreadId } = settings;
  // Every call of this chat passes its budget (and the token's, in a bot).
  const api = budgetedCaller(settings, budget);
  const isPrivate = isPrivateChat(settings);
  let drafting = settings.mode === 'draft' || (settings.mode === 'auto' && isPrivate);
  const states = new WeakMap<TelegramRef, MessageState>();
  const control = createStopControl();
  const draftIds = new Set<number>();
  // A send that failed half-way (a 429 after its first part) is continued, not repeated.
  const pendingSends = new Map<number, TelegramRef>();
  const thread = messageThreadId === undefined ? {} : { message_thread_id: messageThreadId };
  // Calls go out one at a time, refreshes included, in the order they were asked for.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = chain.then(work, work);
    chain = run.catch(() => undefined);
    return run;
  };

  const refresher: DraftRefresher<TelegramRef> = createDraftRefresher({
    scheduler: settings.scheduler,
    refreshMs: settings.draftRefreshMs,
    // Checked when the refresh's turn comes: a message persisted meanwhile is not drafted again.
    write: (ref, piece, signal) =>
      serial(async () =>
        isDraft(ref) && !control.stopped ? writeDraft(ref, piece, signal) : undefined,
      ),
  });
  control.stopSignal.addEventListener('abort', () => refresher.close(), { once: true });

  const isDraft = (ref: TelegramRef) =>
    ref.draftId !== undefined && ref.messageIds.length === 0 && drafting;

  const stateOf = (ref: TelegramRef): MessageState => {
    let state = states.get(ref);
    if (!state) states.set(ref, (state = { level: firstLevel(format), shown: [] }));
    return state;
  };

  const writeDraft = (ref: TelegramRef, piece: Piece, signal: AbortSignal) =>
    'rich' in piece
      ? api(
          'sendRichMessageDraft',
          { ...thread, draft_id: ref.draftId, can_stop: true, rich_message: piece.rich },
          signal,
        )
      : api(
          'sendMessageDraft',
          { ...thread, draft_id: ref.draftId, can_stop: true, ...piece },
          signal,
        );

  /** Throws what `outcome` says, after lowering the message's level or leaving drafts. */
  const fail = (state: MessageState, outcome: TelegramOutcome & { ok: false }): never => {
    const { error, fallback } = outcome;
    const retryNow = (why: string) =>
      new DeliveryError(`${error.message}; ${why}`, { retryAfterMs: 0, status: error.status });
    if (fallback === 'draft-peer-invalid' && drafting) {
      drafting = false;
      const why = /TEXTDRAFT_PEER_INVALID/.test(error.message)
        ? 'drafts are for private chats'
        : 'this Bot API server refuses drafts';
      throw retryNow(`${why}: sending messages from now on`);
    }
    const rejected =
      (fallback === 'rich-rejected' && state.level === 'rich') ||
      (fallback === 'formatting' && state.level === 'formatted');
    if (rejected) {
      state.level = lowerLevel(state.level)!;
      throw retryNow(`retrying ${state.level === 'plain' ? 'as plain text' : 'with entities'}`);
    }
    throw error;
  };

  const warnIfLowered = (state: MessageState, pieces: Piece[], call: TransportCall) => {
    if (state.level === firstLevel(format)) return;
    const what = state.level === 'plain' ? 'sent as plain text' : 'sent with entities';
    if (state.level === 'plain' || pieces.some(isFormatted)) {
      call.warn('plain-text-fallback', `Telegram rejected this formatting once; ${what}.`);
    }
  };

  /** Shows `edit` as the message as a draft (its last part). */
  const draft = async (ref: TelegramRef, edit: MessageEdit, call: TransportCall) => {
    // A stopped draft is not written again: `finish` persists its text as a message.
    if (control.stopped) return;
    const state = stateOf(ref);
    const pieces = piecesOf(edit, format, state.level);
    warnIfLowered(state, pieces, call);
    const piece = pieces[pieces.length - 1];
    const outcome = await writeDraft(ref, piece, call.signal);
    if (!outcome.ok && outcome.fallback === 'draft-stopped') return control.stop();
    if (!outcome.ok) fail(state, outcome);
    refresher.wrote(ref, piece, call.signal);
  };

  /** Makes the ref's messages show `edit` (parts that changed edited, new ones sent); `finish`: final. */
  const show = async (ref: TelegramRef, edit: MessageEdit, call: TransportCall, finish = false) => {
    const state = stateOf(ref);
    const pieces = piecesOf(edit, format, state.level);
    let calls = 0;
    for (const [index, piece] of pieces.entries()) {
      const key = JSON.stringify(piece);
      const messageId = ref.messageIds[index];
      if (messageId !== undefined && state.shown[index] === key) continue;
      // Said on every call that sends the lowered content, not on a finish that sends nothing.
      if (calls++ === 0) warnIfLowered(state, pieces, call);
      const fields = 'rich' in piece ? { rich_message: piece.rich } : piece;
      const outcome =
        messageId !== undefined
          ? await api('editMessageText', { message_id: messageId, ...fields }, call.signal, finish)
          : await api(
              'rich' in piece ? 'sendRichMessage' : 'sendMessage',
              { ...thread, ...fields },
              call.signal,
              finish,
            );
      if (!outcome.ok && !outcome.error.notModified) fail(state, outcome);
      if (messageId === undefined) ref.messageIds.push(readMessageId(outcome));
      state.shown[index] = key;
    }
  };

  // Drafts, edits: open markdown healed, tool status line; `finish` sends the text as written.
  const preview = (edit: MessageEdit) => previewOf(edit, levelLimit(firstLevel(format)));
  let draftCount = 0;
  const draftBase = Math.floor(Math.random() * 2 ** 30);

  return {
    // The budget paces every call, counted from answers; deliver only asks it when to take a text.
    minIntervalMs: 0,
    budget,
    maxMessageChars: levelLimit(firstLevel(format)),
    get drafting() {
      return drafting;
    },
    stopSignal: control.stopSignal,
    stop: control.stop,
    hasDraft: (draftId) => draftIds.has(draftId),
    send(given, call) {
      const edit = preview(given);
      const resumed = call.attempt > 1 ? pendingSends.get(edit.message) : undefined;
      const ref: TelegramRef = resumed ?? { messageIds: [] };
      pendingSends.set(edit.message, ref);
      return serial(async () => {
        if (drafting && !control.stopped && ref.messageIds.length === 0) {
          ref.draftId ??= draftBase + ++draftCount;
          draftIds.add(ref.draftId);
          await draft(ref, edit, call);
        } else {
          refresher.stop(ref);
          await show(ref, edit, call);
        }
        pendingSends.delete(edit.message);
        return ref;
      });
    },
    edit(ref, given, call) {
      const edit = preview(given);
      return serial(async () => {
        if (isDraft(ref)) await draft(ref, edit, call);
        else {
          refresher.stop(ref);
          await show(ref, edit, call);
        }
        return ref;
      });
    },
    finish(ref, edit, call) {
      return serial(async () => {
        await show(ref, edit, call, true);
        refresher.stop(ref);
        return ref;
      });
    },
    close: () => refresher.close(),
  };
}

function readMessageId(outcome: TelegramOutcome): number {
  const id = outcome.ok ? (outcome.result as { message_id?: unknown } | undefined)?.message_id : 0;
  if (typeof id !== 'number') {
    throw new DeliveryError('Telegram: the answer has no message_id.', { permanent: true });
  }
  return id;
}
