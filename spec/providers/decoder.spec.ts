import type { StreamEvent } from '../../src/events';
import { createWarnOnce, parseJsonPayload } from '../../src/providers/decoder';
import { jsonErrorOf } from './decoderSupport';

describe('createWarnOnce', () => {
  it('one warning per (code, name) in a stream; `detail` only when given', () => {
    const events: StreamEvent[] = [];
    const emit = (event: StreamEvent) => events.push(event);
    const warn = createWarnOnce();
    warn(emit, 'unknown-field', 'delta.foo', 'Field "delta.foo" is not decoded.');
    warn(emit, 'unknown-field', 'delta.foo', 'again');
    warn(emit, 'unknown-event', 'delta.foo', 'Same name, another code.');
    warn(emit, 'unknown-field', 'delta.bar', 'Another name.', { seen: 1 });
    expect(events).toStrictEqual([
      { type: 'warning', code: 'unknown-field', message: 'Field "delta.foo" is not decoded.' },
      { type: 'warning', code: 'unknown-event', message: 'Same name, another code.' },
      { type: 'warning', code: 'unknown-field', message: 'Another name.', detail: { seen: 1 } },
    ]);
    // A fresh stream reports again.
    const second: StreamEvent[] = [];
    createWarnOnce()((event) => second.push(event), 'unknown-field', 'delta.foo', 'Again.');
    expect(second).toStrictEqual([{ type: 'warning', code: 'unknown-field', message: 'Again.' }]);
  });
});

describe('parseJsonPayload', () => {
  it('returns the parsed value', () => {
    expect(parseJsonPayload('{"type":"x","n":[1]}', 'anthropic')).toEqual({ type: 'x', n: [1] });
  });

  it('data that is not JSON → malformed-event naming the provider, the parse error and an excerpt', () => {
    let thrown: unknown;
    try {
      parseJsonPayload('{"type": oops', 'openai-responses');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toEqual(
      expect.objectContaining({
        name: 'LlmRxError',
        code: 'malformed-event',
        provider: 'openai-responses',
        message: `openai-responses: an event's data is not valid JSON (${jsonErrorOf('{"type": oops')}): "{\\"type\\": oops"`,
      }),
    );
  });
});
