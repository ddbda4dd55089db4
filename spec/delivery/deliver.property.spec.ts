import fc from 'fast-check';
import { concatMap, filter, from, lastValueFrom, map, timer, toArray } from 'rxjs';
import { isMessageEdit, type MessageEdit } from '../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../src/channels/toMessageEdits';
import { deliver } from '../../src/delivery/deliver';
import { telegramTransport } from '../../src/platforms/telegram/telegramTransport';
import { expectDeliveredAsPlanned, expectPlannedFormatting } from '../helpers/deliveryChecks';
import { startFakeBotApi, type FakeBotApi } from '../helpers/telegram/fakeBotApi';

const token = '99:PROPERTY-SECRET';

// One fake Bot API for all runs; each run posts in a chat of its own, with its own latencies
// and faults (by request number, counted from the run's first request).
let api: FakeBotApi;
let run = {
  chat: 0,
  firstRequest: 0,
  latencies: [0],
  next: 0,
  faults: new Map<number, 'rate-limit' | 'server-error'>(),
};

beforeAll(async () => {
  api = await startFakeBotApi({
    token,
    minIntervalMs: 2,
    latencyMs: () => run.latencies[run.next++ % run.latencies.length],
    fault: (n) => run.faults.get(n - run.firstRequest),
    forcedRetryAfterSeconds: 0.003,
  });
});
afterAll(() => api.close());

const plainWord = fc.stringMatching(/^[a-z]{1,7}$/);
// Some markup, so rendered edits carry entities or HTML tags.
const word = fc.oneof(
  { weight: 4, arbitrary: plainWord },
  plainWord.map((w) => `**${w}**`),
  plainWord.map((w) => `\`${w}\``),
  plainWord.map((w) => `_${w}_`),
);
const block = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

describe('deliver property: random latencies and injected failures', () => {
  it('each message ends on its planned final text, and its texts only grow (200 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 64, max: 120 }),
        // telegramTransport renders an edit without a rendering itself: plan every edit rendered.
        fc.constantFrom('telegram' as const, 'telegram-html' as const),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }),
        // At most 4 forced failures: fewer than maxAttempts, so nothing may be given up.
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 20 }),
            fc.constantFrom('rate-limit' as const, 'server-error' as const),
          ),
          { maxLength: 4 },
        ),
        async (blocks, maxMessageChars, render, gaps, latencies, faults) => {
          run = {
            chat: run.chat + 1,
            firstRequest: api.counts.requests,
            latencies,
            next: 0,
            faults: new Map(faults),
          };
          const blockEvents = blocks.map((text, seq) => ({
            type: 'block' as const,
            text,
            seq,
            reason: 'size' as const,
          }));
          const planned: MessageEdit[] = await lastValueFrom(
            from(blockEvents).pipe(
              toMessageEdits({ maxMessageChars, render }),
              filter(isMessageEdit),
              toArray(),
            ),
          );
          const transport = telegramTransport({
            token,
            chatId: run.chat,
            mode: 'edit',
            apiBase: api.apiBase,
            minIntervalMs: 2,
            format: render ?? 'telegram',
          });
          const reports = await lastValueFrom(
            from(planned).pipe(
              concatMap((edit, i) => timer(gaps[i % gaps.length]).pipe(map(() => edit))),
              deliver(transport, { backoffMs: 1, maxAttempts: 5 }),
              toArray(),
            ),
          );
          expect(reports.filter((r) => r.type === 'delivery-failed' || 'warnings' in r)).toEqual(
            [],
          );
          const held = api.chats.get(String(run.chat)) ?? [];
          expectDeliveredAsPlanned(held, planned);
          expectPlannedFormatting(held, planned);
        },
      ),
      { numRuns: 200 },
    );
  });
});
