import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastValueFrom, tap, toArray, type OperatorFunction } from 'rxjs';
import { channel } from '../../src/channels/channel';
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { deliver } from '../../src/delivery/deliver';
import { slackTransport } from '../../src/delivery/slackTransport';
import { telegramTransport } from '../../src/delivery/telegramTransport';
import type { DeliveryReport } from '../../src/delivery/types';
import { streamEvents } from '../../src/streamEvents';
import { describeCorpus } from '../helpers/corpus';
import { expectDeliveredAsPlanned, seededRandom } from '../helpers/deliveryChecks';
import { startFakeBotApi } from '../helpers/fakeBotApi';
import { startFakeSlackApi } from '../helpers/fakeSlackApi';

const token = '4242:PIPELINE-SECRET';
const demoSse = readFileSync(
  join(__dirname, '../../fixtures/demo/openrouter-reasoning-markdown.sse'),
  'utf8',
);
// The repo's fixture holds a short answer: smaller blocks and messages split it over several.
const small = { minChars: 100, maxChars: 300, maxMessageChars: 400 };

interface PipelineSettings {
  minChars?: number;
  maxChars?: number;
  maxMessageChars: number;
}

/** Faults for one run: every request with random latency, some forced 429s and 500s. */
function randomFaults(seed: number) {
  const random = seededRandom(seed);
  return {
    latencyMs: () => Math.floor(random() * 8),
    fault: (n: number) =>
      n % 7 === 3 ? ('rate-limit' as const) : n % 11 === 5 ? ('server-error' as const) : undefined,
  };
}

/** Runs `sse` through the whole pipeline; returns what toMessageEdits planned and the reports. */
async function runPipeline(
  sse: string,
  name: 'telegram' | 'slack',
  settings: PipelineSettings,
  planEdits: OperatorFunction<any, MessageEdit>,
  sink: OperatorFunction<MessageEdit, DeliveryReport>,
) {
  const planned: MessageEdit[] = [];
  const { maxMessageChars: _, ...overrides } = settings;
  const reports = await lastValueFrom(
    streamEvents(new Response(sse)).pipe(
      channel(name, overrides),
      planEdits,
      tap((edit) => planned.push(edit)),
      sink,
      toArray(),
    ),
  );
  return { planned, reports };
}

async function deliverToTelegram(sse: string, settings: PipelineSettings, seed: number) {
  const api = await startFakeBotApi({ token, minIntervalMs: 5, ...randomFaults(seed) });
  try {
    const transport = telegramTransport({
      token,
      chatId: 7,
      apiBase: api.apiBase,
      minIntervalMs: 5,
    });
    const run = await runPipeline(
      sse,
      'telegram',
      settings,
      toMessageEdits({ maxMessageChars: settings.maxMessageChars }),
      deliver(transport, { backoffMs: 2 }),
    );
    return { ...run, held: api.chats.get('7') ?? [], counts: api.counts };
  } finally {
    await api.close();
  }
}

async function deliverToSlack(sse: string, settings: PipelineSettings, seed: number) {
  const api = await startFakeSlackApi({
    token,
    channels: ['C1'],
    minIntervalMs: 5,
    ...randomFaults(seed),
  });
  try {
    const transport = slackTransport({
      token,
      channel: 'C1',
      apiBase: api.apiBase,
      minIntervalMs: 5,
    });
    const run = await runPipeline(
      sse,
      'slack',
      settings,
      toMessageEdits({ maxMessageChars: settings.maxMessageChars }),
      deliver(transport, { backoffMs: 2 }),
    );
    return { ...run, held: api.channels.get('C1') ?? [], counts: api.counts };
  } finally {
    await api.close();
  }
}

function expectCleanReports(reports: DeliveryReport[]) {
  expect(reports.filter((report) => report.type === 'delivery-failed')).toEqual([]);
  expect(JSON.stringify(reports)).not.toContain('SECRET');
}

describe('streamEvents → channel → toMessageEdits → deliver, against fake chat APIs', () => {
  it.each([1, 2, 3])(
    'Telegram holds exactly the planned messages (repo fixture, seed %i)',
    async (seed) => {
      const { planned, reports, held, counts } = await deliverToTelegram(demoSse, small, seed);
      const finals = expectDeliveredAsPlanned(held, planned);
      expect(finals.length).toBeGreaterThanOrEqual(3);
      expect(finals.join('\n\n').length).toBeGreaterThan(1000);
      expect(counts.rateLimited).toBeGreaterThan(0);
      expectCleanReports(reports);
    },
  );

  it.each([1, 2])(
    'Slack holds exactly the planned messages (repo fixture, seed %i)',
    async (seed) => {
      const { planned, reports, held, counts } = await deliverToSlack(demoSse, small, seed);
      const finals = expectDeliveredAsPlanned(held, planned);
      expect(finals.length).toBeGreaterThanOrEqual(3);
      expect(counts.rateLimited).toBeGreaterThan(0);
      expectCleanReports(reports);
    },
  );
});

describeCorpus(
  'a long real capture through the whole pipeline',
  (captures) => {
    const longest = captures.find((c) => c.name.includes('long-markdown-tables-codefences'))!;
    it(`Telegram holds ${longest.name} over several 4096-character messages`, async () => {
      const { planned, reports, held } = await deliverToTelegram(
        longest.sse,
        { maxMessageChars: 4096 },
        7,
      );
      const finals = expectDeliveredAsPlanned(held, planned);
      expect(finals.length).toBeGreaterThanOrEqual(3);
      expectCleanReports(reports);
    });
    it(`Slack holds ${longest.name} over several 4000-character messages`, async () => {
      const { planned, reports, held } = await deliverToSlack(
        longest.sse,
        { maxMessageChars: 4000 },
        8,
      );
      expect(expectDeliveredAsPlanned(held, planned).length).toBeGreaterThanOrEqual(3);
      expectCleanReports(reports);
    });
  },
  ['anthropic'],
);
