import { from, firstValueFrom } from 'rxjs';
import { isLlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import { assertTurn, IncompleteTurnError } from '../../src/turn/assertTurn';
import { collectTurn } from '../../src/turn/collectTurn';

const turnOf = (events: StreamEvent[]) => firstValueFrom(from(events).pipe(collectTurn()));

const BOOKKEEPING: StreamEvent[] = [
  { type: 'response-start', provider: 'openai-chat', id: 'r' },
  {
    type: 'warning',
    code: 'unknown-field',
    message: 'The openai-chat decoder does not know the delta field "thoughts"; it was ignored.',
    detail: { field: 'delta.thoughts' },
  },
  { type: 'text-start', id: 'r:text' },
  { type: 'text-delta', id: 'r:text', delta: '  \n' },
  { type: 'text-end', id: 'r:text' },
  { type: 'finish', reason: 'stop' },
  { type: 'usage', outputTokens: 40 },
  { type: 'completed', finishReason: 'stop' },
];

describe('assertTurn', () => {
  it('throws IncompleteTurnError for a turn of bookkeeping only, saying what arrived', async () => {
    const turn = await turnOf(BOOKKEEPING);
    let thrown: unknown;
    try {
      assertTurn(turn);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(IncompleteTurnError);
    expect(isLlmRxError(thrown)).toBe(true);
    const error = thrown as IncompleteTurnError;
    expect(error.code).toBe('incomplete-turn');
    expect(error.turn).toBe(turn);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'The turn carried nothing a user could receive (no text, reasoning, tool call or silent ' +
        'token). It ended completed (finish stop). Events received: response-start ×1, ' +
        'warning ×1, text-start ×1, text-delta ×1, text-end ×1, finish ×1, usage ×1, ' +
        'completed ×1. Unknown fields seen: delta.thoughts.',
    );
  });

  it('names the failure of an empty failed turn and keeps its retryable flag', async () => {
    const turn = await turnOf([
      { type: 'failed', error: { code: 'stalled', message: 'No event.', retryable: true } },
    ]);
    expect(() => assertTurn(turn)).toThrow(
      'It ended failed (stalled: No event.). Events received: failed ×1. Unknown fields seen: none.',
    );
    expect(() => assertTurn(turn)).toThrow(expect.objectContaining({ retryable: true }));
  });

  it.each<[string, StreamEvent]>([
    ['visible text', { type: 'text-delta', id: 't', delta: 'Hi' }],
    [
      'reasoning text',
      { type: 'reasoning-delta', id: 'q', index: 0, delta: 'Let me think', kind: 'text' },
    ],
    ['encrypted reasoning', { type: 'reasoning-end', id: 'q', index: 0, redacted: ['gAAA'] }],
    ['a tool call', { type: 'tool-call', id: 'c', name: 'f', input: {}, inputText: '' }],
    ['a silent token', { type: 'silent', token: 'NO_REPLY' }],
  ])('returns a turn carrying %s unchanged', async (_what, payload) => {
    const turn = await turnOf([payload, { type: 'finish', reason: 'stop' }, { type: 'completed' }]);
    expect(assertTurn(turn)).toBe(turn);
  });
});
