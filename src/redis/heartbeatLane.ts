import type { RedisClientLike } from './options';
import { openConnection } from './followConnection';

/**
 * The recorders' liveness refreshes, on a connection of their own (`client.duplicate()`), so that
 * a heartbeat never waits behind a backlog of appends on the user's client: under load a deep
 * queue of XADDs there would let a live recorder's liveness key lapse (its followers told
 * `producer-lost`, the recorder `log-unavailable`). Opened with the first writer, destroyed with
 * the last one (the log never holds a process open); while it connects, or if it cannot,
 * heartbeats go on the user's client as before.
 */
export interface HeartbeatLane {
  /** A writer starts using the lane (opens it with the first). */
  acquire(): void;
  /** A writer is done with it (closes it after the last). */
  release(): void;
  /** Runs `command` on the lane's connection, or on the user's client while it is not open. */
  run<T>(command: (client: RedisClientLike) => Promise<T>): Promise<T>;
  /** Closes it for good (the log closed). */
  close(): void;
}

/** The lane's connection and where its connect stands. */
interface Lane {
  connection: RedisClientLike;
  ready: Promise<boolean>;
  connected: boolean;
  stopped: boolean;
}

/** The lane of one log over `client`. */
export function createHeartbeatLane(
  client: RedisClientLike,
  maxReconnectAttempts: number,
): HeartbeatLane {
  let users = 0;
  let closed = false;
  let current: Lane | undefined;

  const open = () => {
    const lane: Lane = {
      connection: undefined as unknown as RedisClientLike,
      ready: Promise.resolve(false),
      connected: false,
      stopped: false,
    };
    lane.connection = openConnection(
      client,
      maxReconnectAttempts,
      () => lane.stopped,
      'llm-rx:heartbeat',
    );
    lane.ready = lane.connection.connect().then(
      () => {
        // Every writer left while it connected: let it go now.
        if (lane.stopped) lane.connection.destroy();
        lane.connected = !lane.stopped;
        return lane.connected;
      },
      () => false,
    );
    return lane;
  };
  const shut = () => {
    const lane = current;
    current = undefined;
    if (!lane) return;
    lane.stopped = true;
    // node-redis cannot abort a connect in progress: destroy once it settled.
    void lane.ready.then(
      (connected) => connected && lane.connection.isOpen && lane.connection.destroy(),
    );
  };

  return {
    acquire() {
      users++;
      if (!current && !closed) current = open();
    },
    release() {
      users = Math.max(0, users - 1);
      if (users === 0) shut();
    },
    // Never waits for the connect: until the lane is open, a heartbeat goes on the user's client.
    run(command) {
      const lane = current;
      const open = lane && lane.connected && !lane.stopped && lane.connection.isOpen;
      return command(open ? lane.connection : client);
    },
    close() {
      closed = true;
      shut();
    },
  };
}
