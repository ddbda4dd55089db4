import type { StreamEvent } from '../../src/events';
import { isTerminal } from '../../src/terminalEvents';
import type { ProviderName } from '../../src/providers/detect';
import { streamEvents } from '../../src/streamEvents';
import { chunksOf, collect, randomSplits, utf8 } from '../helpers/bytes';
import { describeCorpus, type Capture } from '../helpers/corpus';

/**
 * Warnings a capture may give, each with its reason; any other warning fails the spec.
 * [capture name, warning code, text the message must contain]
 */
const EXPECTED_WARNINGS: Array<[string, string, string]> = [
  // The capture exists to show Anthropic repeating message_start.
  ['anthropic/vercel-duplicate-message-start.chunks.jsonl', 'duplicate-event', 'message_start'],
  // Compaction is a server-side summary of earlier turns, not part of the reply.
  [
    'anthropic/vercel-long-markdown-codefences-compaction.chunks.jsonl',
    'unknown-event',
    '"compaction"',
  ],
  [
    'anthropic/vercel-long-markdown-codefences-compaction.chunks.jsonl',
    'unknown-event',
    '"compaction_delta"',
  ],
];

/** What a capture carries, read straight from its payloads (not through the decoders). */
interface Carried {
  text: string;
  reasoning: string[];
  signatures: string[];
  redacted: string[];
  toolCalls: Array<{ id: string; name: string; input: unknown }>;
  /** Cited sources: url (or a file id) and title, in wire order. */
  citations: Array<{ url?: string; title?: string }>;
  /** Tools the provider ran itself: `start:<id>` when its call was whole, `end:<id>` at its result. */
  serverTools: string[];
}

const nothingCarried = (): Carried => ({
  text: '',
  reasoning: [],
  signatures: [],
  redacted: [],
  toolCalls: [],
  citations: [],
  serverTools: [],
});

/** Output items OpenAI runs itself (read here from the wire, not from the decoder's list). */
const RESPONSES_SERVER_ITEMS =
  /^(web_search|file_search|mcp|code_interpreter|image_generation)_call$|^mcp_list_tools$/;

function payloadsOf(capture: Capture): Array<Record<string, any>> {
  return capture.sse
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '[DONE]')
    .map((line) => JSON.parse(line.slice(5)));
}

function carriedByResponses(payloads: Array<Record<string, any>>): Carried {
  const carried = nothingCarried();
  for (const p of payloads) {
    if (p.type === 'response.output_text.annotation.added')
      carried.citations.push({ url: p.annotation.url, title: p.annotation.title });
    if (p.type === 'response.output_item.added' && RESPONSES_SERVER_ITEMS.test(p.item.type))
      carried.serverTools.push(`start:${p.item.id}`);
    if (
      p.type === 'response.reasoning_summary_text.done' ||
      p.type === 'response.reasoning_text.done'
    )
      carried.reasoning.push(p.text);
    if (p.type !== 'response.output_item.done') continue;
    const item = p.item;
    if (item.type === 'message') for (const part of item.content) carried.text += part.text;
    if (item.type === 'reasoning' && item.encrypted_content)
      carried.redacted.push(item.encrypted_content);
    if (item.type === 'function_call')
      carried.toolCalls.push({
        id: item.call_id,
        name: item.name,
        input: JSON.parse(item.arguments || '{}'),
      });
    if (item.type === 'custom_tool_call')
      carried.toolCalls.push({ id: item.call_id, name: item.name, input: item.input });
    if (item.type === 'apply_patch_call')
      carried.toolCalls.push({ id: item.call_id, name: 'apply_patch', input: item.operation });
    if (RESPONSES_SERVER_ITEMS.test(item.type)) carried.serverTools.push(`end:${item.id}`);
  }
  return carried;
}

