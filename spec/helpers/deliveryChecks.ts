import type { MessageEdit } from '../../src/channels/messageEditPlanner';

/** What the fake server holds for one message: its current text and every text it showed. */
export interface HeldMessage {
  text: string;
  history: string[];
}

/** The text a transport sends for an edit: the rendered text when there is one. */
export const sentTextOf = (edit: MessageEdit): string => edit.rendered?.text ?? edit.text;

/**
 * Checks the server holds exactly the planned messages: one per planned message number, in
 * order, each ending on its planned final text; every text a message showed is one of its
 * planned texts, later than the one before (never an older text after a newer one), and the
 * planned texts only grow. Returns the planned final texts.
 */
export function expectDeliveredAsPlanned(held: HeldMessage[], planned: MessageEdit[]): string[] {
  const byMessage = new Map<number, string[]>();
  for (const edit of planned) {
    const texts = byMessage.get(edit.message) ?? [];
    texts.push(sentTextOf(edit));
    byMessage.set(edit.message, texts);
  }
  const numbers = [...byMessage.keys()];
  expect(numbers).toEqual(numbers.map((_, i) => i));
  const finals = numbers.map((n) => byMessage.get(n)!.at(-1)!);
  expect(held.map((message) => message.text)).toEqual(finals);
  held.forEach((message, n) => {
    const plan = byMessage.get(n)!;
    const positions = message.history.map((text) => plan.lastIndexOf(text));
    expect({ message: n, positions: positions.filter((p) => p < 0) }).toEqual({
      message: n,
      positions: [],
    });
    const later = positions.every((p, i) => i === 0 || p > positions[i - 1]);
    expect({ message: n, positions, later }).toEqual({ message: n, positions, later: true });
    const plainPlan = planned.filter((edit) => edit.message === n).map((edit) => edit.text);
    expect(plainPlan.every((text, i) => i === 0 || text.startsWith(plainPlan[i - 1]))).toBe(true);
  });
  return finals;
}

/** Telegram messages as the fake holds them: the final entities or parse mode. */
export interface HeldTelegramMessage extends HeldMessage {
  entities?: unknown[];
  parseMode?: string;
}

/** The server's messages carry the planned final formatting: the same entities, or HTML. */
export function expectPlannedFormatting(held: HeldTelegramMessage[], planned: MessageEdit[]): void {
  const finals = new Map(planned.map((edit) => [edit.message, edit.rendered]));
  expect(held.map((message) => [message.entities ?? [], message.parseMode])).toEqual(
    [...finals.values()].map((rendered) => [rendered?.entities ?? [], rendered?.parseMode]),
  );
}
