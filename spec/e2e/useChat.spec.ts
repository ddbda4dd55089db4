import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { firstValueFrom } from 'rxjs';
import { pacedBody } from '../../examples/use-chat/server/answers';
import {
  ANSWERS,
  startUseChatServer,
  type UseChatServer,
} from '../../examples/use-chat/server/server';
import { loadBundledCaptures } from '../../examples/web/server/captures';
import { collectTurn, streamEvents } from '../../src/index';
import { CHROMIUM_ARGS, describeWithChromium } from '../helpers/chromium';
import { describeWithNode22Package } from '../helpers/node22';

// The useChat example (examples/use-chat) in a real headless Chromium: React with a stock
// `useChat({ resume: true })` of @ai-sdk/react, against the llm-rx server that records each
// answer into an event log and serves the chat's latest answer on resume.

const ARTIFACTS = join(__dirname, '../../.e2e-artifacts');

/** The full text collectTurn makes of the n-th answer's capture. */
async function answerText(turn: number): Promise<string> {
  const { capture, provider } = loadBundledCaptures().get(ANSWERS[turn - 1])!;
  const result = await firstValueFrom(
    streamEvents(pacedBody(capture, 0), { provider }).pipe(collectTurn()),
  );
  return result.text;
}

interface Shown {
  messages: Array<{ role: string; text: string }>;
  status: string;
  outcome: string;
  error: string | null;
}

function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => ({
    messages: [...document.querySelectorAll<HTMLElement>('[data-testid="message"]')].map((li) => ({
      role: li.dataset.role ?? '',
      text: [...li.querySelectorAll('[data-testid="text"]')].map((t) => t.textContent).join(''),
    })),
    status: document.querySelector<HTMLElement>('[data-testid="status"]')?.dataset.status ?? '',
    outcome: document.querySelector<HTMLElement>('[data-testid="status"]')?.dataset.outcome ?? '',
    error: document.querySelector('[data-testid="error"]')?.textContent ?? null,
  }));
}

/** Waits until the n-th message (1-based) exists and its text is at least `length` long. */
async function waitForText(page: Page, n: number, length: number): Promise<void> {
  await page.waitForFunction(
    (n: number, length: number) => {
      const li = document.querySelectorAll('[data-testid="message"]')[n - 1];
      const text = [...(li?.querySelectorAll('[data-testid="text"]') ?? [])]
        .map((t) => t.textContent)
        .join('');
      return li !== undefined && text.length >= length;
    },
    { timeout: 30_000 },
    n,
    length,
  );
}

async function waitForOutcome(page: Page, outcome: string): Promise<void> {
  await page.waitForFunction(
    (outcome: string) =>
      document.querySelector<HTMLElement>('[data-testid="status"]')?.dataset.outcome === outcome,
    { timeout: 30_000 },
    outcome,
  );
}

async function ask(page: Page, question: string): Promise<void> {
  await page.waitForSelector('#send:not([disabled])');
  await page.type('#question', question);
  await page.click('#send');
}

// @ai-sdk/react (the AI SDK 7's) lives in node22/: its floor is Node 22.
describeWithNode22Package('@ai-sdk/react', 'useChat example', () =>
  describeWithChromium('useChat example in headless Chromium', (executablePath) => {
    let server: UseChatServer;
    let browser: Browser;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      server = await startUseChatServer({ gapMs: 2 });
      browser = await puppeteer.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
    });

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('two questions, two answers; a reload mid-answer resumes it without repeating; Stop stops the model, and a reload shows the stopped answer', async () => {
      const [first, second, third] = await Promise.all([
        answerText(1),
        answerText(2),
        answerText(3),
      ]);
      expect(first).not.toBe(second);
      expect(second.length).toBeGreaterThan(500);

      const page = await browser.newPage();
      await page.setViewport({ width: 900, height: 1000 });
      page.on('pageerror', (error) => pageErrors.push(String(error)));
      await page.goto(`${server.url}/?chat=e2e-chat`);

      // Question 1, answered in full.
      await ask(page, 'Say hello');
      await waitForOutcome(page, 'finished (stop)');
      expect((await shown(page)).messages).toEqual([
        { role: 'user', text: 'Say hello' },
        { role: 'assistant', text: first },
      ]);

      // Question 2 is held after 60 wire messages: the page shows part of the answer, then reloads.
      const held = server.holdNextAnswer(60);
      await ask(page, 'How do I debounce a search box?');
      await held.reached;
      await waitForText(page, 4, 1);
      const before = (await shown(page)).messages[3].text;
      expect(second.startsWith(before)).toBe(true);
      expect(before.length).toBeLessThan(second.length);
      await page.screenshot({ path: join(ARTIFACTS, 'use-chat-mid-answer.png'), fullPage: true });

      await page.reload();
      // useChat({ resume: true }) asks the resume route on mount: the answer is replayed to the
      // gate, then goes on when the gate opens.
      await waitForText(page, 4, before.length);
      expect((await shown(page)).messages[3].text).toBe(before);
      held.open();
      await waitForOutcome(page, 'finished (stop)');
      const resumed = await shown(page);
      await page.screenshot({ path: join(ARTIFACTS, 'use-chat-resumed.png'), fullPage: true });
      expect(resumed.messages).toEqual([
        { role: 'user', text: 'Say hello' },
        { role: 'assistant', text: first },
        { role: 'user', text: 'How do I debounce a search box?' },
        { role: 'assistant', text: second },
      ]);
      expect(resumed.error).toBeNull();

      // Question 3, stopped mid-answer: the page's Stop calls the server's stop route, which
      // aborts the model request; the text so far is kept, no error shown.
      expect(server.modelAborted()).toBe(0);
      const stopped = server.holdNextAnswer(70);
      await ask(page, 'And with RxJS?');
      await stopped.reached;
      await waitForText(page, 6, 1);
      await page.click('#stop');
      await waitForOutcome(page, 'stopped');
      const afterStop = await shown(page);
      await page.screenshot({ path: join(ARTIFACTS, 'use-chat-stopped.png'), fullPage: true });
      expect(afterStop.messages).toHaveLength(6);
      expect(third.startsWith(afterStop.messages[5].text)).toBe(true);
      expect(afterStop.messages[5].text.length).toBeLessThan(third.length);
      expect(afterStop.status).toBe('ready');
      expect(afterStop.error).toBeNull();
      // The model saw its request closed: the stop reached the provider, not only the page.
      for (let i = 0; i < 100 && server.modelAborted() === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(server.modelAborted()).toBe(1);
      stopped.open(); // nothing goes on: the model's body was cancelled with its request

      // A reload after the stop: the stopped answer as it was, and a stopped state — never the
      // whole answer.
      await page.reload();
      await waitForText(page, 6, afterStop.messages[5].text.length);
      await waitForOutcome(page, 'stopped');
      const reloaded = await shown(page);
      await page.screenshot({
        path: join(ARTIFACTS, 'use-chat-stopped-reloaded.png'),
        fullPage: true,
      });
      expect(reloaded.messages[5]).toEqual(afterStop.messages[5]);
      expect(reloaded.messages).toHaveLength(6);
      expect(reloaded.error).toBeNull();

      await page.close();
      expect(pageErrors).toEqual([]);
    });
  }),
);
