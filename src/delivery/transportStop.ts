// The one Stop every transport has: an AbortSignal the bot hands to its model request.

/** What every transport offers for a user's Stop. */
export interface StopControl {
  /**
   * Aborted when the user stopped the answer: the platform's own Stop, or the bot's `stop()`.
   * Pass it to the provider `fetch` and to `streamEvents`, so the model request ends and the
   * tokens stop costing; the stream then ends `incomplete` `aborted`.
   */
  readonly stopSignal: AbortSignal;
  /**
   * Stops the answer from the bot's side (a `/stop` command, a button, `telegramStopOf`):
   * aborts `stopSignal` with an `AbortError` carrying `reason`. Once only; later calls change
   * nothing.
   * @param reason - why, for a person. @defaultValue `'Stopped by the user.'`
   */
  stop(reason?: string): void;
}

/**
 * A {@link StopControl} and whether it fired (for the transport's own calls: a stopped draft or
 * stream is not written again).
 */
export function createStopControl(): StopControl & { readonly stopped: boolean } {
  const controller = new AbortController();
  return {
    stopSignal: controller.signal,
    stop(reason = 'Stopped by the user.') {
      if (!controller.signal.aborted) controller.abort(new DOMException(reason, 'AbortError'));
    },
    get stopped() {
      return controller.signal.aborted;
    },
  };
}
