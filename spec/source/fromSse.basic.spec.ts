import { fromSse } from '../../src/source/fromSse';
import { chunksOf, collect, utf8 } from '../helpers/bytes';

describe('fromSse basics', () => {
  it('parses events, names, ids and skips comments', async () => {
    const body = ': OPENROUTER PROCESSING\n\nevent: ping\nid: 7\ndata: {"a":1}\n\ndata: [DONE]\n\n';
    expect(await collect(fromSse(chunksOf([utf8(body)])))).toEqual([
      { event: 'ping', id: '7', data: '{"a":1}' },
      { id: '7', data: '[DONE]' },
    ]);
  });

  it('accepts an unterminated final event only when its data is complete JSON', async () => {
    const warnings: string[] = [];
    const onWarning = (w: { code: string }) => warnings.push(w.code);
    expect(await collect(fromSse(chunksOf(['data: {"a":1}']), { onWarning }))).toEqual([
      { data: '{"a":1}' },
    ]);
    expect(await collect(fromSse(chunksOf(['data: {"a":']), { onWarning }))).toEqual([]);
    expect(warnings).toEqual(['truncated-event']);
  });
});
