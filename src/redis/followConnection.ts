import type { RedisClientLike } from './options';

/**
 * A duplicate of the user's client for the log's own use (reading, heartbeats): RESP2 replies,
 * bounded backed-off reconnects, named `name` in `CLIENT LIST`.
 */
export function openConnection(
  client: RedisClientLike,
  maxReconnectAttempts: number,
  stopped: () => boolean,
  name = 'llm-rx:follow',
): RedisClientLike {
  const connection = client.duplicate({
    RESP: 2,
    commandOptions: undefined,
    clientSideCache: undefined,
    name,
    socket: {
      ...(client.options?.socket ?? {}),
      reconnectStrategy: (retries: number, cause: Error) =>
        stopped() || retries >= maxReconnectAttempts ? cause : Math.min(100 * 2 ** retries, 2000),
    },
  });
  connection.on('error', () => undefined); // failures surface as rejected commands
  return connection;
}

/** The log's reading connection and where its one XREAD BLOCK stands. */
export interface Reader {
  readonly connection: RedisClientLike;
  clientId?: string;
  /** Set while an XREAD BLOCK is in flight; `woken` once a CLIENT UNBLOCK was sent for it. */
  blocked: boolean;
  woken: boolean;
  /** Destroyed only once connected: node-redis cannot abort a connect in progress. */
  connected: boolean;
  /** Set when the log lets the connection go: it must not reconnect any more. */
  stopped: boolean;
}

/** A reader on a new connection of the log's own (not connected yet). */
export function createReader(client: RedisClientLike, maxReconnectAttempts: number): Reader {
  const created: Reader = {
    connection: openConnection(client, maxReconnectAttempts, () => created.stopped),
    blocked: false,
    woken: false,
    connected: false,
    stopped: false,
  };
  return created;
}

/**
 * Ends the reader's XREAD BLOCK early (`CLIENT UNBLOCK`, sent on the user's client) so that a
 * follower who just joined is read at once; tries again, up to `attempts`, while the XREAD has
 * not reached Redis yet and the reader is still the log's (`current()`).
 */
export function wakeReader(
  client: RedisClientLike,
  reader: Reader,
  attempts: number,
  current: () => boolean,
): void {
  if (!reader.blocked || reader.woken || !reader.clientId || attempts === 0) return;
  reader.woken = true;
  client.sendCommand(['CLIENT', 'UNBLOCK', reader.clientId]).then(
    (unblocked) => {
      // 0: the XREAD had not reached Redis yet (it travels on another connection); try again.
      if (Number(unblocked) === 0 && current() && reader.blocked) {
        reader.woken = false;
        wakeReader(client, reader, attempts - 1, current);
      }
    },
    () => undefined, // without CLIENT UNBLOCK a new follower waits for the block timeout
  );
}
