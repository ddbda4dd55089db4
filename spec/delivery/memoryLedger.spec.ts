// memoryLedger as deliver (or a user) reads and writes it: one entry per message per key, kept
// as JSON the way redisLedger keeps it.
import { memoryLedger } from '../../src/delivery/memoryLedger';

describe('memoryLedger', () => {
  it('reads nothing for a key never written', async () => {
    expect(await memoryLedger().read('reply')).toEqual([]);
  });

  it('keeps one entry per message, the newest write replacing the older, in the order first written', async () => {
    const ledger = memoryLedger();
    await ledger.write('reply', { message: 0, ref: 11, text: 'Hel', finished: false });
    await ledger.write('reply', { message: 1, ref: 12, text: 'Second', finished: false });
    await ledger.write('reply', { message: 0, ref: 11, text: 'Hello', finished: true });
    expect(await ledger.read('reply')).toStrictEqual([
      { message: 0, ref: 11, text: 'Hello', finished: true },
      { message: 1, ref: 12, text: 'Second', finished: false },
    ]);
  });

  it('keeps each key apart, and delete forgets one key only', async () => {
    const ledger = memoryLedger();
    await ledger.write('a', { message: 0, ref: 'x', text: 'A', finished: false });
    await ledger.write('b', { message: 0, ref: 'y', text: 'B', finished: true });
    expect(await ledger.read('a')).toStrictEqual([
      { message: 0, ref: 'x', text: 'A', finished: false },
    ]);
    ledger.delete('a');
    expect(await ledger.read('a')).toEqual([]);
    expect(await ledger.read('b')).toStrictEqual([
      { message: 0, ref: 'y', text: 'B', finished: true },
    ]);
  });

  it('stores entries as JSON: a ref that does not survive JSON reads back changed, other fields are dropped', async () => {
    const ledger = memoryLedger();
    const entry = {
      message: 2,
      ref: { ts: '1700000000.000100', at: new Date(0), gone: undefined },
      text: 'T',
      finished: false,
      extra: 'not kept',
    };
    await ledger.write('reply', entry);
    expect(await ledger.read('reply')).toStrictEqual([
      {
        message: 2,
        ref: { ts: '1700000000.000100', at: '1970-01-01T00:00:00.000Z' },
        text: 'T',
        finished: false,
      },
    ]);
    // What was read is a copy: changing it changes nothing stored.
    const [read] = await ledger.read('reply');
    read.text = 'changed';
    expect((await ledger.read('reply'))[0].text).toBe('T');
  });

  it('read and write return Promises', async () => {
    const ledger = memoryLedger();
    const written = ledger.write('k', { message: 0, ref: 1, text: 'x', finished: false });
    expect(written).toBeInstanceOf(Promise);
    expect(await written).toBeUndefined();
    expect(ledger.read('k')).toBeInstanceOf(Promise);
  });
});
