import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamEvent } from '../../src/events';
import type { ProviderName } from '../../src/providers/detect';
import { streamEvents } from '../../src/streamEvents';
import { isTerminal } from '../../src/terminalEvents';
import { chunksOf, collect, randomSplits, utf8 } from '../helpers/bytes';
import { bedrockBody } from '../helpers/eventStreamFrames';

// The 2026 captures of Cohere, Bedrock and the OpenAI-compatible gateways, read from the
// folders LLMRX_CORPUS_DIR names (colon-separated; the one holding these folders is used).

const FOLDERS: Record<string, ProviderName> = {
  cohere: 'cohere',
  bedrock: 'bedrock',
  'azure-openai': 'openai-chat',
  xai: 'openai-chat',
  groq: 'openai-chat',
  mistral: 'openai-chat',
  perplexity: 'openai-chat',
};

interface Capture {
  name: string;
  provider: ProviderName;
  payloads: Array<Record<string, any>>;
  body: Uint8Array;
  contentType: string;
}

function payloadsOfSse(sse: string): Array<Record<string, any>> {
  return sse
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '[DONE]')
    .map((line) => JSON.parse(line.slice(5)));
}

function loadCaptures(): Capture[] {
  const roots = (process.env.LLMRX_CORPUS_DIR ?? '').split(':').filter(Boolean);
  const captures: Capture[] = [];
  for (const root of roots) {
    for (const folder of Object.keys(FOLDERS)) {
      const dir = join(root, folder);
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).sort()) {
        // Azure's Responses captures belong to the Responses decoder's corpus.
        if (folder === 'azure-openai' && file.includes('responses')) continue;
        const text = readFileSync(join(dir, file), 'utf8');
        const name = `${folder}/${file}`;
        const provider = FOLDERS[folder];
        if (file.endsWith('.sse')) {
          const body = utf8(text);
          captures.push({
            name,
            provider,
            payloads: payloadsOfSse(text),
            body,
            contentType: 'text/event-stream',
          });
          continue;
        }
        const payloads = text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l));
        const body =
          provider === 'bedrock'
            ? bedrockBody(payloads)
            : utf8(payloads.map((p) => `data: ${JSON.stringify(p)}\n\n`).join(''));
        const contentType =
          provider === 'bedrock' ? 'application/vnd.amazon.eventstream' : 'text/event-stream';
        captures.push({ name, provider, payloads, body, contentType });
      }
    }
  }
  return captures;
}

/** The answer's text as the provider's own payloads spell it, read without the decoders. */
function providerText(capture: Capture): string {
  let text = '';
  const textParts = new Set<number>();
  for (const p of capture.payloads) {
    if (capture.provider === 'cohere') {
      if (p.type === 'content-start' && p.delta.message.content.type === 'text')
        textParts.add(p.index);
      if (p.type === 'content-delta' && textParts.has(p.index))
        text += p.delta.message.content.text;
    } else if (capture.provider === 'bedrock') {
      text += p.contentBlockDelta?.delta?.text ?? '';
    } else {
      const content = p.choices?.[0]?.delta?.content;
      if (typeof content === 'string') text += content;
      if (Array.isArray(content))
        for (const part of content) if (part.type === 'text') text += part.text;
    }
  }
  return text;
}

const decode = (capture: Capture, chunks: Uint8Array[], provider?: ProviderName) =>
  collect(
    streamEvents(
      new Response(chunksToStream(chunks), { headers: { 'content-type': capture.contentType } }),
      provider ? { provider } : {},
    ),
  );

function chunksToStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

const textOf = (events: StreamEvent[]) =>
  events.map((e) => (e.type === 'text-delta' ? e.delta : '')).join('');

const captures = loadCaptures();

if (captures.length === 0) {
  describe('2026 captures: Cohere, Bedrock, OpenAI-compatible gateways', () => {
    it.skip('skipped: LLMRX_CORPUS_DIR is not set, or names no folder holding cohere/, bedrock/, groq/ …', () =>
      undefined);
  });
} else {
  describe.each(captures.map((c) => [c.name, c] as const))('%s', (_name, capture) => {
    let events: StreamEvent[];
    beforeAll(async () => {
      events = await decode(capture, [capture.body], capture.provider);
    });

    it('ends in exactly one terminal, last', () => {
      expect(events.filter(isTerminal)).toHaveLength(1);
      expect(isTerminal(events[events.length - 1])).toBe(true);
    });

    it("delivers exactly the provider's own concatenation of the text", () => {
      expect(textOf(events)).toBe(providerText(capture));
    });

    it('warns about nothing', () => {
      expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    });

    it('is auto-detected: the same events with the provider omitted', async () => {
      expect(await decode(capture, [capture.body])).toEqual(events);
    });

    it('gives identical events for 200 random re-chunkings of its bytes', async () => {
      for (const chunks of randomSplits(capture.body, 200, 23))
        expect(await decode(capture, chunks, capture.provider)).toEqual(events);
    });
  });

  const find = (name: string) => captures.find((c) => c.name === name);

  it('Perplexity: one citation per cited URL, once each, in list order', async () => {
    const capture = find('perplexity/vercel-perplexity-sonar-citations.chunks.jsonl');
    if (!capture) return;
    const events = await decode(capture, [capture.body]);
    const urls: string[] = capture.payloads[0].citations;
    expect(events.filter((e) => e.type === 'citation')).toEqual(
      urls.map((url, i) => ({ type: 'citation', id: String(i + 1), url })),
    );
  });

  it("Groq: an error event mid-stream without [DONE] is one failed with Groq's code", async () => {
    const capture = find('groq/pydantic-groq-gpt-oss-120b-tool-use-failed-error.sse');
    if (!capture) return;
    const last = (await decode(capture, [capture.body])).at(-1);
    expect(last).toEqual({
      type: 'failed',
      error: expect.objectContaining({ code: 'tool_use_failed', retryable: false }),
    });
  });

  it('Groq compound: the executed search is a provider-executed tool-start and tool-end', async () => {
    const capture = find('groq/pydantic-groq-compound-executed-tools-search.sse');
    if (!capture) return;
    const tools = (await decode(capture, [capture.body])).filter(
      (e) => e.type === 'tool-start' || e.type === 'tool-end',
    );
    expect(tools.map((e) => [e.type, e.name, e.providerExecuted])).toEqual([
      ['tool-start', 'search', true],
      ['tool-end', 'search', true],
    ]);
    expect(tools[0]).toEqual(
      expect.objectContaining({ args: { query: 'What is the weather in San Francisco today?' } }),
    );
  });

  it('xAI: cost_in_usd_ticks (1e-10 USD) is usage.cost', async () => {
    const capture = find('xai/fantasy-grok-4-fast-parallel-tools-whole-args.sse');
    if (!capture) return;
    const completed = (await decode(capture, [capture.body])).at(-1);
    expect(completed).toEqual(
      expect.objectContaining({ usage: expect.objectContaining({ cost: 1654500 / 1e10 }) }),
    );
  });

  it('Bedrock: the reasoning signature is kept on reasoning-end', async () => {
    const capture = captures.find((c) => c.provider === 'bedrock');
    if (!capture) return;
    const signature = capture.payloads
      .map((p) => p.contentBlockDelta?.delta?.reasoningContent?.signature ?? '')
      .join('');
    const ends = (await decode(capture, [capture.body])).filter((e) => e.type === 'reasoning-end');
    expect(ends).toEqual([expect.objectContaining({ signature })]);
    expect(signature.length).toBeGreaterThan(100);
  });
}
