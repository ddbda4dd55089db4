import { isObservable, Subscription, type Observable } from 'rxjs';
import type { StreamEvent } from '../events';

/** What a handler may return: nothing (done at once), a Promise, or an Observable (done on complete). */
export type EventHandlerResult = void | PromiseLike<unknown> | Observable<unknown>;

/** A side effect run for each event: send, edit, persist. */
export type EventHandler = (event: StreamEvent) => EventHandlerResult;

/**
 * Calls the handler and reports, once, when its work settled (`failure` set when it threw,
 * rejected or errored). The returned Subscription cancels the work: an Observable is
 * unsubscribed, a Promise's late outcome is ignored (its rejection is still caught).
 */
export function runHandler(
  handler: EventHandler,
  event: StreamEvent,
  settled: (failure?: { error: unknown }) => void,
): Subscription {
  const cancel = new Subscription();
  let result: EventHandlerResult;
  try {
    result = handler(event);
  } catch (error) {
    settled({ error });
    return cancel;
  }
  if (isObservable(result)) {
    cancel.add(
      result.subscribe({
        error: (error: unknown) => settled({ error }),
        complete: () => settled(),
      }),
    );
    return cancel;
  }
  if (isPromiseLike(result)) {
    // Both callbacks are passed, so a rejection is always handled, even after cancellation.
    result.then(
      () => {
        if (!cancel.closed) settled();
      },
      (error: unknown) => {
        if (!cancel.closed) settled({ error });
      },
    );
    return cancel;
  }
  settled();
  return cancel;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}
