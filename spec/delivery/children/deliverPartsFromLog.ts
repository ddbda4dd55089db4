// A bot process of its own (spawned by deliverRestartParts.spec.ts): follows a reply in a
// redisEventLog from the start and delivers it as one chat message, long enough that the
// platform holds it in several messages (Slack: rotated streams; Telegram and Discord:
// continuation messages), with a redisLedger, printing each report as one JSON line. The parent
// SIGKILLs it while the reply is still being written.
import { createClient } from 'redis';
import { filter, map, scan } from 'rxjs';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { deliver } from '../../../src/delivery/deliver';
import type { DeliveryTransport } from '../../../src/delivery/types';
import { discordTransport } from '../../../src/platforms/discord/discordTransport';
import { slackTransport } from '../../../src/platforms/slack/slackTransport';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import { redisEventLog, redisLedger } from '../../../src/redis';
import { followLog } from '../../../src/relay/log/followLog';

const [platform, url, streamId, apiBase] = process.argv.slice(2);
const token = process.env.BOT_TOKEN ?? '';

/** The transports the spec restarts, as the spec's fakes expect them. */
const partsPlatforms = {
  slack: () =>
    slackTransport({
      token,
      channel: 'C0RESTART',
      threadTs: '1699999999.000001',
      recipientUserId: 'U0USER',
      recipientTeamId: 'T0TEAM',
      apiBase,
      minIntervalMs: 2,
      maxStreamBytes: 1500,
    }),
  telegram: () => telegramTransport({ token, chatId: 9, apiBase, minIntervalMs: 2, mode: 'edit' }),
  discord: () => discordTransport({ token, channelId: 'C0RESTART', apiBase }),
} satisfies Record<string, () => DeliveryTransport<any>>;

async function main() {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  const log = redisEventLog({ client });
  const transport = partsPlatforms[platform as keyof typeof partsPlatforms]();
  followLog(log, streamId)
    .pipe(
      filter((event) => event.type === 'text-delta'),
      scan((text, event) => text + event.delta, ''),
      map((text, i): MessageEdit => ({ op: i === 0 ? 'send' : 'edit', message: 0, text })),
      deliver(transport as DeliveryTransport<unknown>, {
        ledger: redisLedger({ client }),
        key: streamId,
        backoffMs: 5,
      }),
    )
    .subscribe({
      next: (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
      error: (error) => {
        process.stderr.write(`deliverPartsFromLog failed: ${String(error)}\n`);
        process.exit(1);
      },
      complete: () => void log.close().then(() => client.destroy()),
    });
}

if (platform !== undefined) void main();
