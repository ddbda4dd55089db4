import type { RedisClientLike } from './options';

/** A duplicate of the user's client for reading: RESP2 replies, bounded backed-off reconnects. */
export function openConnection(
  client: RedisClientLike,
  maxReconnectAttempts: number,
  stopped: () => boolean,
): RedisClientLike {
  const connection = client.duplicate({
    RESP: 2,
    commandOptions: undefined,
    clientSideCache: undefined,
    name: 'llm-rx:follow',
    socket: {
      ...(client.options?.socket ?? {}),
      reconnectStrategy: (retries: number, cause: Error) =>
        stopped() || retries >= maxReconnectAttempts ? cause : Math.min(100 * 2 ** retries, 2000),
    },
  });
  connection.on('error', () => undefined); // failures surface as rejected commands
  return connection;
}
