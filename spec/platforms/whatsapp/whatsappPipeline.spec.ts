import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { concatMap, delay, lastValueFrom, of, tap, toArray } from 'rxjs';
import { channel } from '../../../src/channels/channel';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { toMessageEdits } from '../../../src/channels/toMessageEdits';
import { deliver } from '../../../src/delivery/deliver';
import type { DeliveryReport } from '../../../src/delivery/types';
import {
  whatsappTransport,
  type WhatsAppTransportOptions,
} from '../../../src/platforms/whatsapp/whatsappTransport';
import { streamEvents } from '../../../src/streamEvents';
import { describeCorpus } from '../../helpers/corpus';
import { startFakeWhatsAppApi, type FakeWhatsAppApi } from '../../helpers/whatsapp/fakeWhatsAppApi';

const token = 'EAAG-PIPELINE-WHATSAPP-SECRET';
const phoneNumberId = '106540352242922';
const inbound = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA';
const user = '16505551234';
const fixture = (name: string) =>
  readFileSync(join(__dirname, '../../../fixtures/openai-chat', name), 'utf8');
const longAnswer = fixture('long-markdown-chat-answer.sse');
const cutAnswer = fixture('long-markdown-chat-answer-cut.sse');

/** streamEvents → channel('whatsapp') → toMessageEdits → deliver(whatsappTransport). */
async function deliverToWhatsApp(
  sse: string,
  api: FakeWhatsAppApi,
  options: Partial<WhatsAppTransportOptions> & { stallMs?: number } = {},
) {
  const { stallMs = 0, ...transportOptions } = options;
  const transport = whatsappTransport({
    token,
    phoneNumberId,
    to: user,
    replyTo: inbound,
    apiBase: api.apiBase,
    typingRefreshMs: 60,
    ...transportOptions,
  });
  const planned: MessageEdit[] = [];
  let block = 0;
  const reports: DeliveryReport[] = await lastValueFrom(
    streamEvents(new Response(sse)).pipe(
      channel('whatsapp'),
      // Blocks arrive at a model's pace, the second after a long pause (a tool, a long think).
      concatMap((event) =>
        event.type === 'block' ? of(event).pipe(delay(++block === 2 ? stallMs : 20)) : of(event),
      ),
      toMessageEdits({ maxMessageChars: transport.maxMessageChars, render: 'whatsapp' }),
      tap((edit) => planned.push(edit as MessageEdit)),
      deliver(transport, { backoffMs: 5 }),
      toArray(),
    ),
  );
  return { planned, reports, transport };
}

