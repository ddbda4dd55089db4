import type { ChildProcess } from 'node:child_process';
import { startFakeBotApi } from '../helpers/telegram/fakeBotApi';
import { describeRedis } from '../helpers/redisServer';
import { startBotProcess } from './children/botProcess';

const token = '31337:CRASH-SECRET';
const children: ChildProcess[] = [];

const botProcess = (args: string[]) => startBotProcess(children, 'recordAndAnswer.ts', token, args);

/** Waits (bounded: a minute, for a loaded machine starting tsx) until `ready()` holds. */
async function until(ready: () => boolean, ms = 60_000) {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describeRedis(
  'an answer whose recorder and bot die together, delivered by a new process',
  (server) => {
    afterAll(() => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    });

    it('the chat ends with the partial text and one notice; the answer is failed producer-lost', async () => {
      const api = await startFakeBotApi({ token, minIntervalMs: 2 });
      try {
        const streamId = 'crash-answer';
        const chat = () => api.chats.get('11') ?? [];
        const first = botProcess([server().url, streamId, api.apiBase, '11', 'record']);
        // Killed once the chat shows some of the answer, long before its end.
        await until(() => chat().length > 0 && chat()[0].text.length > 50);
        first.child.kill('SIGKILL');
        expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
        expect(first.reports().some((r) => r.type === 'answer')).toBe(false);
        const shownBefore = chat().map((m) => m.text);

        const second = botProcess([server().url, streamId, api.apiBase, '11', 'deliver']);
        expect(await second.exited).toEqual({ code: 0, signal: null });
        const reports = second.reports();
        expect(reports.filter((r) => r.type === 'answer')).toHaveLength(1);
        expect(reports.at(-1)).toMatchObject({
          type: 'answer',
          outcome: 'failed',
          reason: 'producer-lost',
          delivered: true,
        });
        const shown = chat().map((m) => m.text);
        // The messages the first process sent are still the chat's (no duplicate), each grown
        // at most to what was recorded; the last ends with one notice.
        expect(shown.length).toBeGreaterThanOrEqual(shownBefore.length);
        shownBefore.forEach((text, i) => expect(shown[i].startsWith(text.slice(0, 40))).toBe(true));
        const all = shown.join('\n');
        expect(all.split('⚠️ The answer was cut off.').length - 1).toBe(1);
        expect(shown.at(-1)!.endsWith('⚠️ The answer was cut off.')).toBe(true);
      } finally {
        await api.close();
      }
    }, 150_000);
  },
);
