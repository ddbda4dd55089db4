import { createClient } from 'redis';
import { concat, NEVER, Observable, Subject } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import { redisEventLog } from '../../src/redis';
import { followLog } from '../../src/relay/log/followLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { collect } from '../helpers/bytes';
import { connectClient, describeRedis, startRedisServer } from '../helpers/redisServer';

const delta = (i: number): StreamEvent => ({ type: 'text-delta', id: 't', delta: `d${i}` });
const codeOf = (event: StreamEvent | undefined) =>
  event?.type === 'failed' ? [event.type, event.error.code, event.error.retryable] : event;

/** Records `source`; resolves `started` once recordTo subscribed it (after the claim). */
function recording(source: Observable<StreamEvent>) {
  let started: () => void = () => undefined;
  const subscribed = new Promise<void>((resolve) => (started = resolve));
  const watched = new Observable<StreamEvent>((subscriber) => {
    const inner = source.subscribe(subscriber);
    started();
    return inner;
  });
  return { watched, subscribed };
}

describeRedis('redisEventLog when Redis is lost', () => {
  it('mid-stream: the recorders and the followers each end in one failed log-unavailable, retryable', async () => {
    const server = await startRedisServer();
    // One user client that gives up reconnecting, one that retries forever (every 50 ms).
    const bounded = await connectClient(server);
    const forever = createClient({ url: server.url, socket: { reconnectStrategy: () => 50 } });
    forever.on('error', () => undefined);
    await forever.connect();
    const boundedLog = redisEventLog({
      client: bounded,
      heartbeatMs: 100,
      maxReconnectAttempts: 2,
    });
    const foreverLog = redisEventLog({ client: forever, heartbeatMs: 100 });

    const source = new Subject<StreamEvent>();
    const a = recording(source);
    const b = recording(concat([delta(0)], NEVER));
    const recordedA = collect(a.watched.pipe(recordTo(boundedLog, 'lost-a')));
    const recordedB = collect(b.watched.pipe(recordTo(foreverLog, 'lost-b')));
    await Promise.all([a.subscribed, b.subscribed]);
    source.next(delta(0));
    source.next(delta(1));
    const followed = collect(followLog(boundedLog, 'lost-a'));
    const followedB = collect(followLog(foreverLog, 'lost-b'));
    await bounded.sendCommand(['PING']);
    await forever.sendCommand(['PING']);

    await server.kill();
    const [outA, outB, inA, inB] = await Promise.all([recordedA, recordedB, followed, followedB]);
    expect(outA.slice(0, -1)).toEqual([delta(0), delta(1)]);
    expect(codeOf(outA.at(-1))).toEqual(['failed', 'log-unavailable', true]);
    expect(outB.slice(0, -1)).toEqual([delta(0)]);
    expect(codeOf(outB.at(-1))).toEqual(['failed', 'log-unavailable', true]);
    // Followers: what they had received, then one failed.
    expect(inA.filter((event) => event.type === 'failed').length).toBe(1);
    expect(codeOf(inA.at(-1))).toEqual(['failed', 'log-unavailable', true]);
    expect(codeOf(inB.at(-1))).toEqual(['failed', 'log-unavailable', true]);
    expect(inA.slice(0, -1)).toEqual([delta(0), delta(1)].slice(0, inA.length - 1));

    await boundedLog.close();
    await foreverLog.close();
    if (forever.isOpen) forever.destroy();
    // A connect cut mid-handshake leaves node-redis one reconnect delay (≤ 2 s) to run out.
    await new Promise((resolve) => setTimeout(resolve, 2100));
  });

  it('unreachable from the start: claim and read end in one failed log-unavailable', async () => {
    const server = await startRedisServer();
    const client = await connectClient(server);
    const log = redisEventLog({ client, heartbeatMs: 100, maxReconnectAttempts: 1 });
    await server.kill();
    const recorded = await collect(concat([delta(0)], NEVER).pipe(recordTo(log, 'gone')));
    expect(recorded.map(codeOf)).toEqual([['failed', 'log-unavailable', true]]);
    const followed = await collect(followLog(log, 'gone'));
    expect(followed.map(codeOf)).toEqual([['failed', 'log-unavailable', true]]);
    await log.close();
  });
});
