// Telegram's flood limits as budgets: per chat by its type, per bot token across chats.
import type { SchedulerLike } from 'rxjs';
import {
  createCallBudget,
  createCallGate,
  type CallBudget,
  type CallGate,
} from '../../delivery/callBudget';

/** What decides a chat's budget. */
export interface TelegramChatLimits {
  chatId: number | string;
  chatType?: 'private' | 'group' | 'supergroup' | 'channel';
  minIntervalMs: number;
  groupMaxCalls: number;
  groupWindowMs: number;
}

/**
 * Whether `chatId` names a private chat: Telegram gives a private chat the user's (positive)
 * id, groups and channels negative ids; an `@name` is a channel or supergroup.
 */
export function isPrivateChat({
  chatId,
  chatType,
}: Pick<TelegramChatLimits, 'chatId' | 'chatType'>) {
  if (chatType !== undefined) return chatType === 'private';
  return typeof chatId === 'number' ? chatId > 0 : /^[1-9]\d*$/.test(chatId);
}

/**
 * The gates of one chat: one call per `minIntervalMs` (from the previous answer), and for a
 * group, supergroup or channel also `groupMaxCalls` per `groupWindowMs` (bots FAQ: "no more
 * than 20 messages per minute" in a group).
 */
export function telegramChatGates(limits: TelegramChatLimits): CallGate[] {
  const gates = [createCallGate(1, limits.minIntervalMs)];
  if (!isPrivateChat(limits))
    gates.push(createCallGate(limits.groupMaxCalls, limits.groupWindowMs));
  return gates;
}

/** A chat's budget: its own gates, plus those shared by the bot's token (none when standalone). */
export function telegramChatBudget(
  chatGates: CallGate[],
  tokenGates: CallGate[],
  scheduler: SchedulerLike,
): CallBudget {
  return createCallBudget(chatGates, tokenGates, scheduler);
}
