import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filter, firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { deliverReply } from '../../examples/restart/deliverReply';
import {
  collectTurn,
  memoryEventLog,
  memoryLedger,
  recordTo,
  renderMarkdown,
  streamEvents,
} from '../../src/index';
import { startFakeBotApi, type FakeBotApi } from '../helpers/telegram/fakeBotApi';

// docs/restart.md: its example (examples/restart/deliverReply.ts) stopped mid-answer and run
// again with the same log and ledger, against the fake Bot API.
const token = '4242:RESTART-SECRET';
const sse = readFileSync(
  join(__dirname, '../../fixtures/demo/openrouter-reasoning-markdown.sse'),
  'utf8',
);
const group = -100555;

describe('docs/restart.md: deliverReply, stopped and run again', () => {
  let api: FakeBotApi;
  beforeEach(async () => {
    api = await startFakeBotApi({ token, minIntervalMs: 5 });
  });
  afterEach(() => api.close());

  it('the second run sends only what the chat does not show: each message once, whole', async () => {
    const log = memoryEventLog();
    const ledger = memoryLedger();
    const recorded = await lastValueFrom(
      streamEvents(new Response(sse)).pipe(recordTo(log, 'reply-1'), collectTurn()),
    );
    const options = { token, chatId: group, apiBase: api.apiBase, minIntervalMs: 5 };
    // The first process: stopped right after its first message went out.
    await firstValueFrom(
      deliverReply(log, ledger, 'reply-1', options).pipe(
        filter((report) => report.type === 'sent'),
        take(1),
      ),
    );
    const afterFirst = api.calls.length;
    expect(api.chats.get(String(group))!.length).toBe(1);
    // The next process: same log, same ledger, same id, from the start.
    const reports = await lastValueFrom(
      deliverReply(log, ledger, 'reply-1', options).pipe(toArray()),
    );
    expect(reports.filter((r) => r.type === 'resumed').map((r) => r.message)).toEqual([0]);
    expect(reports.filter((r) => r.type === 'sent').map((r) => r.message)).not.toContain(0);
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    const expected = renderMarkdown(recorded.text, 'telegram').map((m) => m.text);
    expect(api.chats.get(String(group))!.map((m) => m.text)).toEqual(expected);
    expect(api.calls.slice(afterFirst).map((c) => c.method)).not.toContain('sendMessage');
    await log.close();
  });
});
