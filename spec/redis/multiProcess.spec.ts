import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { describeRedis } from '../helpers/redisServer';

const HEARTBEAT_MS = 300;
const children: ChildProcess[] = [];

/** Spawns a spec child under tsx; `lines` collects its stdout lines, `exited` its end. */
function child(name: string, args: string[]) {
  const process_ = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'children', `${name}.ts`), ...args],
    { cwd: join(__dirname, '..', '..'), stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(process_);
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffered = '';
  process_.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    waiters.splice(0).forEach((wake) => wake());
  });
  const exited = new Promise<number | null>((resolve) =>
    process_.once('exit', (code) => {
      resolve(code);
      waiters.splice(0).forEach((wake) => wake());
    }),
  );
  /** Resolves once `test` holds for the lines (re-checked on each new line). */
  const until = async (test: (lines: string[]) => boolean) => {
    while (!test(lines)) {
      if (process_.exitCode !== null || process_.signalCode !== null)
        throw new Error(`${name} exited early; it printed:\n${lines.join('\n')}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { process: process_, lines, exited, until };
}

describeRedis('redisEventLog across processes', (server) => {
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  it('a producer SIGKILLed mid-stream: followers in other processes get every event, then one producer-lost', async () => {
    const url = server().url;
    const producer = child('producer', [url, 'chat-mp', String(HEARTBEAT_MS)]);
    await producer.until((lines) => lines.includes('ready 5'));
    const fromStart = child('follower', [url, 'chat-mp', '-1', String(HEARTBEAT_MS)]);
    const resumed = child('follower', [url, 'chat-mp', '2', String(HEARTBEAT_MS)]);
    await fromStart.until((lines) => lines.length === 5);
    await resumed.until((lines) => lines.length === 2);
    // Live events while both follow, then the producer dies without a goodbye.
    producer.process.stdin?.write('more\n');
    await producer.until((lines) => lines.includes('ready 10'));
    producer.process.kill('SIGKILL');
    expect(await producer.exited).toBe(null);
    expect([await fromStart.exited, await resumed.exited]).toEqual([0, 0]);

    const deltas = (from: number) =>
      Array.from({ length: 10 - from }, (_, i) =>
        JSON.stringify({ type: 'text-delta', id: 't', delta: `e${from + i}` }),
      );
    const lost = {
      type: 'failed',
      error: {
        code: 'producer-lost',
        message:
          'redisEventLog: the recorder of "chat-mp" stopped refreshing its liveness key (its process died or stalled); every event it stored was delivered; retry the request',
        retryable: true,
      },
    };
    expect(fromStart.lines).toEqual([...deltas(0), JSON.stringify(lost)]);
    expect(resumed.lines).toEqual([...deltas(3), JSON.stringify(lost)]);
  });
});
