import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerInGoogleChat } from '../../examples/google-chat/answer';
import { answerOnWhatsApp } from '../../examples/whatsapp/answer';
import {
  startFakeGoogleChatApi,
  type FakeGoogleChatApi,
} from '../helpers/googlechat/fakeGoogleChatApi';
import { startFakeWhatsAppApi, type FakeWhatsAppApi } from '../helpers/whatsapp/fakeWhatsAppApi';

// docs/whatsapp.md and docs/google-chat.md: their examples against the fakes.
const fixture = (name: string) =>
  readFileSync(join(__dirname, '../../fixtures/openai-chat', name), 'utf8');
const sse = fixture('long-markdown-chat-answer.sse');
const cut = fixture('long-markdown-chat-answer-cut.sse');

describe('docs/whatsapp.md: answerOnWhatsApp against the fake Cloud API', () => {
  const token = 'EAAG-GUIDE-WHATSAPP-SECRET';
  const inbound = { id: 'wamid.GUIDE1', from: '16505550100' };
  let api: FakeWhatsAppApi;
  beforeEach(async () => {
    api = await startFakeWhatsAppApi({ token, phoneNumberId: '1065', inbound: [inbound.id] });
  });
  afterEach(() => api.close());

  it('shows typing, then sends the whole answer in parts, and reports it completed', async () => {
    const reports = await answerOnWhatsApp(new Response(sse), inbound, {
      token,
      phoneNumberId: '1065',
      apiBase: api.apiBase,
    });
    expect(api.typing.length).toBeGreaterThanOrEqual(1);
    expect(api.messages.length).toBeGreaterThanOrEqual(2);
    expect(api.messages.every((m) => m.to === inbound.from && m.body.length <= 4096)).toBe(true);
    expect(api.messages.at(-1)!.body).toContain('roll back at the first sign of trouble');
    expect(reports.at(-1)).toMatchObject({ type: 'answer', outcome: 'completed', delivered: true });
  });

  it('a cut answer ends with the notice', async () => {
    const reports = await answerOnWhatsApp(new Response(cut), inbound, {
      token,
      phoneNumberId: '1065',
      apiBase: api.apiBase,
    });
    expect(api.messages.at(-1)!.body.endsWith('⚠️ The answer was cut off.')).toBe(true);
    expect(reports.at(-1)).toMatchObject({ type: 'answer', outcome: 'failed' });
  });
});

describe('docs/google-chat.md: answerInGoogleChat against the fake Chat API', () => {
  const token = 'ya29.GUIDE-GOOGLECHAT-SECRET';
  const space = 'spaces/GUIDE';
  let api: FakeGoogleChatApi;
  beforeEach(async () => {
    api = await startFakeGoogleChatApi({ token, space, writesPerWindow: 1, windowMs: 1000 });
  });
  afterEach(() => api.close());

  it('creates the messages, patches them to the whole answer, never over the space quota', async () => {
    const reports = await answerInGoogleChat(new Response(sse), {
      space,
      getToken: async () => token,
      thread: `${space}/threads/T`,
      apiBase: api.apiBase,
    });
    expect(api.counts).toEqual({ rateLimited: 0, rejected: 0 });
    expect(api.messages.length).toBeGreaterThanOrEqual(2);
    expect(api.messages.at(-1)!.text).toContain('roll back at the first sign of trouble');
    expect(reports.at(-1)).toMatchObject({ type: 'answer', outcome: 'completed', delivered: true });
  }, 30_000);
});
