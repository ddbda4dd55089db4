import fc from 'fast-check';
import { fromSse } from '../../src/source/fromSse';
import { chunksOf, collect, splitAt, utf8 } from '../helpers/bytes';

// DESIGN §25: a byte-order mark is stripped once, the same on every runtime. Node 24's
// TextDecoder drops a doubled BOM where Node 20 drops one, so the source strips it itself.

const BOM = '\uFEFF';

async function datas(chunks: Array<Uint8Array | string>): Promise<string[]> {
  return (await collect(fromSse(chunksOf(chunks)))).map((message) => message.data);
}

describe('fromSse: one leading BOM is stripped, no more', () => {
  const text = `${BOM}${BOM}data:1\n\ndata:2\n\n`;

  it('bytes: of a double BOM only the first goes (the second starts the field name)', async () => {
    expect(await datas([utf8(text)])).toEqual(['2']);
  });

  it('strings: the same as bytes', async () => {
    expect(await datas([text])).toEqual(['2']);
    expect(await datas([BOM, `${BOM}data:1\n\n`, 'data:2\n\n'])).toEqual(['2']);
  });

  it('a single BOM is stripped, also when its three bytes arrive one by one', async () => {
    const bytes = utf8(`${BOM}data:1\n\n`);
    expect(await datas(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toEqual(['1']);
  });

  it('property: any split of a body with n leading BOMs strips exactly one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 }),
        fc.array(fc.nat({ max: 40 }), { maxLength: 6 }),
        async (boms, offsets) => {
          const bytes = utf8(`${BOM.repeat(boms)}data:a\n\ndata:b\n\n`);
          // With no BOM or one, both events arrive; with more, the first field name keeps a BOM.
          const expected = boms <= 1 ? ['a', 'b'] : ['b'];
          expect(await datas(splitAt(bytes, offsets))).toEqual(expected);
        },
      ),
      { seed: 2025, numRuns: 200 },
    );
  });
});