function carriedByAnthropic(payloads: Array<Record<string, any>>): Carried {
  const carried = nothingCarried();
  const blocks = new Map<
    number,
    { type: string; id?: string; name?: string; text: string; signature: string }
  >();
  for (const p of payloads) {
    if (p.type === 'content_block_start')
      blocks.set(p.index, { ...p.content_block, text: '', signature: '' });
    if (p.type === 'content_block_start' && p.content_block.type.endsWith('_tool_result'))
      carried.serverTools.push(`end:${p.content_block.tool_use_id}`);
    if (p.type === 'content_block_start' && p.content_block.type === 'redacted_thinking')
      carried.redacted.push(p.content_block.data);
    if (p.type === 'content_block_delta' && p.delta.type === 'citations_delta')
      carried.citations.push({ url: p.delta.citation.url, title: p.delta.citation.title });
    if (p.type === 'content_block_delta') {
      const block = blocks.get(p.index)!;
      block.text += p.delta.text ?? p.delta.thinking ?? p.delta.partial_json ?? '';
      block.signature += p.delta.signature ?? '';
    }
    if (p.type !== 'content_block_stop') continue;
    const block = blocks.get(p.index)!;
    if (block.type === 'text') carried.text += block.text;
    if (block.type === 'thinking') carried.reasoning.push(block.text);
    if (block.type === 'thinking' && block.signature) carried.signatures.push(block.signature);
    if (block.type === 'tool_use')
      carried.toolCalls.push({
        id: block.id!,
        name: block.name!,
        input: JSON.parse(block.text || '{}'),
      });
    if (block.type === 'server_tool_use') carried.serverTools.push(`start:${block.id}`);
  }
  return carried;
}

function decodedOf(events: StreamEvent[]): Carried {
  const decoded = nothingCarried();
  const reasoningById = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'text-delta') decoded.text += e.delta;
    if (e.type === 'reasoning-delta')
      reasoningById.set(e.id, (reasoningById.get(e.id) ?? '') + e.delta);
    if (e.type === 'reasoning-end' && e.signature) decoded.signatures.push(e.signature);
    if (e.type === 'reasoning-end' && e.redacted) decoded.redacted.push(...e.redacted);
    if (e.type === 'tool-call') decoded.toolCalls.push({ id: e.id, name: e.name, input: e.input });
    if (e.type === 'citation') decoded.citations.push({ url: e.url ?? e.id, title: e.title });
    if ((e.type === 'tool-start' || e.type === 'tool-end') && e.providerExecuted)
      decoded.serverTools.push(`${e.type === 'tool-start' ? 'start' : 'end'}:${e.id}`);
  }
  decoded.reasoning = [...reasoningById.values()];
  return decoded;
}

/** Azure's folder holds chat and Responses captures; the Responses ones are read here. */
const isResponsesOrAnthropic = (capture: Capture) =>
  capture.folder !== 'azure-openai' || capture.name.includes('responses');

const providerOf = (capture: Capture): ProviderName =>
  capture.folder === 'anthropic' ? 'anthropic' : 'openai-responses';
const decodeBody = (capture: Capture, chunks: Uint8Array[]) =>
  collect(streamEvents(chunksOf(chunks), { provider: providerOf(capture) }));

describeCorpus(
  'OpenAI Responses and Anthropic captures',
  (captures) => {
    const read = captures.filter(isResponsesOrAnthropic);
    describe.each(read.map((capture) => [capture.name, capture] as const))(
      '%s',
      (_name, capture) => {
        let events: StreamEvent[];
        beforeAll(async () => {
          events = await decodeBody(capture, [utf8(capture.sse)]);
        });

        it('ends in exactly one terminal, last', () => {
          expect(events.filter(isTerminal)).toHaveLength(1);
          expect(isTerminal(events[events.length - 1])).toBe(true);
        });

        it('delivers the text, reasoning, signatures, encrypted reasoning and tool calls the capture carries', () => {
          const payloads = payloadsOf(capture);
          const carried =
            capture.folder === 'anthropic'
              ? carriedByAnthropic(payloads)
              : carriedByResponses(payloads);
          expect(decodedOf(events)).toEqual(carried);
        });

        it('warns only where the table above gives a reason', () => {
          const warnings = events.filter((e) => e.type === 'warning');
          const expected = EXPECTED_WARNINGS.filter(([name]) => name === capture.name);
          expect(warnings).toHaveLength(expected.length);
          expected.forEach(([, code, text], i) =>
            expect(warnings[i]).toEqual(
              expect.objectContaining({ code, message: expect.stringContaining(text) }),
            ),
          );
        });

        it('gives identical events for 200 random re-chunkings of its bytes', async () => {
          const splits = randomSplits(utf8(capture.sse), 200, 17);
          for (const chunks of splits) expect(await decodeBody(capture, chunks)).toEqual(events);
        });
      },
    );
  },
  ['openai-responses', 'anthropic', 'azure-openai'],
);
