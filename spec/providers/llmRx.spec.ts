import { firstValueFrom, from, toArray } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { createLlmRxDecoder, decodeLlmRx, isLlmRxMessage } from '../../src/providers/llmRx';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect } from '../helpers/bytes';
import { jsonErrorOf } from './decoderSupport';

const events: StreamEvent[] = [
  { type: 'response-start', provider: 'anthropic', id: 'm' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hi' },
  { type: 'text-end', id: 't' },
  { type: 'completed', finishReason: 'stop' },
];

/** What one message of llm-rx's wire makes the pure decoder throw. */
function thrownBy(data: string): unknown {
  try {
    createLlmRxDecoder().next({ data }, () => undefined);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('decodeLlmRx', () => {
  it('passes every event as it is, the terminal included', async () => {
    const messages = events.map((event, id) => ({ id: String(id), data: JSON.stringify(event) }));
    expect(await firstValueFrom(from(messages).pipe(decodeLlmRx(), toArray()))).toEqual(events);
  });

  it('data that is not JSON → malformed-event naming llm-rx and the parse error', () => {
    expect(thrownBy('{"type":')).toEqual(
      expect.objectContaining({
        code: 'malformed-event',
        provider: 'llm-rx',
        message: `llm-rx: an event's data is not valid JSON (${jsonErrorOf('{"type":')}): "{\\"type\\":"`,
      }),
    );
  });

  it('JSON that is not a StreamEvent → malformed-event naming every problem on one line', () => {
    const data = '{"type":"usage","inputTokens":"x","outputTokens":"y"}';
    expect(thrownBy(data)).toEqual(
      expect.objectContaining({
        name: 'LlmRxError',
        code: 'malformed-event',
        provider: 'llm-rx',
        message:
          'An llm-rx event is not a valid StreamEvent (✖ Invalid input: expected number, received string' +
          '   → at inputTokens ✖ Invalid input: expected number, received string   → at outputTokens): ' +
          JSON.stringify(data),
      }),
    );
  });

  it('through streamEvents, an invalid event ends the stream in one failed malformed-event', async () => {
    const body = `data: ${JSON.stringify(events[0])}\n\ndata: {"type":"text-delta","id":"t"}\n\n`;
    expect(await collect(streamEvents(chunksOf([body]), { provider: 'llm-rx' }))).toEqual([
      events[0],
      {
        type: 'failed',
        error: {
          code: 'malformed-event',
          message:
            'An llm-rx event is not a valid StreamEvent (✖ Invalid input: expected string, received undefined' +
            '   → at delta): "{\\"type\\":\\"text-delta\\",\\"id\\":\\"t\\"}"',
          provider: 'llm-rx',
          retryable: false,
        },
      },
    ]);
  });
});

describe('isLlmRxMessage', () => {
  it('true only for an unnamed message whose data is a valid StreamEvent', () => {
    const data = JSON.stringify(events[2]);
    const cases: Array<[string | undefined, string, boolean]> = [
      [undefined, data, true],
      ['message', data, false],
      ['text-delta', data, false],
      [undefined, '{"type":"text-delta"}', false],
      [undefined, 'not json', false],
      [undefined, '[DONE]', false],
    ];
    expect(cases.map(([event, d]) => [event, d, isLlmRxMessage({ event, data: d })])).toEqual(
      cases,
    );
  });
});
