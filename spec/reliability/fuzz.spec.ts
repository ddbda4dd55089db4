import fc from 'fast-check';
import { type StreamEvent } from '../../src/events';
import { isTerminal } from '../../src/terminalEvents';
import type { ProviderName } from '../../src/providers/detect';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, splitAt } from '../helpers/bytes';

// Fuzzed bodies — heavy in CR, LF, NUL, BOMs, field prefixes, JSON fragments, long lines and
// invalid UTF-8 — never make streamEvents throw or error, and always end in exactly one
// terminal, last.

const encoder = new TextEncoder();
const piece = (text: string) => encoder.encode(text);

const payloads = [
  '{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}',
  '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
  '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}',
  '{"type":"response.output_text.delta","item_id":"i","delta":"y","sequence_number":3}',
  '{"message":{"role":"assistant","content":"z"},"done":false}',
];
// Whole, well-formed events and lines, so that fuzzed bodies also reach the decoders.
const wellFormed = fc.constantFrom(
  ...payloads.flatMap((payload) => [piece(`data: ${payload}\n\n`), piece(`${payload}\n`)]),
);

const fragment = fc.oneof(
  { arbitrary: wellFormed, weight: 4 },
  fc.constantFrom(
    ...[
      'data: ',
      'data:',
      'event: ',
      'event: message_start\n',
      'event: response.output_text.delta\n',
      'id: 1\n',
      'retry: 10\n',
      ': OPENROUTER PROCESSING\n',
      '\n',
      '\r',
      '\r\n',
      '\n\n',
      '\0',
      '\uFEFF',
      ':',
      '{',
      '}',
      '"',
      '[DONE]',
      '{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}',
      '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      '{"choices":[{"delta":{"reasoning_details":[{"type":"reasoning.text","text":"t","index":2}]}}]}',
      '{"type":"message_start","message":{"id":"m","model":"c"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}',
      '{"type":"response.output_text.delta","item_id":"i","delta":"y","sequence_number":3}',
      '{"message":{"role":"assistant","content":"z"},"done":false}',
      '{"done":true,"done_reason":"stop"}',
      '{"error":{"code":500,"message":"boom"}}',
    ].map(piece),
  ),
  fc.constantFrom(
    Uint8Array.of(0xff),
    Uint8Array.of(0xc3),
    Uint8Array.of(0xe2, 0x82),
    Uint8Array.of(0xef, 0xbb, 0xbf),
  ),
  {
    arbitrary: fc.integer({ min: 1, max: 5000 }).map((length) => piece('x'.repeat(length))),
    weight: 1,
  },
  fc.uint8Array({ maxLength: 32 }),
);

const body = fc.array(fragment, { maxLength: 40 }).map((parts) => {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
});

function run(chunks: Uint8Array[], provider: ProviderName | undefined): Promise<StreamEvent[]> {
  return new Promise((resolve, reject) => {
    const events: StreamEvent[] = [];
    streamEvents(
      chunksOf(chunks),
      provider ? { provider, maxBufferSize: 4096 } : { maxBufferSize: 4096 },
    ).subscribe({
      next: (event) => events.push(event),
      error: (error) =>
        reject(new Error(`streamEvents errored instead of failing: ${String(error)}`)),
      complete: () => resolve(events),
    });
  });
}

describe.each([undefined, 'openai-chat', 'openai-responses', 'anthropic', 'ollama'] as const)(
  'fuzzed bytes, provider %s',
  (provider) => {
    it('never throws, always exactly one terminal, last', async () => {
      await fc.assert(
        fc.asyncProperty(body, fc.array(fc.nat(), { maxLength: 8 }), async (bytes, cuts) => {
          const events = await run(
            splitAt(
              bytes,
              cuts.map((cut) => cut % (bytes.length + 1)),
            ),
            provider,
          );
          expect(events.filter(isTerminal)).toHaveLength(1);
          expect(isTerminal(events[events.length - 1])).toBe(true);
        }),
        { numRuns: 250, seed: 97 },
      );
    });
  },
);
