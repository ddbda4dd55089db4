import type { StreamEvent } from '../../src/events';
import type { ProviderName } from '../../src/providers/detect';
import { streamEvents } from '../../src/streamEvents';
import { isTerminal } from '../../src/terminalEvents';
import { collect, randomSplits } from '../helpers/bytes';
import {
  captureBody,
  describeCorpus,
  formatOfCapture,
  responseOfChunks,
  type Capture,
} from '../helpers/corpus';

// Every capture of every corpus folder (real/ and real-2026/), whatever its wire: one terminal,
// last; the text the provider itself sent, character for character; the same events for 200
// random re-chunkings. The per-wire corpus specs check more (reasoning, tool calls, warnings);
// detect.corpus.spec.ts checks that auto-detection names the same wire. One wire alone:
// LLMRX_CORPUS_FOLDERS=gemini npx jest -w 1 spec/providers/everyWire.corpus.spec.ts

const SPLITS_PER_CAPTURE = 200;

type Payload = Record<string, any>;

/** The JSON data payloads of a capture's SSE body (`[DONE]` and other non-JSON data left out). */
function payloadsOf(capture: Capture): Payload[] {
  const payloads: Payload[] = [];
  for (const line of capture.sse.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      const value = JSON.parse(line.slice(5));
      if (typeof value === 'object' && value !== null) payloads.push(value);
    } catch {
      // `[DONE]` and the like carry no text.
    }
  }
  return payloads;
}

/** The visible text of a Chat Completions `delta.content`: a string, or content parts. */
function chatContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part?.type === 'text' ? (part.text ?? '') : '')).join('');
}

/** Each wire's answer text, read straight from its payloads the way its own docs describe it. */
const TEXT_OF_PAYLOAD: Record<string, (payload: Payload) => string> = {
  'openai-chat': (p) => chatContent(p.choices?.[0]?.delta?.content),
  'openai-responses': (p) => (p.type === 'response.output_text.delta' ? p.delta : ''),
  anthropic: (p) =>
    p.type === 'content_block_delta' && p.delta?.type === 'text_delta' ? p.delta.text : '',
  gemini: (p) =>
    (p.candidates?.[0]?.content?.parts ?? [])
      .map((part: Payload) => (part.thought ? '' : (part.text ?? '')))
      .join(''),
  cohere: (p) => (p.type === 'content-delta' ? (p.delta?.message?.content?.text ?? '') : ''),
  bedrock: (p) => p.contentBlockDelta?.delta?.text ?? '',
};

function providerText(capture: Capture): string {
  const textOf = TEXT_OF_PAYLOAD[formatOfCapture(capture)];
  return payloadsOf(capture).map(textOf).join('');
}

const decodedText = (events: StreamEvent[]) =>
  events.map((e) => (e.type === 'text-delta' ? e.delta : '')).join('');

describeCorpus('every capture of every wire', (captures) => {
  describe.each(captures.map((capture) => [capture.name, capture] as const))(
    '%s',
    (_name, capture) => {
      const provider = formatOfCapture(capture) as ProviderName;
      // The body as the provider sends it (Bedrock: binary event stream frames).
      const { bytes, contentType } = captureBody(capture);
      const decode = (chunks: Uint8Array[]) =>
        collect(streamEvents(responseOfChunks(chunks, contentType), { provider }));
      let events: StreamEvent[];
      beforeAll(async () => {
        events = await decode([bytes]);
      });

      it('ends in exactly one terminal, last', () => {
        expect(events.filter(isTerminal)).toHaveLength(1);
        expect(isTerminal(events.at(-1)!)).toBe(true);
      });

      it("delivers exactly the provider's own text", () => {
        expect(decodedText(events)).toBe(providerText(capture));
      });

      it(`gives identical events for ${SPLITS_PER_CAPTURE} random re-chunkings (seed 42)`, async () => {
        for (const chunks of randomSplits(bytes, SPLITS_PER_CAPTURE, 42)) {
          const rechunked = await decode(chunks);
          // One failing split is enough to report; the loop stops at the first difference.
          if (JSON.stringify(rechunked) !== JSON.stringify(events)) {
            expect(rechunked).toEqual(events);
          }
        }
      });
    },
  );
});
