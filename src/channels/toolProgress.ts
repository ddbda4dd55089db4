import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ProgressEvent, StreamEvent } from '../events';
import { createOperator, type OperatorStage } from '../internal/createOperator';

/** A tool's status as a chat shows it, for the event that may change it (or undefined). */
function statusOf(event: StreamEvent): ProgressEvent['status'] | undefined {
  switch (event.type) {
    case 'tool-input-start':
    case 'tool-start':
      return 'running';
    case 'tool-call':
      return event.error === undefined ? 'running' : 'error';
    case 'tool-end':
      return event.isError ? 'error' : 'done';
    default:
      return undefined;
  }
}

/**
 * Adds a `progress { id, name, status }` event after each tool event that changes what a chat
 * should show of that tool (`channel(name, { progress: true })`).
 *
 * ```
 * source:   -s-c-S-E-|       s = tool-input-start, c = tool-call, S = tool-start, E = tool-end
 * result:   -(sr)-c-S-(Ed)-| r = progress running (once: c and S change nothing), d = done
 * ```
 *
 * - `tool-input-start`, `tool-start` (the host's or a provider-executed tool's) and a
 *   `tool-call` with valid input: `running`; a `tool-call` whose input is not JSON: `error`;
 *   `tool-end`: `done`, or `error` with `isError`.
 * - One event per change of a tool's status: a tool-call or tool-start after its
 *   tool-input-start adds nothing. The name is the first one seen for the id (`tool` if none).
 * - Every event passes on unchanged and first; no timers.
 */
export function toolProgress(): MonoTypeOperatorFunction<StreamEvent> {
  return createOperator(toolProgressStage());
}

/** The logic of {@link toolProgress} without its RxJS shell, for `fuseStages`. */
export function toolProgressStage(): OperatorStage<StreamEvent, StreamEvent> {
  return ({ subscriber }) => {
    const tools = new Map<string, { name: string; status: ProgressEvent['status'] }>();
    return {
      next(event) {
        subscriber.next(event);
        const status = statusOf(event);
        if (status === undefined) return;
        const id = (event as { id: string }).id;
        const known = tools.get(id);
        if (known?.status === status) return;
        const name = known?.name ?? (event as { name?: string }).name ?? 'tool';
        tools.set(id, { name, status });
        subscriber.next({ type: 'progress', id, name, status });
      },
    };
  };
}
