import { LlmRxError } from '../../errors';

// The stop signals of one log on one node: a controller per stream id that someone asked a
// signal for, or stopped. Both backends keep them here; Redis adds the way stops reach other nodes.

/** The message of a stop, with the reason a caller gave (or none). */
export function stopMessage(reason: string | undefined): string {
  return reason === undefined || reason === '' ? 'Stopped by the user.' : `Stopped: ${reason}`;
}

/** The abort reason of a stop signal: `LlmRxError` `aborted`, with the stop's message. */
export function stopReason(reason: string | undefined): LlmRxError {
  return new LlmRxError('aborted', stopMessage(reason));
}

/** The controllers of one node, by stream id. */
export interface StopSignals {
  /** The signal of `streamId`, made on first use. */
  signal(streamId: string): AbortSignal;
  /** Aborts the signal of `streamId` (made aborted when none was asked for); false if it was already. */
  abort(streamId: string, reason: string | undefined): boolean;
  /** Whether a signal of `streamId` is held. */
  has(streamId: string): boolean;
  /** The ids of the signals held and not aborted. */
  watched(): string[];
  /** Lets go of the signal of `streamId` (its stream finished, or the log closed). */
  forget(streamId: string): void;
  /** Lets go of every signal. */
  clear(): void;
}

/** A fresh set of stop signals. */
export function stopSignals(): StopSignals {
  const controllers = new Map<string, AbortController>();
  const controllerOf = (streamId: string) => {
    let controller = controllers.get(streamId);
    if (!controller) controllers.set(streamId, (controller = new AbortController()));
    return controller;
  };
  return {
    signal: (streamId) => controllerOf(streamId).signal,
    abort(streamId, reason) {
      const controller = controllerOf(streamId);
      if (controller.signal.aborted) return false;
      controller.abort(stopReason(reason));
      return true;
    },
    has: (streamId) => controllers.has(streamId),
    watched: () =>
      [...controllers].filter(([, controller]) => !controller.signal.aborted).map(([id]) => id),
    forget: (streamId) => controllers.delete(streamId),
    clear: () => controllers.clear(),
  };
}
