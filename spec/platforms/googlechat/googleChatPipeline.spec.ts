import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { concatMap, delay, lastValueFrom, of, tap, toArray } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import { isMessageEdit, type MessageEdit } from '../../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import type { DeliveryReport } from '../../../src/delivery/types';
import {
  googleChatTransport,
  type GoogleChatTransportOptions,
} from '../../../src/platforms/googlechat/googleChatTransport';
import { streamEvents } from '../../../src/streamEvents';
import { describeCorpus } from '../../helpers/corpus';
import { expectDeliveredAsPlanned } from '../../helpers/deliveryChecks';
import {
  startFakeGoogleChatApi,
  type FakeGoogleChatApi,
} from '../../helpers/googlechat/fakeGoogleChatApi';

const token = 'ya29.PIPELINE-GOOGLECHAT-SECRET';
const space = 'spaces/AAAAbcd';
const fixture = (name: string) =>
  readFileSync(join(__dirname, '../../../fixtures/openai-chat', name), 'utf8');
const longAnswer = fixture('long-markdown-chat-answer.sse');
const cutAnswer = fixture('long-markdown-chat-answer-cut.sse');

/** streamEvents → channel('googlechat') → toMessageEdits → deliver(googleChatTransport). */
async function deliverToGoogleChat(
  sse: string,
  api: FakeGoogleChatApi,
  options: Partial<GoogleChatTransportOptions> = {},
) {
  const transport = googleChatTransport({
    space,
    token,
    apiBase: api.apiBase,
    minIntervalMs: 100,
    ...options,
  } as GoogleChatTransportOptions);
  const planned: MessageEdit[] = [];
  const reports: DeliveryReport[] = await lastValueFrom(
    streamEvents(new Response(sse)).pipe(
      channel('googlechat'),
      concatMap((event) => (event.type === 'block' ? of(event).pipe(delay(20)) : of(event))),
      toMessageEdits({ maxMessageChars: transport.maxMessageChars, render: 'googlechat' }),
      tap((step) => {
        if (isMessageEdit(step)) planned.push(step);
      }),
      deliver(transport, { backoffMs: 5 }),
      toArray(),
    ),
  );
  return { planned, reports };
}

/** Every accepted write at least `ms` after the one before (measured at the fake). */
function expectWritesApart(api: FakeGoogleChatApi, ms: number) {
  for (let i = 1; i < api.writes.length; i++) {
    expect(api.writes[i] - api.writes[i - 1]).toBeGreaterThanOrEqual(ms - 5);
  }
}

describe('googleChatTransport against the fake Chat API, a long answer', () => {
  let api: FakeGoogleChatApi;
  afterEach(() => api.close());

  it('creates, then patches each message to its final text (at most 4096), paced so the space quota never answers 429', async () => {
    // The quota scaled down: one write per 100 ms window, as 60 a minute is one a second.
    api = await startFakeGoogleChatApi({ token, space, writesPerWindow: 1, windowMs: 100 });
    const { planned, reports } = await deliverToGoogleChat(longAnswer, api, {
      thread: `${space}/threads/T1`,
    });
    const finals = expectDeliveredAsPlanned(api.messages, planned);
    expect(finals.length).toBeGreaterThanOrEqual(2);
    expect(api.messages.every((m) => m.text.length <= 4096)).toBe(true);
    expect(api.messages.every((m) => m.thread === `${space}/threads/T1`)).toBe(true);
    expect(api.messages[0].text).toContain('<https://example.com/runbook?step=1|runbook>');
    expect(api.messages.map((m) => m.text).join('\n')).toContain('*Step 8: stage 8*');
    expect(api.counts).toEqual({ rateLimited: 0, rejected: 0 });
    expectWritesApart(api, 100);
    expect(reports.at(-1)).toEqual({
      type: 'answer',
      outcome: 'completed',
      messages: finals.length,
      delivered: true,
    });
  });

  it('honours 429 RESOURCE_EXHAUSTED with a backoff that doubles, never losing a text', async () => {
    // The transport paces at 100 ms, the space allows one write in 250 ms: 429s come.
    api = await startFakeGoogleChatApi({ token, space, writesPerWindow: 1, windowMs: 250 });
    const { planned, reports } = await deliverToGoogleChat(longAnswer, api, {
      rateLimitBackoffMs: 60,
    });
    expectDeliveredAsPlanned(api.messages, planned);
    expect(api.counts.rateLimited).toBeGreaterThanOrEqual(1);
    const retrying = reports.filter((r) => r.type === 'retrying');
    expect(retrying.length).toBe(api.counts.rateLimited);
    expect(retrying.every((r) => r.reason === 'retry-after')).toBe(true);
    expect(retrying[0].delayMs).toBe(60);
    expect(retrying[0].error.message).toContain('429 RESOURCE_EXHAUSTED');
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    expect(reports.at(-1)).toMatchObject({ type: 'answer', outcome: 'completed', delivered: true });
  });

  it('a cut stream ends with the notice in the chat and an answer report that says so', async () => {
    api = await startFakeGoogleChatApi({ token, space, writesPerWindow: 1, windowMs: 100 });
    const { reports } = await deliverToGoogleChat(cutAnswer, api);
    const last = api.messages.at(-1)!.text;
    expect(last.endsWith('⚠️ The answer was cut off.')).toBe(true);
    expect(api.messages.map((m) => m.text).join('\n')).toContain('Step 1: stage 1');
    expect(reports.at(-1)).toMatchObject({ type: 'answer', outcome: 'failed', delivered: true });
  });

  it('a wrong token ends the answer at its first call, never printing the token', async () => {
    api = await startFakeGoogleChatApi({ token: 'ya29.the-right-one', space });
    const { reports } = await deliverToGoogleChat(longAnswer, api);
    const failed = reports.filter((r) => r.type === 'delivery-failed');
    expect(failed.map((r) => [r.message, r.error.status, r.attempts])).toEqual([[0, 401, 1]]);
    expect(failed[0].error.message).toContain('401 UNAUTHENTICATED');
    expect(reports.at(-1)).toMatchObject({ type: 'answer', delivered: false });
    expect(JSON.stringify(reports)).not.toContain('SECRET');
  });
});

describe('googleChatTransport options', () => {
  it('rejects token and getToken together, and neither', () => {
    expect(() => googleChatTransport({ space, token, getToken: () => token })).toThrow(
      'give exactly one of token and getToken',
    );
    expect(() => googleChatTransport({ space })).toThrow('give exactly one of token and getToken');
  });
});

describeCorpus(
  'a long real capture through channel(googlechat) → deliver(googleChatTransport)',
  (captures) => {
    const longest = captures.find((c) => c.name.includes('long-markdown-tables-codefences'))!;
    let api: FakeGoogleChatApi;
    afterEach(() => api.close());

    it(`Google Chat holds ${longest.name}, each message within 4096, the quota never exceeded`, async () => {
      api = await startFakeGoogleChatApi({ token, space, writesPerWindow: 1, windowMs: 100 });
      const { planned, reports } = await deliverToGoogleChat(longest.sse, api);
      const finals = expectDeliveredAsPlanned(api.messages, planned);
      expect(finals.length).toBeGreaterThanOrEqual(2);
      expect(api.messages.every((m) => m.text.length <= 4096)).toBe(true);
      expect(api.messages.every((m) => (m.text.match(/^```/gm) ?? []).length % 2 === 0)).toBe(true);
      expect(api.counts).toEqual({ rateLimited: 0, rejected: 0 });
      expect(reports.at(-1)).toMatchObject({
        type: 'answer',
        outcome: 'completed',
        delivered: true,
      });
    });
  },
);
