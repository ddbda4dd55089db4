import fc from 'fast-check';
import { concatMap, from, lastValueFrom, map, timer, toArray } from 'rxjs';
import { createMessageEditPlanner, type MessageEdit } from '../../src/channels/messageEditPlanner';
import { deliver } from '../../src/delivery/deliver';
import { telegramTransport } from '../../src/delivery/telegramTransport';
import { expectDeliveredAsPlanned } from '../helpers/deliveryChecks';
import { startFakeBotApi, type FakeBotApi } from '../helpers/fakeBotApi';

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

const word = fc.stringMatching(/^[a-z]{1,7}$/);
const block = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

describe('deliver property: random latencies and injected failures', () => {
  it('each message ends on its planned final text, and its texts only grow (200 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 20, max: 60 }),
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
        async (blocks, maxMessageChars, gaps, latencies, faults) => {
          run = {
            chat: run.chat + 1,
            firstRequest: api.counts.requests,
            latencies,
            next: 0,
            faults: new Map(faults),
          };
          const planner = createMessageEditPlanner({ maxMessageChars, separator: '\n\n' });
          const planned: MessageEdit[] = blocks.flatMap((text) => planner.push(text));
          const transport = telegramTransport({
            token,
            chatId: run.chat,
            apiBase: api.apiBase,
            minIntervalMs: 2,
          });
          const reports = await lastValueFrom(
            from(planned).pipe(
              concatMap((edit, i) => timer(gaps[i % gaps.length]).pipe(map(() => edit))),
              deliver(transport, { backoffMs: 1, maxAttempts: 5 }),
              toArray(),
            ),
          );
          expect(reports.filter((report) => report.type === 'delivery-failed')).toEqual([]);
          expectDeliveredAsPlanned(api.chats.get(String(run.chat)) ?? [], planned);
        },
      ),
      { numRuns: 200 },
    );
  });
});
