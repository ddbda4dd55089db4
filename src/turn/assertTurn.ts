import { LlmRxError } from '../errors';
import type { WarningEvent } from '../events';
import type { Turn } from './turnBuilder';

/**
 * Thrown by {@link assertTurn} for a turn that carries nothing a user could receive. An
 * LlmRxError with code `incomplete-turn` (so `isLlmRxError` knows it across bundle copies);
 * `turn` is the turn itself, for logs and retries.
 */
export class IncompleteTurnError extends LlmRxError {
  readonly turn: Turn;

  constructor(turn: Turn) {
    super('incomplete-turn', describeEmptyTurn(turn), {
      retryable: turn.terminal.type === 'failed' ? turn.terminal.error.retryable : false,
    });
    this.turn = turn;
  }
}

/**
 * Throws {@link IncompleteTurnError} when the turn carries nothing a user could receive: no
 * visible text, no reasoning (text or encrypted), no tool call and no silent token, whatever
 * bookkeeping events (start, finish, usage, warnings) arrived. A reasoning-only turn passes.
 * The message says what did arrive: the outcome, event counts by type, unknown fields seen.
 *
 * ```
 * events:  response-start finish(stop) usage completed      → throws IncompleteTurnError
 * events:  reasoning-delta finish(stop) completed           → returns the turn (reasoningOnly)
 * ```
 *
 * @example
 * ```ts
 * const turn = assertTurn(await firstValueFrom(streamEvents(response).pipe(collectTurn())));
 * ```
 * @param turn - a turn from `collectTurn`
 * @returns the same turn, for chaining
 */
export function assertTurn(turn: Turn): Turn {
  if (carriesPayload(turn)) return turn;
  throw new IncompleteTurnError(turn);
}

function carriesPayload(turn: Turn): boolean {
  return (
    turn.text.trim() !== '' ||
    turn.toolCalls.length > 0 ||
    turn.silent !== undefined ||
    turn.reasoning.some((entry) => entry.text.trim() !== '' || (entry.redacted?.length ?? 0) > 0)
  );
}

function describeEmptyTurn(turn: Turn): string {
  const counts = Object.entries(turn.counts)
    .map(([type, count]) => `${type} ×${count}`)
    .join(', ');
  const unknown = turn.warnings
    .filter((warning) => warning.code === 'unknown-field' || warning.code === 'unknown-event')
    .map(unknownName);
  return (
    `The turn carried nothing a user could receive (no text, reasoning, tool call or silent ` +
    `token). It ended ${describeOutcome(turn)}. Events received: ${counts || 'none'}. ` +
    `Unknown fields seen: ${unknown.length > 0 ? unknown.join(', ') : 'none'}.`
  );
}

/** The field or event name a warning names in its detail (decoders put it there), else its message. */
function unknownName(warning: WarningEvent): string {
  const detail = (warning.detail ?? {}) as { field?: unknown; type?: unknown };
  if (typeof detail.field === 'string') return detail.field;
  if (typeof detail.type === 'string') return detail.type;
  return JSON.stringify(warning.message);
}

function describeOutcome(turn: Turn): string {
  const end = turn.terminal;
  if (end.type === 'failed') return `failed (${end.error.code}: ${end.error.message})`;
  if (end.type === 'incomplete') return `incomplete (${end.reason}: ${end.message})`;
  return `completed${end.finishReason ? ` (finish ${end.finishReason})` : ''}`;
}
