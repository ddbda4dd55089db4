// A bot process that records the model's answer and delivers it (spawned by
// answerAfterCrash.spec.ts): mode "record" streams a paced answer into a redisEventLog and, in
// the same process, follows it from the log and delivers it to the fake Bot API with a
// redisLedger; mode "deliver" only follows and delivers. Each report is one JSON line. The
// parent SIGKILLs the "record" process mid-answer: its recording never ends.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'redis';
import { channel } from '../../../src/channels/channel';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import { telegramTransport } from '../../../src/platforms/telegram/telegramTransport';
import { redisEventLog, redisLedger } from '../../../src/redis';
import { followLog } from '../../../src/relay/log/followLog';
import { recordTo } from '../../../src/relay/log/recordTo';
import { streamEvents } from '../../../src/streamEvents';
import { restartPipeline } from './restartPipeline';

const [url, streamId, apiBase, chatId, mode] = process.argv.slice(2);
const token = process.env.BOT_TOKEN ?? '';
const HEARTBEAT_MS = 200;

/** The fixture's SSE body, one line every 15 ms: a model that takes its time. */
function pacedAnswer(): Response {
  const sse = readFileSync(
    join(__dirname, '../../../fixtures/demo/openrouter-reasoning-markdown.sse'),
    'utf8',
  );
  const lines = sse.split(/(?<=\n)/);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const next = (index: number) => {
        if (index >= lines.length) return controller.close();
        controller.enqueue(new TextEncoder().encode(lines[index]));
        timer = setTimeout(() => next(index + 1), 15);
      };
      next(0);
    },
    cancel: () => clearTimeout(timer),
  });
  return new Response(body);
}

async function main() {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  const log = redisEventLog({ client, heartbeatMs: HEARTBEAT_MS });
  if (mode === 'record') streamEvents(pacedAnswer()).pipe(recordTo(log, streamId)).subscribe();
  followLog(log, streamId)
    .pipe(
      channel('telegram', restartPipeline.channel),
      toMessageEdits(restartPipeline.edits),
      deliver(
        telegramTransport({
          token,
          chatId: Number(chatId),
          apiBase,
          minIntervalMs: 2,
          mode: 'edit',
        }),
        { ledger: redisLedger({ client }), key: streamId, backoffMs: 5 },
      ),
    )
    .subscribe({
      next: (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
      error: (error) => {
        process.stderr.write(`recordAndAnswer failed: ${String(error)}\n`);
        process.exit(1);
      },
      complete: () => void log.close().then(() => client.destroy()),
    });
}

void main();
