import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createClient } from 'redis';
import { findExecutable } from './findExecutable';

/**
 * The redis-server the specs start: `REDIS_SERVER_BIN` when set, else the first `redis-server` on
 * the PATH (what `.ci/run`'s `command -v redis-server` finds, so CI never skips installing one the
 * specs then miss), else /usr/bin/redis-server; undefined when there is none.
 */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findExecutable('REDIS_SERVER_BIN', ['redis-server'], ['/usr/bin/redis-server'], env);
}

const foundRedisServer = findRedisServer();

/** The redis-server binary the specs start; when none is found, the name the "missing" message uses. */
export const redisServerBinary = foundRedisServer ?? process.env.REDIS_SERVER_BIN ?? 'redis-server';

/** A redis-server of a spec's own, on 127.0.0.1, nothing saved to disk. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** SIGKILLs it (a lost Redis) and waits for the process to exit. */
  kill(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts redis-server on a free port and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    redisServerBinary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close': the process exited and its stdout pipe is closed (no handle left behind).
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    void exited.then(() =>
      reject(new Error(`redis-server exited before it was ready:\n${output}`)),
    );
  });
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A node-redis client as `createClient()` makes it. */
export type TestClient = ReturnType<typeof createClient>;

/** A connected client of `server` that gives up reconnecting after a few tries. */
export async function connectClient(server: RedisServer): Promise<TestClient> {
  const client = createClient({
    url: server.url,
    socket: { reconnectStrategy: (retries) => (retries >= 3 ? false : 50 * 2 ** retries) },
  });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** The connections Redis holds right now (CLIENT LIST), by name; the caller's own included. */
export async function clientList(client: TestClient): Promise<{ name: string; cmd: string }[]> {
  const text = String(await client.sendCommand(['CLIENT', 'LIST']));
  return text
    .trim()
    .split('\n')
    .map((line) => ({
      name: /\bname=(\S*)/.exec(line)?.[1] ?? '',
      cmd: /\bcmd=(\S*)/.exec(line)?.[1] ?? '',
    }));
}

/**
 * `describe` for specs that need a real redis-server: each test file gets one, started before and
 * killed after. Without the binary: under CI=true a failing test says to install it; otherwise one
 * skipped test says so.
 */
export function describeRedis(title: string, body: (server: () => RedisServer) => void): void {
  if (!foundRedisServer) {
    describe(title, () => {
      const reason = `${redisServerBinary} is missing: apt-get install redis-server (or set REDIS_SERVER_BIN)`;
      if (process.env.CI === 'true')
        it(`fails: ${reason}`, () => {
          throw new Error(reason);
        });
      else it.skip(`skipped: ${reason}`, () => undefined);
    });
    return;
  }
  describe(title, () => {
    let server: RedisServer | undefined;
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(async () => {
      await server?.kill();
    });
    body(() => {
      if (!server) throw new Error('redis-server did not start');
      return server;
    });
  });
}
