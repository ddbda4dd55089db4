import { createOpenAIChatDecoder } from '../../src/providers/openaiChat';
import { decodePayloads } from './decoderSupport';

const decode = (payloads: object[]) => decodePayloads(createOpenAIChatDecoder(), payloads);
const chunk = (delta: object, extra: object = {}) => ({
  id: 'r',
  choices: [{ index: 0, delta }],
  ...extra,
});
const finish = (reason: string) => ({
  id: 'r',
  choices: [{ index: 0, delta: {}, finish_reason: reason }],
});

describe('decodeOpenAIChat: the 2026 gateways', () => {
  it('Gemini: whole tool calls without index are separate calls, each keeping its thought_signature', () => {
    const call = (id: string, name: string, signature?: string) => ({
      id,
      type: 'function',
      function: { name, arguments: '{"q":1}' },
      ...(signature ? { extra_content: { google: { thought_signature: signature } } } : {}),
    });
    const events = decode([
      chunk({ role: 'assistant', tool_calls: [call('c1', 'a', 'sig-1'), call('c2', 'b')] }),
      finish('tool_calls'),
    ]);
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        id: 'c1',
        name: 'a',
        input: { q: 1 },
        inputText: '{"q":1}',
        signature: 'sig-1',
      },
      { type: 'tool-call', id: 'c2', name: 'b', input: { q: 1 }, inputText: '{"q":1}' },
    ]);
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
  });

  it('Azure: prompt and content filter chunks with empty choices decode to nothing and warn about nothing', () => {
    const events = decode([
      {
        id: '',
        choices: [],
        prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
      },
      {
        id: 'r',
        choices: [
          {
            index: 0,
            delta: { content: 'Hi' },
            content_filter_results: { hate: { filtered: false } },
          },
        ],
      },
      finish('stop'),
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
  });

  it('Perplexity: each cited URL becomes one citation, numbered as the answer cites it, however often it is resent', () => {
    const citations = ['https://a.example', 'https://b.example'];
    const events = decode([
      chunk({ content: 'See [1]' }, { citations: citations.slice(0, 1) }),
      chunk({ content: ' and [2]' }, { citations }),
      chunk({ content: '.' }, { citations }),
    ]);
    expect(events.filter((e) => e.type === 'citation')).toEqual([
      { type: 'citation', id: '1', url: 'https://a.example' },
      { type: 'citation', id: '2', url: 'https://b.example' },
    ]);
  });

  it('Perplexity: search_results give the citations their titles; alone, they are the list', () => {
    const results = [
      { url: 'https://a.example', title: 'A' },
      { url: 'https://b.example', title: 'B', date: '2026-01-01' },
    ];
    const withBoth = decode([
      chunk(
        { content: 'x' },
        { citations: ['https://b.example', 'https://a.example'], search_results: results },
      ),
    ]);
    expect(withBoth.filter((e) => e.type === 'citation')).toEqual([
      { type: 'citation', id: '1', url: 'https://b.example', title: 'B' },
      { type: 'citation', id: '2', url: 'https://a.example', title: 'A' },
    ]);
    const alone = decode([chunk({ content: 'x' }, { search_results: results.slice(0, 1) })]);
    expect(alone.filter((e) => e.type === 'citation')).toEqual([
      { type: 'citation', id: '1', url: 'https://a.example', title: 'A' },
    ]);
  });

  it('Groq compound: executed_tools → provider-executed tool-start, then tool-end once the output comes', () => {
    const tool = { index: 0, type: 'search', arguments: '{"query":"x"}' };
    const events = decode([
      chunk({ reasoning: 'Searching', executed_tools: [tool] }),
      chunk({ executed_tools: [{ ...tool, output: 'found' }] }),
      chunk({ executed_tools: [{ ...tool, output: 'found' }] }),
    ]);
    expect(events.filter((e) => e.type === 'tool-start' || e.type === 'tool-end')).toEqual([
      {
        type: 'tool-start',
        id: 'r:executed:0',
        name: 'search',
        args: { query: 'x' },
        providerExecuted: true,
      },
      {
        type: 'tool-end',
        id: 'r:executed:0',
        name: 'search',
        result: 'found',
        providerExecuted: true,
      },
    ]);
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
  });

  it('xAI: cost_in_usd_ticks is usage.cost in USD; an explicit cost wins', () => {
    const usage = (extra: object) => ({
      id: 'r',
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, ...extra },
    });
    const costs = (payload: object) =>
      decode([chunk({ content: 'x' }), payload]).flatMap((e) =>
        e.type === 'usage' ? [e.cost] : [],
      );
    expect(costs(usage({ cost_in_usd_ticks: 1654500 }))).toEqual([0.00016545]);
    expect(costs(usage({ cost_in_usd_ticks: 1654500, cost: 0.5 }))).toEqual([0.5]);
  });

  it("vLLM's reasoning field and Groq's channel label: reasoning, without a warning", () => {
    const events = decode([
      chunk({ reasoning: 'think', channel: 'analysis' }),
      chunk({ content: 'ok' }),
    ]);
    expect(
      events
        .filter((e) => e.type === 'reasoning-delta')
        .map((e) => e.type === 'reasoning-delta' && e.delta),
    ).toEqual(['think']);
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
  });
});
