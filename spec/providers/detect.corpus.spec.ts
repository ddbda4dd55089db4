import type { ProviderId } from '../../src/events';
import { detectWireFormat, wireFormatOf } from '../../src/providers/detect';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, utf8 } from '../helpers/bytes';
import {
  captureBody,
  CORPUS_FOLDERS,
  describeCorpus,
  formatOfCapture,
  responseOfChunks,
} from '../helpers/corpus';

describeCorpus('provider detection over every capture', (captures) => {
  it('knows the wire format of every folder of the corpus', () => {
    const folders = [...new Set(captures.map((c) => c.folder))];
    expect(folders.filter((folder) => !CORPUS_FOLDERS.includes(folder))).toEqual([]);
  });

  it.each(captures.map((capture) => [capture.name, capture] as const))(
    '%s: provider omitted picks its decoder and yields exactly the events of the explicit provider',
    async (_name, capture) => {
      // The folder's wire (see corpus.ts); a wire streamEvents does not know yet fails here.
      const format = formatOfCapture(capture) as ProviderId;
      // Cut at every 97 bytes, so detection often sees a message before the next one arrives.
      const { bytes, contentType } = captureBody(capture);
      const chunks = Array.from({ length: Math.ceil(bytes.length / 97) }, (_, i) =>
        bytes.slice(i * 97, (i + 1) * 97),
      );
      const detected = await collect(streamEvents(responseOfChunks(chunks, contentType)));
      const explicit = await collect(
        streamEvents(responseOfChunks(chunks, contentType), { provider: format }),
      );
      expect(detected[0]).toEqual(
        expect.objectContaining({ type: 'response-start', provider: format }),
      );
      expect(detected).toEqual(explicit);
    },
  );
});

describe('provider detection', () => {
  const sse = (...events: Array<[string | undefined, object | string]>) =>
    events
      .map(
        ([name, data]) =>
          `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
      )
      .join('');

  it('tells each wire from its first telling message', () => {
    const cases: Array<[string | undefined, object | string, ProviderId | undefined]> = [
      ['message_start', { type: 'message_start', message: {} }, 'anthropic'],
      [undefined, { type: 'content_block_delta', index: 0 }, 'anthropic'],
      ['response.created', { type: 'response.created', response: {} }, 'openai-responses'],
      [undefined, { type: 'response.output_text.delta' }, 'openai-responses'],
      [undefined, { object: 'chat.completion.chunk', choices: [] }, 'openai-chat'],
      [undefined, '[DONE]', 'openai-chat'],
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'x' } }, 'anthropic'],
      [
        'error',
        { type: 'error', code: 'server_error', message: 'x', sequence_number: 2 },
        'openai-responses',
      ],
      ['ping', { type: 'ping' }, undefined],
      [undefined, 'not json', undefined],
    ];
    for (const [event, data, expected] of cases)
      expect([
        event,
        data,
        detectWireFormat({ event, data: typeof data === 'string' ? data : JSON.stringify(data) }),
      ]).toEqual([event, data, expected]);
  });

  it('holds undecided messages and replays them in order once the wire is known', async () => {
    const body = sse(
      [undefined, { type: 'message_annotation' }],
      ['message_start', { type: 'message_start', message: { id: 'm' } }],
      ['message_stop', { type: 'message_stop' }],
    );
    expect(await collect(streamEvents(chunksOf([body])))).toEqual([
      {
        type: 'warning',
        code: 'unknown-event',
        message: 'Anthropic event "message_annotation" is not decoded; it was skipped.',
      },
      { type: 'response-start', provider: 'anthropic', id: 'm' },
      { type: 'completed' },
    ]);
  });

  it('an explicit provider always wins over what the body looks like', async () => {
    const body = sse([undefined, { type: 'response.created', response: { id: 'r' } }]);
    const events = await collect(streamEvents(chunksOf([body]), { provider: 'anthropic' }));
    expect(events[0]).toEqual({
      type: 'warning',
      code: 'unknown-event',
      message: 'Anthropic event "response.created" is not decoded; it was skipped.',
    });
    expect(wireFormatOf('openrouter')).toBe('openai-chat');
  });

  it('application/x-ndjson is ollama without looking at the body', async () => {
    const response = new Response('{"model":"m","message":{"content":"Hi"},"done":true}\n', {
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect((await collect(streamEvents(response)))[0]).toEqual({
      type: 'response-start',
      provider: 'ollama',
      model: 'm',
    });
  });

  it('nothing telling → one failed unknown-provider naming what was seen', async () => {
    const body = sse(['ping', { type: 'ping' }], ['ping', { type: 'ping' }]);
    expect(await collect(streamEvents(chunksOf([body])))).toEqual([
      {
        type: 'failed',
        error: {
          code: 'unknown-provider',
          message: `Could not tell the provider's wire format: the first event was "ping" "{\\"type\\":\\"ping\\"}". Pass { provider }.`,
          retryable: false,
        },
      },
    ]);
    // A body of comments only held no event: that is an empty body, not an unknown provider.
    expect(await collect(streamEvents(chunksOf([': comment only\n\n'])))).toEqual([
      {
        type: 'failed',
        error: expect.objectContaining({ code: 'stream-closed', retryable: true }),
      },
    ]);
  });
});
