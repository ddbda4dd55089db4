import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { streamEvents } from '../../src/streamEvents';
import { collectTurn } from '../../src/turn/collectTurn';
import { chunksOf, utf8 } from '../helpers/bytes';
import { describeCorpus } from '../helpers/corpus';

// collectTurn keeps what a caller sends back to the provider or shows beside the answer: the
// citations, and the opaque reasoning fields (signatures, redacted thinking, encrypted content).

const fixture = (folder: string, name: string) =>
  readFileSync(join(__dirname, '../../fixtures', folder, name), 'utf8');
const turnOf = (body: string, provider: 'anthropic' | 'openai-responses') =>
  firstValueFrom(streamEvents(chunksOf([utf8(body)]), { provider }).pipe(collectTurn()));

describe('collectTurn: citations and opaque fields', () => {
  it('Anthropic: the signature, the redacted thinking and a char_location citation', async () => {
    const turn = await turnOf(fixture('anthropic', 'thinking-redacted-text-tool.sse'), 'anthropic');
    expect(turn.reasoning).toEqual([
      { index: 0, kind: 'text', text: 'Check the list first.', signature: 'EqQBCkYsig==' },
      { index: 1, kind: 'text', text: '', redacted: ['EmwKAhgBEgy3va3pzix/LafPsn4a'] },
    ]);
    expect(turn.citations).toEqual([{ text: 'list', start: 0, end: 4 }]);
    expect(turn.text).toBe('Refreshing the list.');
  });

  it('Responses: url and file citations in order, compaction kept encrypted, the custom tool call', async () => {
    const turn = await turnOf(
      fixture('openai-responses', 'server-tools-custom-tool-citations.sse'),
      'openai-responses',
    );
    expect(turn.citations).toEqual([
      { url: 'https://rxjs.dev', title: 'RxJS', start: 15, end: 44 },
      { id: 'file-fx2', title: 'notes.md', start: 44 },
    ]);
    expect(turn.reasoning).toEqual([
      {
        index: 0,
        kind: 'text',
        text: '',
        redacted: ['gAAAA-compacted'],
        format: 'openai-compaction',
      },
    ]);
    expect(turn.toolCalls).toEqual([
      { id: 'call_fx2', name: 'run_sql', input: 'SELECT 1 FROM t;', inputText: 'SELECT 1 FROM t;' },
    ]);
    expect(turn.reasoningOnly).toBe(false);
  });

  it('a turn without citations has no citations field', async () => {
    const turn = await turnOf(fixture('openai-responses', 'refusal.sse'), 'openai-responses');
    expect(turn).not.toHaveProperty('citations');
  });
});

describeCorpus(
  'collectTurn over the captures with citations',
  (captures) => {
    const cited = captures.filter((c) => /citations|annotations/.test(c.name));
    if (cited.length === 0) {
      it.skip('skipped: no capture with citations in this corpus folder (they are in real-2026/)', () =>
        undefined);
      return;
    }
    it.each(cited.map((c) => [c.name, c] as const))(
      '%s: every citation on the wire',
      async (_n, c) => {
        const wire =
          c.sse.match(/"(citations_delta|response\.output_text\.annotation\.added)"/g) ?? [];
        const provider = c.folder === 'anthropic' ? 'anthropic' : 'openai-responses';
        const turn = await turnOf(c.sse, provider);
        expect(wire.length).toBeGreaterThan(0);
        expect(turn.citations?.length).toBe(wire.length);
        expect(turn.citations?.every((citation) => citation.url?.startsWith('https://'))).toBe(
          true,
        );
      },
    );
  },
  ['anthropic', 'openai-responses'],
);
