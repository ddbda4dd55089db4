import { createClient } from 'redis';
import { redisEventLog } from '../../../src/redis';
import { chatRoutes, type CallModel } from './chatRoutes.js';
import { chatServer } from './nodeServer.js';

/** One node of a useChat service behind a load balancer: any node answers any turn or resume. */
export async function startChatNode(redisUrl: string, callModel: CallModel, port = 3000) {
  const client = await createClient({
    url: redisUrl,
    socket: { reconnectStrategy: (retries) => (retries < 5 ? 100 * 2 ** retries : false) },
  })
    .on('error', (error) => console.error('redis:', error.message))
    .connect();
  const log = redisEventLog({ client }); // keyPrefix 'llm-rx:', ttlSeconds 3600, heartbeatMs 2000
  const server = chatServer(chatRoutes(log, callModel));
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  return {
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
      await log.close(); // its followers end, its own connection goes
      client.destroy(); // after the log, which never closes your client
    },
  };
}
