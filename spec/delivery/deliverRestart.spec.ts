import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'redis';
import { filter, from, lastValueFrom, tap, toArray } from 'rxjs';
import { channel } from '../../src/channels/channel';
import { isMessageEdit, type MessageEdit } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { redisEventLog, redisLedger } from '../../src/redis';
import { recordTo } from '../../src/relay/log/recordTo';
import { streamEvents } from '../../src/streamEvents';
import { expectDeliveredAsPlanned } from '../helpers/deliveryChecks';
import { startFakeBotApi } from '../helpers/telegram/fakeBotApi';
import { startInterceptingProxy } from '../helpers/interceptingProxy';
import { describeRedis } from '../helpers/redisServer';
import { restartPipeline } from './children/restartPipeline';
import { startBotProcess } from './children/botProcess';

const token = '31337:RESTART-SECRET';
const demoSse = readFileSync(
  join(__dirname, '../../fixtures/demo/openrouter-reasoning-markdown.sse'),
  'utf8',
);
const children: ChildProcess[] = [];

const botProcess = (args: string[]) => startBotProcess(children, 'deliverFromLog.ts', token, args);

describeRedis('deliver with a redisLedger across a SIGKILL', (server) => {
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  it('a bot killed while an edit is in flight, then a new process: every message once, final texts complete', async () => {
    const client = createClient({ url: server().url });
    client.on('error', () => undefined);
    await client.connect();
    const api = await startFakeBotApi({ token, minIntervalMs: 2 });
    // The first bot's first edit after its first message: the fake applies it, its answer is
    // held, and the bot is killed while it waits for it.
    const proxy = await startInterceptingProxy(api.apiBase, ({ path, body }) =>
      path.endsWith('/editMessageText') && body.message_id >= 2 ? 'hold' : 'pass',
    );
    const log = redisEventLog({ client });
    try {
      const streamId = 'restart-reply';
      const events = await lastValueFrom(streamEvents(new Response(demoSse)).pipe(toArray()));
      await lastValueFrom(from(events).pipe(recordTo(log, streamId), toArray()));
      const planned: MessageEdit[] = await lastValueFrom(
        from(events).pipe(
          channel('telegram', restartPipeline.channel),
          toMessageEdits(restartPipeline.edits),
          filter(isMessageEdit),
          toArray(),
        ),
      );

      const first = botProcess([server().url, streamId, proxy.base, '9', 'one-at-a-time']);
      const held = await proxy.held();
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const open = held.body.message_id - 1;
      const sentBefore = first.reports().filter((r) => r.type === 'sent');
      expect(sentBefore.map((r) => r.message)).toEqual(
        Array.from({ length: open + 1 }, (_, i) => i),
      );
      // What the dead bot left in Redis: every message it sent, none finished past the open one.
      const ledger = await redisLedger({ client }).read(streamId);
      expect(ledger.map((entry) => entry.message).sort()).toEqual(sentBefore.map((r) => r.message));

      const second = botProcess([server().url, streamId, api.apiBase, '9', 'as-it-comes']);
      expect(await second.exited).toEqual({ code: 0, signal: null });
      const reports = second.reports();
      expect(reports.filter((r) => r.type === 'resumed').map((r) => r.message)).toEqual(
        sentBefore.map((r) => r.message),
      );
      expect(reports.filter((r) => r.type === 'delivery-failed' || r.type === 'warning')).toEqual(
        [],
      );
      expect(reports.find((r) => r.type === 'sent')?.message).toBe(open + 1);
      const finals = expectDeliveredAsPlanned(api.chats.get('9') ?? [], planned);
      expect(finals.length).toBeGreaterThan(open + 1);
      expect(finals.join('').length).toBeGreaterThan(1000);
    } finally {
      await log.close();
      await proxy.close();
      await api.close();
      client.destroy();
    }
  });
});
