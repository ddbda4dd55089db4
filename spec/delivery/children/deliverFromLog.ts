// A bot process of its own (spawned by deliverRestart.spec.ts): follows a recorded reply in a
// redisEventLog from the start and delivers it to the fake Bot API with a redisLedger, printing
// each report as one JSON line. With "one-at-a-time", each edit waits until the one before it
// was delivered (so that every edit is a call of its own). The parent may SIGKILL it mid-reply.
import { createClient } from 'redis';
import { concatMap, map, of, Subject, take, tap } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import { redisEventLog, redisLedger } from '../../../src/redis';
import { followLog } from '../../../src/relay/log/followLog';
import { restartPipeline } from './restartPipeline';

const [url, streamId, apiBase, chatId, pacing] = process.argv.slice(2);
const token = process.env.BOT_TOKEN ?? '';

async function main() {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  const log = redisEventLog({ client });
  const delivered = new Subject<void>();
  followLog(log, streamId)
    .pipe(
      channel('telegram', restartPipeline.channel),
      toMessageEdits(restartPipeline.edits),
      concatMap((edit, i) =>
        pacing !== 'one-at-a-time' || i === 0
          ? of(edit)
          : delivered.pipe(
              take(1),
              map(() => edit),
            ),
      ),
      deliver(
        telegramTransport({
          token,
          chatId: Number(chatId),
          apiBase,
          minIntervalMs: 2,
          mode: 'edit',
        }),
        {
          ledger: redisLedger({ client }),
          key: streamId,
          backoffMs: 5,
        },
      ),
      tap((report) => {
        if (report.type === 'sent' || report.type === 'edited') delivered.next();
      }),
    )
    .subscribe({
      next: (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
      error: (error) => {
        process.stderr.write(`deliverFromLog failed: ${String(error)}\n`);
        process.exit(1);
      },
      complete: () => void log.close().then(() => client.destroy()),
    });
}

void main();
