import { type StreamEvent } from '../../src/events';
import { isTerminal } from '../../src/terminalEvents';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, randomSplits, utf8 } from '../helpers/bytes';
import { describeCorpus, type Capture } from '../helpers/corpus';

/**
 * Unknown delta fields a capture may legitimately warn about, with the reason. None today: every
 * delta field in these captures (role, content, refusal, reasoning, reasoning_content,
 * reasoning_details, tool_calls) is decoded or known noise.
 */
const ALLOWED_UNKNOWN_FIELDS: Record<string, string> = {};

const SPLITS_PER_CAPTURE = 200;

interface WireDelta {
  content?: string | null;
  reasoning?: string | null;
  reasoning_content?: string | null;
  reasoning_text?: string | null;
  reasoning_details?: Array<{ text?: string; summary?: string }> | null;
  tool_calls?: Array<{ index: number; function?: { name?: string; arguments?: string } }> | null;
}

/** What the capture says, read straight from its JSON payloads (not through the decoder). */
function expectationsOf(capture: Capture) {
  const payloads = capture.sse
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as { choices?: Array<{ delta?: WireDelta }> });
  let text = '';
  let reasoning = '';
  const calls = new Map<number, { name: string; args: string }>();
  for (const payload of payloads) {
    const delta = payload.choices?.[0]?.delta;
    if (!delta) continue;
    text += delta.content ?? '';
    // OpenRouter duplicates the details' text in `reasoning`: count it once.
    const detailsText = (delta.reasoning_details ?? []).map((d) => d.text ?? d.summary ?? '');
    reasoning +=
      detailsText.join('') ||
      delta.reasoning_content ||
      delta.reasoning ||
      delta.reasoning_text ||
      '';
    for (const fragment of delta.tool_calls ?? []) {
      const call = calls.get(fragment.index) ?? { name: '', args: '' };
      call.name ||= fragment.function?.name ?? '';
      call.args += fragment.function?.arguments ?? '';
      calls.set(fragment.index, call);
    }
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({ name: call.name, input: JSON.parse(call.args || '{}') }));
  return { text, reasoning, toolCalls };
}

const joined = (events: StreamEvent[], type: 'text-delta' | 'reasoning-delta') =>
  events
    .filter((e): e is Extract<StreamEvent, { type: typeof type }> => e.type === type)
    .map((e) => e.delta)
    .join('');

describeCorpus(
  'openai-chat decoder on the real captures',
  (captures) => {
    describe.each(captures.map((capture) => [capture.name, capture] as const))(
      '%s',
      (_name, capture) => {
        const bytes = utf8(capture.sse);
        let events: StreamEvent[];
        beforeAll(async () => {
          events = await collect(streamEvents(chunksOf([bytes])));
        });

        it('ends in exactly one terminal, last', () => {
          expect(events.filter(isTerminal)).toHaveLength(1);
          expect(isTerminal(events.at(-1)!)).toBe(true);
          expect(events.at(-1)!.type).toBe('completed');
        });

        it('delivers the text, the reasoning (counted once) and the tool calls', () => {
          const expected = expectationsOf(capture);
          expect(joined(events, 'text-delta')).toBe(expected.text);
          expect(joined(events, 'reasoning-delta')).toBe(expected.reasoning);
          const calls = events.filter((e) => e.type === 'tool-call');
          expect(calls.map(({ name, input }) => ({ name, input }))).toEqual(expected.toolCalls);
          expect(calls.every((call) => call.error === undefined)).toBe(true);
        });

        it('warns about no unknown field beyond the allowed list', () => {
          const unknown = events.filter(
            (e) =>
              e.type === 'warning' &&
              e.code === 'unknown-field' &&
              !(String((e.detail as { field?: string })?.field) in ALLOWED_UNKNOWN_FIELDS),
          );
          expect(unknown).toEqual([]);
        });

        it(`gives identical events for ${SPLITS_PER_CAPTURE} random re-chunkings (seed 7)`, async () => {
          for (const parts of randomSplits(bytes, SPLITS_PER_CAPTURE, 7)) {
            const rechunked = await collect(streamEvents(chunksOf(parts)));
            // One failing split is enough to report; the loop stops at the first difference.
            if (JSON.stringify(rechunked) !== JSON.stringify(events)) {
              expect(rechunked).toEqual(events);
            }
          }
        });
      },
    );
  },
  ['openai-chat', 'openrouter', 'deepseek-qwen-vllm'],
);
