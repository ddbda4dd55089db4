import { firstValueFrom } from 'rxjs';
import fc from 'fast-check';
import { LlmRxError } from '../../src/errors';
import { redisEventLog } from '../../src/redis';
import type { EventLog } from '../../src/relay/log/eventLog';
import { clientList, connectClient, describeRedis, type TestClient } from '../helpers/redisServer';
import { claim, collect, eventually, logged, sleep, textEvents } from './logHelpers';

describeRedis('redisEventLog through the EventLog interface', (server) => {
  let client: TestClient;
  let log: EventLog;
  let n = 0;
  const freshId = () => `chat-${++n}`;

  beforeAll(async () => {
    client = await connectClient(server());
    log = redisEventLog({ client, heartbeatMs: 200 });
  });
  afterAll(async () => {
    await log.close();
    client.destroy();
  });

  it('replays a finished stream from the start and completes after its terminal', async () => {
    const id = freshId();
    const writer = await claim(log, id);
    const events = textEvents(5);
    events.forEach((event) => writer.append(event));
    writer.release();
    expect(await collect(log.read(id, -1))).toEqual({ events: logged(events), end: 'complete' });
    expect(await collect(log.read(id, 2))).toEqual({ events: logged(events, 3), end: 'complete' });
    expect((await collect(log.read(id, 5))).end).toBe('invalid-last-event-id'); // the terminal's
  });

  it('keeps the order of a burst of appends on a server that knows no script yet', async () => {
    await client.sendCommand(['SCRIPT', 'FLUSH']);
    const id = freshId();
    const writer = await claim(log, id);
    const events = textEvents(50);
    events.forEach((event) => writer.append(event));
    writer.release();
    expect(await collect(log.read(id, -1))).toEqual({ events: logged(events), end: 'complete' });
  });

  it('hands over from replay to live without gap or duplicate, whatever the subscribe timing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: -1, max: 11 }),
        async (total, joinAt, afterPick) => {
          const id = freshId();
          const events = textEvents(total);
          const writer = await claim(log, id);
          const join = Math.min(joinAt, events.length);
          events.slice(0, join).forEach((event) => writer.append(event));
          // `after` may be ahead of what the stream holds when the reader joins (it waits).
          const after = Math.min(afterPick, events.length - 2);
          const read = collect(log.read(id, after));
          for (const event of events.slice(join)) {
            writer.append(event);
            if (event.type === 'text-delta' && total % 2 === 0) await sleep(1);
          }
          writer.release();
          expect(await read).toEqual({ events: logged(events, after + 1), end: 'complete' });
        },
      ),
      { numRuns: 30 },
    );
  });

  it('lets exactly one of two racing recorders claim an id, and keeps a finished id taken', async () => {
    const other = await connectClient(server());
    const otherLog = redisEventLog({ client: other, heartbeatMs: 200 });
    for (let round = 0; round < 20; round++) {
      const id = freshId();
      const results = await Promise.allSettled([claim(log, id), claim(otherLog, id)]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect([won.length, lost.length]).toEqual([1, 1]);
      expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'stream-exists' });
      const writer = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof claim>>>).value;
      writer.append({ type: 'completed' });
      writer.release();
    }
    const finished = `chat-${n}`;
    await expect(claim(otherLog, finished)).rejects.toMatchObject({ code: 'stream-exists' });
    await otherLog.close();
    other.destroy();
  });

  it('errors unknown-stream for an id never recorded, and invalid-last-event-id for a bad position', async () => {
    const missing = await collect(log.read('never-recorded', -1));
    expect([missing.end, missing.events]).toEqual(['unknown-stream', []]);
    expect(missing.error).toBeInstanceOf(LlmRxError);
    const id = freshId();
    const writer = await claim(log, id);
    textEvents(2, false).forEach((event) => writer.append(event));
    expect((await collect(log.read(id, -2))).end).toBe('invalid-last-event-id');
    expect((await collect(log.read(id, 0.5))).end).toBe('invalid-last-event-id');
    const ahead = collect(log.read(id, 2)); // open: waits for position 3
    writer.append({ type: 'text-delta', id: 't', delta: 'x' });
    writer.append({ type: 'completed' });
    writer.release();
    expect(await ahead).toEqual({
      events: [{ seq: 3, event: { type: 'completed' } }],
      end: 'complete',
    });
  });

  it('a chat key names the latest response for as long as that stream lives', async () => {
    const ttlLog = redisEventLog({
      client,
      keyPrefix: 'chat-ttl:',
      ttlSeconds: 1,
      heartbeatMs: 200,
    });
    const [first, second] = [freshId(), freshId()];
    const one = await firstValueFrom(ttlLog.claim(first, { chatId: 'c' }));
    expect([await ttlLog.latest('c'), await ttlLog.status(first)]).toEqual([first, 'open']);
    one.append({ type: 'completed' });
    one.release();
    const two = await firstValueFrom(ttlLog.claim(second, { chatId: 'c' }));
    two.append({ type: 'completed' });
    two.release();
    expect(await eventually(async () => (await ttlLog.status(second)) === 'finished')).toBe(true);
    expect([await ttlLog.latest('c'), await ttlLog.latest('other')]).toEqual([second, undefined]);
    const chatTtl = Number(await client.sendCommand(['PTTL', 'chat-ttl:chat:{c}:latest']));
    expect(chatTtl > 0 && chatTtl <= 1000).toBe(true);
    // Gone with its stream: latest then names nothing.
    expect(
      await eventually(
        async () =>
          (await ttlLog.latest('c')) === undefined && (await ttlLog.status(second)) === 'unknown',
      ),
    ).toBe(true);
    await ttlLog.close();
    await expect(ttlLog.latest('c')).rejects.toMatchObject({ code: 'log-unavailable' });
  });

  it('stores one Redis Stream per id, positions as entry ids and fields, with the TTL set on write', async () => {
    const ttlLog = redisEventLog({ client, keyPrefix: 'ttl:', ttlSeconds: 1, heartbeatMs: 200 });
    const id = freshId();
    const writer = await claim(ttlLog, id);
    const events = textEvents(2);
    events.forEach((event) => writer.append(event));
    writer.release();
    expect(await collect(ttlLog.read(id, -1))).toEqual({ events: logged(events), end: 'complete' });
    const entries = (await client.sendCommand(['XRANGE', `ttl:{${id}}:events`, '-', '+'])) as [
      string,
      string[],
    ][];
    expect(entries.map(([entryId, fields]) => [entryId, fields[0], fields[1], fields[2]])).toEqual(
      events.map((event, seq) => [`0-${seq + 1}`, 'seq', String(seq), 'event']),
    );
    const ttl = Number(await client.sendCommand(['PTTL', `ttl:{${id}}:events`]));
    expect(ttl > 0 && ttl <= 1000).toBe(true);
    // Readable until the TTL, gone after it.
    expect(
      await eventually(async () => (await collect(ttlLog.read(id, -1))).end === 'unknown-stream'),
    ).toBe(true);
    await ttlLog.close();
  });

  it('trims to maxLen and says so to a reader whose next events were trimmed', async () => {
    const trimLog = redisEventLog({ client, keyPrefix: 'trim:', maxLen: 3, heartbeatMs: 200 });
    const id = freshId();
    const writer = await claim(trimLog, id);
    const events = textEvents(6);
    events.forEach((event) => writer.append(event));
    writer.release();
    expect(Number(await client.sendCommand(['XLEN', `trim:{${id}}:events`]))).toBe(3);
    expect((await collect(trimLog.read(id, -1))).end).toBe('invalid-last-event-id');
    expect(await collect(trimLog.read(id, 3))).toEqual({
      events: logged(events, 4),
      end: 'complete',
    });
    await trimLog.close();
  });

  it("an append refreshes the recorder's liveness key (a burst never hides its heartbeat)", async () => {
    const slowBeat = redisEventLog({ client, keyPrefix: 'beat:', heartbeatMs: 10_000 });
    const id = freshId();
    const writer = await claim(slowBeat, id);
    await sleep(300); // at least 300 ms of the 15 s liveness pass; no heartbeat is due yet
    const before = Number(await client.sendCommand(['PTTL', `beat:{${id}}:alive`]));
    writer.append({ type: 'text-delta', id: 't', delta: 'x' });
    const after = Number(await client.sendCommand(['PTTL', `beat:{${id}}:alive`]));
    expect(before).toBeLessThanOrEqual(14_700);
    expect(after).toBeGreaterThan(before);
    writer.append({ type: 'completed' });
    writer.release();
    await slowBeat.close();
  });

  it('ends followers with producer-lost after every stored event when the recorder stops refreshing', async () => {
    const producerClient = await connectClient(server());
    const producerLog = redisEventLog({ client: producerClient, heartbeatMs: 200 });
    const id = freshId();
    const writer = await claim(producerLog, id);
    const events = textEvents(4, false);
    const early = collect(log.read(id, -1));
    events.forEach((event) => writer.append(event));
    await producerClient.sendCommand(['PING']); // the appends landed
    // The producer's connection dies without a goodbye: no terminal, no release.
    producerClient.destroy();
    const late = collect(log.read(id, 1));
    const [a, b] = await Promise.all([early, late]);
    expect([a.events, a.end, a.error?.retryable]).toEqual([logged(events), 'producer-lost', true]);
    expect([b.events, b.end]).toEqual([logged(events, 2), 'producer-lost']);
    await producerLog.close();
  });

  it('never blocks the user connection, and CLIENT LIST returns to its baseline', async () => {
    const observer = await connectClient(server());
    const baseline = (await clientList(observer)).length;
    const named = async (name: string) =>
      (await clientList(observer)).filter((c) => c.name === name).length;
    const followLog = redisEventLog({ client, heartbeatMs: 200 });
    const ids = [freshId(), freshId(), freshId()];
    const writers = await Promise.all(ids.map((id) => claim(log, id)));
    // The three recorders share one heartbeat connection of their log's own.
    expect(await eventually(async () => (await named('llm-rx:heartbeat')) === 1)).toBe(true);
    const reads = ids.flatMap((id) => [
      followLog.read(id, -1).subscribe(),
      followLog.read(id, -1).subscribe(),
    ]);
    expect(
      await eventually(async () =>
        (await clientList(observer)).some((c) => c.name === 'llm-rx:follow' && c.cmd === 'xread'),
      ),
    ).toBe(true);
    // One connection of the log's own for six followers; the user's client answers meanwhile.
    expect((await clientList(observer)).length).toBe(baseline + 2);
    expect(await client.sendCommand(['PING'])).toBe('PONG');
    reads.forEach((subscription) => subscription.unsubscribe());
    expect(await eventually(async () => (await named('llm-rx:follow')) === 0)).toBe(true);
    // A follower again, then close(): everything the log opened is released.
    const again = collect(followLog.read(ids[0], -1));
    expect(await eventually(async () => (await named('llm-rx:follow')) === 1)).toBe(true);
    await followLog.close();
    expect((await again).end).toBe('log-unavailable');
    expect(await eventually(async () => (await named('llm-rx:follow')) === 0)).toBe(true);
    // The last recorder released: its heartbeat connection goes too.
    writers.forEach((writer) => writer.release());
    expect(await eventually(async () => (await clientList(observer)).length === baseline)).toBe(
      true,
    );
    observer.destroy();
  });
});
