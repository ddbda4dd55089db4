import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import type { DeliveryWarning, TransportCall } from '../../../src/delivery/types';

/** A transport as the Slack specs call it directly (send, edit, finish). */
interface DirectTransport<Ref> {
  send(edit: MessageEdit, call: TransportCall): PromiseLike<Ref>;
  edit(ref: Ref, edit: MessageEdit, call: TransportCall): PromiseLike<Ref | void>;
  finish?(ref: Ref, edit: MessageEdit, call: TransportCall): PromiseLike<Ref | void>;
}

/**
 * Calls `transport` for `edits` as a delivery loop would, one call at a time: the first edit of
 * a message is a `send`, later ones `edit`, and its last one is followed by `finish`. A failure
 * with `retryAfterMs` waits that long, another retryable one 5 ms; a permanent one rejects.
 * Bounded: at most 50 attempts per call. The transport's warnings go to `warnings`.
 */
export async function callInOrder<Ref>(
  transport: DirectTransport<Ref>,
  edits: MessageEdit[],
  warnings?: DeliveryWarning[],
) {
  const refs = new Map<number, Ref>();
  const last = new Map(edits.map((edit) => [edit.message, edit]));
  const attempt = async (run: (ref: Ref | undefined) => PromiseLike<Ref | void>, n: number) => {
    for (let tries = 1; ; tries++) {
      try {
        const ref = await run(refs.get(n));
        if (ref !== undefined) refs.set(n, ref);
        return;
      } catch (error: any) {
        if (error?.permanent || tries >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, error?.retryAfterMs ?? 5));
      }
    }
  };
  for (const edit of edits) {
    const call = directCall(warnings);
    await attempt(
      (ref) => (ref === undefined ? transport.send(edit, call) : transport.edit(ref, edit, call)),
      edit.message,
    );
    if (last.get(edit.message) === edit && transport.finish)
      await attempt((ref) => transport.finish!(ref!, edit, call), edit.message);
  }
  return refs;
}

function directCall(warnings?: DeliveryWarning[]): TransportCall {
  return {
    attempt: 1,
    signal: new AbortController().signal,
    warn: (code, message) => warnings?.push({ code, message }),
  };
}
