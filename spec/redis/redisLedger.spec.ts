import { redisLedger } from '../../src/redis';
import { connectClient, describeRedis, type TestClient } from '../helpers/redisServer';

describeRedis('redisLedger', (server) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connectClient(server());
  });
  afterAll(() => client.destroy());

  it('replaces one entry per message under the reply key, and refreshes its TTL', async () => {
    const ledger = redisLedger({ client, keyPrefix: 'test:', ttlSeconds: 120 });
    expect(await ledger.read('r1')).toEqual([]);
    await ledger.write('r1', { message: 0, ref: 11, text: 'A', finished: false });
    await ledger.write('r1', { message: 1, ref: { ts: '1.2' }, text: 'B', finished: false });
    await ledger.write('r1', { message: 0, ref: 11, text: 'AB', finished: true });
    const entries = await ledger.read('r1');
    expect(entries.sort((a, b) => a.message - b.message)).toEqual([
      { message: 0, ref: 11, text: 'AB', finished: true },
      { message: 1, ref: { ts: '1.2' }, text: 'B', finished: false },
    ]);
    expect(await ledger.read('r2')).toEqual([]);
    const ttl = Number(await client.sendCommand(['TTL', 'test:{r1}:ledger']));
    expect(ttl).toBeGreaterThan(100);
    expect(ttl).toBeLessThanOrEqual(120);
  });

  it('rejects a read that finds something that is not an entry', async () => {
    await client.sendCommand(['HSET', 'llm-rx:{bad}:ledger', '0', '{"message":0}']);
    await expect(redisLedger({ client }).read('bad')).rejects.toThrow(
      'redisLedger: an entry under "bad" is not a ledger entry ({"message":0})',
    );
  });

  it('rejects bad options at once', () => {
    expect(() => redisLedger({ client: {} as any })).toThrow(/expected a node-redis 5 client/);
    expect(() => redisLedger({ client, ttlSeconds: 0 })).toThrow(/ttlSeconds/);
  });
});
