import { firstValueFrom, VirtualTimeScheduler } from 'rxjs';
import { redisEventLog } from '../../src/redis';
import type { RedisClientLike } from '../../src/redis';
import type { LlmRxError } from '../../src/errors';

/**
 * A client that records each command's name and virtual time, and answers the scripts the way
 * Redis would for one healthy owner, or never (`silent`), to pin the writer's timers without a
 * server: heartbeats every `heartbeatMs`, and the deadline after which a write counts as lost.
 */
function recordingClient(scheduler: VirtualTimeScheduler, silent: () => boolean) {
  const sent: string[] = [];
  const client: RedisClientLike = {
    isOpen: true,
    sendCommand(args) {
      const script = args[1] ?? '';
      const name = script.includes("'XADD'")
        ? 'append'
        : script.includes("'PEXPIRE', KEYS[1], ARGV[2]") && !script.includes('HSET')
          ? 'heartbeat'
          : script.includes("'DEL', KEYS[1]")
            ? 'release'
            : 'claim';
      sent.push(`${scheduler.now()} ${name}`);
      if (silent()) return new Promise(() => undefined);
      return Promise.resolve(1);
    },
    duplicate: () => client,
    connect: () => Promise.resolve(),
    destroy: () => undefined,
    on: () => client,
  };
  return { client, sent };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('redisEventLog writer timers (virtual time)', () => {
  it('refreshes the liveness key every heartbeatMs and stops at the terminal', async () => {
    const scheduler = new VirtualTimeScheduler();
    const { client, sent } = recordingClient(scheduler, () => false);
    const log = redisEventLog({ client, heartbeatMs: 100, scheduler });
    const writer = await firstValueFrom(log.claim('s'));
    scheduler.maxFrames = 350;
    scheduler.flush();
    writer.append({ type: 'text-delta', id: 't', delta: 'a' });
    writer.append({ type: 'completed' });
    scheduler.maxFrames = 1000;
    scheduler.flush();
    writer.release();
    await flush();
    expect(sent).toEqual([
      '0 claim',
      '100 heartbeat',
      '200 heartbeat',
      '300 heartbeat',
      '300 append',
      '300 append',
      '300 release',
    ]);
    await log.close();
  });

  it('a write Redis never answers: failures emits log-unavailable once, after max(5 s, 3 × heartbeatMs)', async () => {
    const scheduler = new VirtualTimeScheduler();
    let silent = false;
    const { client, sent } = recordingClient(scheduler, () => silent);
    const log = redisEventLog({ client, heartbeatMs: 1000, scheduler });
    const writer = await firstValueFrom(log.claim('s'));
    const failures: [number, string, boolean][] = [];
    writer.failures.subscribe((error) =>
      failures.push([scheduler.now(), (error as LlmRxError).code, (error as LlmRxError).retryable]),
    );
    silent = true;
    writer.append({ type: 'text-delta', id: 't', delta: 'a' }); // sent at 0, never answered
    scheduler.maxFrames = 20_000;
    scheduler.flush();
    // Heartbeats at 1000…5000 still go out (queued behind the write); at 6000 the write is
    // 6000 ms old (> 5000): the writer fails and stops its timer.
    expect(sent).toEqual([
      '0 claim',
      '0 append',
      '1000 heartbeat',
      '2000 heartbeat',
      '3000 heartbeat',
      '4000 heartbeat',
      '5000 heartbeat',
    ]);
    expect(failures).toEqual([[6000, 'log-unavailable', true]]);
    writer.append({ type: 'completed' }); // after a failure: ignored
    expect(sent.length).toBe(7);
    writer.release();
    await log.close();
  });
});
