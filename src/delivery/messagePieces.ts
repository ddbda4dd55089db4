// The texts that show one message on an app whose messages hold at most `maxChars`: what every
// transport that posts plain strings (no entities) needs, split by the project's cut rules.

import type { MessageEdit } from '../channels/messageEditPlanner';
import { splitToFit } from '../channels/messageEditPlanner';
import { renderMessages } from '../render/renderMarkdown';
import type { RenderFormat } from '../render/types';
import { DeliveryError } from './errors';
import type { TransportCall } from './types';
import { createStopControl, type StopControl } from './transportStop';

/** Where {@link messagePieces} renders and splits, and who asks (for its messages). */
export interface MessagePiecesOptions {
  format: RenderFormat;
  maxChars: number;
  /** Names the transport in a refusal, e.g. `whatsappTransport`. */
  transport: string;
}

/**
 * The strings that show `edit`, each within `maxChars`: `edit.rendered` as it is (split at a
 * line break or space when longer: never truncated), else `edit.text` rendered for `format`,
 * cut between blocks by `renderMarkdown`'s rules (a fence closed and reopened, a table kept
 * whole where it fits). None when nothing is visible. A rendering for another format is a
 * permanent {@link DeliveryError} naming the `render` option to use.
 */
export function messagePieces(edit: MessageEdit, options: MessagePiecesOptions): string[] {
  const { format, maxChars, transport } = options;
  const rendered = edit.rendered;
  if (!rendered) {
    return renderMessages(edit.text, format, { maxLength: maxChars }).map(
      (message) => message.rendered.text,
    );
  }
  if (rendered.format !== format) {
    throw new DeliveryError(
      `${transport}: message ${edit.message} was rendered for ${rendered.format}; use toMessageEdits({ render: '${format}' }) or no render at all.`,
      { permanent: true },
    );
  }
  return rendered.text.length <= maxChars ? [rendered.text] : splitToFit(rendered.text, maxChars);
}

/**
 * The `send` of a transport that posts a message as several parts: `show(ref, pieces)` brings
 * the parts of `ref` to `pieces` (posting the missing ones, adding each to `ref`, which starts
 * as `empty()`). A retry of a send that failed after posting some parts (attempt 2 and later)
 * goes on from them instead of posting them again. A message with nothing visible is a
 * permanent {@link DeliveryError}.
 */
export function createPartedSend<Ref>(transport: string, empty: () => Ref) {
  const unfinished = new Map<number, Ref>();
  return async (
    edit: MessageEdit,
    attempt: number,
    pieces: string[],
    show: (ref: Ref, pieces: string[]) => Promise<unknown>,
  ): Promise<Ref> => {
    if (pieces.length === 0) {
      throw new DeliveryError(
        `${transport}: message ${edit.message} has no visible text to send.`,
        {
          permanent: true,
        },
      );
    }
    const ref = (attempt > 1 ? unfinished.get(edit.message) : undefined) ?? empty();
    unfinished.set(edit.message, ref);
    await show(ref, pieces);
    unfinished.delete(edit.message);
    return ref;
  };
}

/**
 * The methods of a transport that shows a message as several parts (Discord, Google Chat): `send`
 * posts the pieces of the edit's preview (a retry goes on from the parts already posted), `edit`
 * brings the parts to the preview's pieces, `finish` to the text's own pieces; a text with
 * nothing visible leaves the messages as they are (the apps reject an empty text). With the
 * transport's {@link StopControl}.
 */
export function createPartedMessages<Ref>(parts: {
  /** Names the transport in a refusal, e.g. `discordTransport`. */
  transport: string;
  /** A ref with no part yet. */
  empty: () => Ref;
  maxMessageChars: number;
  piecesOf: (edit: MessageEdit) => string[];
  /** What an unfinished message shows (healed markdown, a status line). */
  preview: (edit: MessageEdit) => MessageEdit;
  /** Brings the parts of `ref` to `pieces`, adding each part it posts to `ref`. */
  show: (ref: Ref, pieces: string[], call: TransportCall) => Promise<Ref>;
}) {
  const { piecesOf, preview, show } = parts;
  const sendInParts = createPartedSend(parts.transport, parts.empty);
  const update = async (ref: Ref, edit: MessageEdit, call: TransportCall): Promise<Ref> => {
    const pieces = piecesOf(edit);
    return pieces.length === 0 ? ref : show(ref, pieces, call);
  };
  const control = createStopControl();
  return {
    stopSignal: control.stopSignal,
    stop: control.stop,
    maxMessageChars: parts.maxMessageChars,
    // async: a refusal of the edit (a rendering for another app) is a rejection, never a throw.
    send: async (edit: MessageEdit, call: TransportCall) =>
      sendInParts(edit, call.attempt, piecesOf(preview(edit)), (ref, pieces) =>
        show(ref, pieces, call),
      ),
    edit: (ref: Ref, edit: MessageEdit, call: TransportCall) => update(ref, preview(edit), call),
    finish: update,
  };
}