/** The final rendered text of each planned message, in order. */
function finalTexts(planned: MessageEdit[]): string[] {
  const last = new Map<number, string>();
  for (const edit of planned) if (edit.rendered) last.set(edit.message, edit.rendered.text);
  return [...last.values()];
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('whatsappTransport against the fake Cloud API, a long answer', () => {
  let api: FakeWhatsAppApi;
  afterEach(() => api.close());

  it('shows typing while the answer streams, refreshed during a pause, then sends the final text in parts of at most 4096', async () => {
    api = await startFakeWhatsAppApi({ token, phoneNumberId, inbound: [inbound] });
    const { planned, reports, transport } = await deliverToWhatsApp(longAnswer, api, {
      stallMs: 330,
    });
    const bodies = api.messages.map((m) => m.body);
    expect(bodies).toEqual(finalTexts(planned));
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    expect(bodies.every((body) => body.length <= 4096)).toBe(true);
    // The final text is whole: every visible line of the answer is in one of the parts.
    expect(bodies.join('\n')).toContain('*Step 8: stage 8*');
    expect(bodies.join('\n')).toContain('runbook (https://example.com/runbook?step=1)');
    // Typing: shown at the first text, then every 60 ms (plus the call's own time) through the pause.
    const first = api.typing[0].at;
    const duringPause = api.typing.filter((t) => t.at - first < 330);
    expect(duringPause.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < duringPause.length; i++) {
      expect(duringPause[i].at - duringPause[i - 1].at).toBeGreaterThanOrEqual(55);
    }
    expect(api.typing.every((t) => t.messageId === inbound)).toBe(true);
    // Once the last text went out, the indicator is left alone: no timer, no further call.
    const typingAtEnd = api.typing.length;
    await settle(150);
    expect(api.typing.length).toBe(typingAtEnd);
    expect(transport.typingPending).toBe(0);
    expect(api.typing.at(-1)!.at).toBeLessThan(api.messages.at(-1)!.at);
    expect(reports.filter((r) => r.type === 'finished').map((r) => r.message)).toEqual(
      bodies.map((_, i) => i),
    );
    expect(reports.at(-1)).toEqual({
      type: 'answer',
      outcome: 'completed',
      messages: bodies.length,
      delivered: true,
    });
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    expect(api.counts.rejected).toBe(0);
  });

  it('a cut stream ends with the notice in the last part and an answer report that says so', async () => {
    api = await startFakeWhatsAppApi({ token, phoneNumberId, inbound: [inbound] });
    const { reports, transport } = await deliverToWhatsApp(cutAnswer, api);
    expect(api.messages.at(-1)!.body.endsWith('⚠️ The answer was cut off.')).toBe(true);
    expect(api.messages.map((m) => m.body).join('\n')).toContain('Step 1: stage 1');
    expect(reports.at(-1)).toMatchObject({ type: 'answer', outcome: 'failed', delivered: true });
    expect(transport.typingPending).toBe(0);
  });

  it('honours the pair rate (131056): waits pairRateMs and sends every part, none twice', async () => {
    api = await startFakeWhatsAppApi({ token, phoneNumberId, inbound: [inbound], pairRateMs: 150 });
    const { planned, reports } = await deliverToWhatsApp(longAnswer, api, { pairRateMs: 150 });
    expect(api.messages.map((m) => m.body)).toEqual(finalTexts(planned));
    expect(api.counts.pairRateLimited).toBeGreaterThanOrEqual(1);
    const retrying = reports.filter((r) => r.type === 'retrying');
    expect(retrying.length).toBe(api.counts.pairRateLimited);
    expect(retrying.every((r) => r.reason === 'retry-after' && r.delayMs === 150)).toBe(true);
    expect(retrying[0].error.message).toContain('pair rate limit');
    for (let i = 1; i < api.messages.length; i++) {
      expect(api.messages[i].at - api.messages[i - 1].at).toBeGreaterThanOrEqual(145);
    }
    expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
  });

  it('honours throughput exhaustion (130429): waits a second, then goes on', async () => {
    api = await startFakeWhatsAppApi({
      token,
      phoneNumberId,
      inbound: [inbound],
      throughputFault: (n) => n === 2,
    });
    const { planned, reports } = await deliverToWhatsApp(longAnswer, api, { replyTo: undefined });
    expect(api.typing).toEqual([]);
    expect(api.messages.map((m) => m.body)).toEqual(finalTexts(planned));
    const retrying = reports.filter((r) => r.type === 'retrying');
    expect(retrying.map((r) => [r.op, r.reason, r.delayMs])).toEqual([
      ['finish', 'retry-after', 1000],
    ]);
    expect(api.counts.throughputLimited).toBe(1);
  });

  it('a wrong token (190) fails each message once, permanently, never printing the token', async () => {
    api = await startFakeWhatsAppApi({ token: 'another', phoneNumberId, inbound: [inbound] });
    const { reports } = await deliverToWhatsApp(longAnswer, api);
    const failed = reports.filter((r) => r.type === 'delivery-failed');
    expect(failed.map((r) => [r.message, r.op, r.attempts, r.error.status])).toEqual([
      [0, 'finish', 1, 401],
    ]);
    expect(reports.at(-1)).toMatchObject({ type: 'answer', delivered: false });
    expect(failed[0].error.message).toContain('401 Invalid OAuth access token');
    expect(failed[0].error.message).toContain('(code 190)');
    expect(JSON.stringify(reports)).not.toContain(token);
    expect(api.messages).toEqual([]);
  });
});

describeCorpus(
  'a long real capture through channel(whatsapp) → deliver(whatsappTransport)',
  (captures) => {
    const longest = captures.find((c) => c.name.includes('long-markdown-tables-codefences'))!;
    let api: FakeWhatsAppApi;
    afterEach(() => api.close());

    it(`WhatsApp holds ${longest.name} as its final parts, each within 4096, typing shown first`, async () => {
      api = await startFakeWhatsAppApi({ token, phoneNumberId, inbound: [inbound] });
      const { planned, reports } = await deliverToWhatsApp(longest.sse, api, { stallMs: 200 });
      const bodies = api.messages.map((m) => m.body);
      expect(bodies).toEqual(finalTexts(planned));
      expect(bodies.length).toBeGreaterThanOrEqual(2);
      expect(bodies.every((body) => body.length <= 4096)).toBe(true);
      // Fences are never left open in a part: each part has an even number of ``` lines.
      expect(bodies.every((body) => (body.match(/^```/gm) ?? []).length % 2 === 0)).toBe(true);
      expect(api.typing.length).toBeGreaterThanOrEqual(3);
      expect(api.typing[0].at).toBeLessThan(api.messages[0].at);
      expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
    });
  },
);
