import { firstValueFrom } from 'rxjs';
import { streamEvents } from '../../src/streamEvents';
import { assertTurn } from '../../src/turn/assertTurn';
import { collectTurn } from '../../src/turn/collectTurn';
import { createTurnBuilder } from '../../src/turn/turnBuilder';
import { chunksOf, utf8 } from '../helpers/bytes';
import { fixture } from '../providers/openaiChatHelpers';

const turnOf = (name: string) =>
  firstValueFrom(streamEvents(chunksOf([utf8(fixture(name))])).pipe(collectTurn()));

describe('collectTurn end to end (streamEvents → collectTurn)', () => {
  it('acceptance: the report’s reasoning-only chunk is a completed, reasoningOnly turn', async () => {
    const turn = await turnOf('reasoning-and-finish-in-one-chunk.sse');
    expect(turn).toEqual({
      outcome: 'completed',
      terminal: { type: 'completed', finishReason: 'stop' },
      text: '',
      reasoning: [
        {
          index: 0,
          kind: 'text',
          text: 'Let me work through this problem step by step...',
          format: 'unknown',
        },
      ],
      reasoningOnly: true,
      toolCalls: [],
      finishReason: 'stop',
      warnings: [],
      counts: {
        'response-start': 1,
        'reasoning-start': 1,
        'reasoning-delta': 1,
        'reasoning-end': 1,
        finish: 1,
        completed: 1,
      },
    });
    expect(() => assertTurn(turn)).not.toThrow();
  });

  it('collects the Qwen3 stream: reasoning, then text, usage from the repeated finish', async () => {
    const turn = await turnOf('qwen3-reasoning-details.sse');
    expect(turn).toMatchObject({
      outcome: 'completed',
      text: '17 × 3 = **51**.',
      reasoning: [{ index: 0, kind: 'text', text: 'The user wants 17 × 3. 17 × 3 = 51.' }],
      reasoningOnly: false,
      finishReason: 'stop',
      usage: { inputTokens: 14, outputTokens: 21, reasoningTokens: 12, totalTokens: 35 },
    });
  });

  it('collects parallel tool calls with parsed input', async () => {
    const turn = await turnOf('parallel-tool-calls.sse');
    expect(turn.toolCalls).toEqual([
      {
        id: 'call_weather_rome',
        name: 'weather',
        input: { city: 'Rome' },
        inputText: '{"city": "Rome"}',
      },
      {
        id: 'call_time_rome',
        name: 'local_time',
        input: { tz: 'Europe/Rome' },
        inputText: '{"tz":"Europe/Rome"}',
      },
    ]);
    expect(turn.finishReason).toBe('tool-calls');
  });

  it('keeps the text received before an error mid-stream; the turn is failed', async () => {
    const turn = await turnOf('error-mid-stream.sse');
    expect(turn.outcome).toBe('failed');
    expect(turn.text).toBe('The answer is');
    expect(turn.terminal).toEqual({
      type: 'failed',
      error: {
        code: '502',
        message: 'Provider disconnected unexpectedly',
        provider: 'openai-chat',
        retryable: true,
      },
    });
    expect(() => assertTurn(turn)).not.toThrow();
  });
});

describe('createTurnBuilder (pure)', () => {
  it('keeps two entries of one index apart, with signature, redacted data and kinds', () => {
    const builder = createTurnBuilder();
    builder.add({ type: 'reasoning-delta', id: 'a', index: 0, delta: 'S', kind: 'summary' });
    builder.add({ type: 'reasoning-delta', id: 'a', index: 0, delta: 'T', kind: 'text' });
    builder.add({ type: 'reasoning-end', id: 'a', index: 0, signature: 'sig' });
    builder.add({ type: 'reasoning-start', id: 'a:1', index: 0 });
    builder.add({ type: 'reasoning-end', id: 'a:1', index: 0, redacted: ['x'] });
    builder.add({ type: 'text-end', id: 't', text: 'resent' });
    builder.add({ type: 'silent', token: 'NO_REPLY' });
    const turn = builder.build();
    expect(turn.reasoning).toEqual([
      { index: 0, kind: 'summary', text: 'ST', signature: 'sig' },
      { index: 0, kind: 'text', text: '', redacted: ['x'] },
    ]);
    // A text-end's full text counts only for a part that streamed none.
    expect(turn.text).toBe('resent');
    expect(turn.silent).toBe('NO_REPLY');
    expect(turn.reasoningOnly).toBe(false);
  });

  it('counts only the first terminal; add() says when it arrived', () => {
    const builder = createTurnBuilder();
    expect(builder.add({ type: 'text-delta', id: 't', delta: 'x' })).toBe(false);
    expect(builder.add({ type: 'incomplete', reason: 'aborted', message: 'stop' })).toBe(true);
    builder.add({ type: 'completed' });
    expect(builder.build().outcome).toBe('incomplete');
  });
});
