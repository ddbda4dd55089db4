import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { firstValueFrom, from, lastValueFrom, toArray } from 'rxjs';
import { createMarkdown } from '../../examples/web/page/markdown';
import { replayBody } from '../../examples/web/server/captures';
import { startDemoServer, type DemoServer } from '../../examples/web/server/server';
import { channel, collectTurn, streamEvents, type StreamEvent, type Turn } from '../../src/index';
import { CHROMIUM_ARGS, describeWithChromium } from '../helpers/chromium';

// The web example (examples/web) in a real headless Chromium: the page reads the relayed stream
// with llm-rx's browser build and must end showing exactly what collectTurn makes of the capture.

/** Where the screenshots go (git-ignored): look at them when a check fails. */
const ARTIFACTS = join(__dirname, '../../.e2e-artifacts');

const DEMO = 'demo/openrouter-reasoning-markdown';
const TOOLS = 'openai-chat/parallel-tool-calls';

/** The events the server relays for a capture: streamEvents → channel('web'), as fast as it can. */
async function relayedEvents(server: DemoServer, name: string): Promise<StreamEvent[]> {
  const { capture, provider } = server.captures.get(name)!;
  return lastValueFrom(
    streamEvents(replayBody(capture, 0), { provider }).pipe(channel('web'), toArray()),
  );
}

function turnOf(events: StreamEvent[]): Promise<Turn> {
  return firstValueFrom(from(events).pipe(collectTurn()));
}

/** What the page shows once the status has its outcome. */
interface Shown {
  outcome: string;
  status: string;
  events: number;
  reconnects: number;
  markdown: string;
  answerText: string;
  /** The text of the final markdown rendered afresh with the page's own options. */
  expectedAnswerText: string;
  reasoningText: string;
  reasoningHidden: boolean;
  tools: Array<{ id: string; name: string; args: string; done: boolean }>;
}

async function shownWhenDone(page: Page, expectedHtml: string): Promise<Shown> {
  await page.waitForSelector('[data-testid="status"][data-outcome]', { timeout: 30_000 });
  return page.evaluate((html: string) => {
    const query = (testid: string) =>
      document.querySelector(`[data-testid="${testid}"]`) as HTMLElement;
    const status = query('status');
    const answer = query('answer');
    const reasoning = query('reasoning');
    return {
      outcome: status.dataset.outcome ?? '',
      status: status.textContent ?? '',
      events: Number(status.dataset.events),
      reconnects: Number(status.dataset.reconnects ?? 0),
      markdown: answer.dataset.markdown ?? '',
      answerText: answer.textContent ?? '',
      expectedAnswerText: new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '',
      reasoningText: reasoning.querySelector('#reasoning-text')?.textContent ?? '',
      reasoningHidden: reasoning.hidden,
      tools: [...document.querySelectorAll<HTMLElement>('[data-testid="tool-call"]')].map(
        (card) => ({
          id: card.dataset.toolId ?? '',
          name: card.querySelector('.tool-name')?.firstChild?.textContent ?? '',
          args: card.querySelector('.tool-args')?.textContent ?? '',
          done: card.dataset.done === 'true',
        }),
      ),
    };
  }, expectedHtml);
}

describeWithChromium('web example in headless Chromium', (executablePath) => {
  let server: DemoServer;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startDemoServer({ gapMs: 2 });
    browser = await puppeteer.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(query: string): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width: 900, height: 900 });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    await page.goto(`${server.url}/?${query}`);
    return page;
  }

  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('renders the demo capture: reasoning, the answer as collectTurn has it, completed', async () => {
    const events = await relayedEvents(server, DEMO);
    const turn = await turnOf(events);
    expect(turn.outcome).toBe('completed');
    expect(turn.text.length).toBeGreaterThan(200);

    const page = await open(`capture=${DEMO}`);
    const shown = await shownWhenDone(page, createMarkdown().render(turn.text));
    await page.screenshot({ path: join(ARTIFACTS, 'demo.png'), fullPage: true });
    await page.close();

    expect(shown.outcome).toBe('completed');
    expect(shown.status).toContain('Completed (stop)');
    expect(shown.markdown).toBe(turn.text);
    expect(shown.answerText).toBe(shown.expectedAnswerText);
    expect(shown.reasoningHidden).toBe(false);
    expect(shown.reasoningText).toBe(turn.reasoning.map((entry) => entry.text).join(''));
    expect(shown.events).toBe(events.length - 1);
    expect(shown.reconnects).toBe(0);
  });

  it('resumes after the server drops the connection at event 20: no gap, no duplicate', async () => {
    const events = await relayedEvents(server, DEMO);
    const turn = await turnOf(events);

    const page = await open(`capture=${DEMO}&drop=20`);
    const shown = await shownWhenDone(page, createMarkdown().render(turn.text));
    await page.screenshot({ path: join(ARTIFACTS, 'demo-drop-20.png'), fullPage: true });
    await page.close();

    expect(shown.reconnects).toBe(1);
    expect(shown.outcome).toBe('completed');
    expect(shown.markdown).toBe(turn.text);
    expect(shown.answerText).toBe(shown.expectedAnswerText);
    expect(shown.reasoningText).toBe(turn.reasoning.map((entry) => entry.text).join(''));
    expect(shown.events).toBe(events.length - 1);
  });

  it('shows a card per tool call with its arguments', async () => {
    const events = await relayedEvents(server, TOOLS);
    const turn = await turnOf(events);
    expect(turn.toolCalls.length).toBe(2);

    const page = await open(`capture=${TOOLS}&drop=3`);
    const shown = await shownWhenDone(page, createMarkdown().render(turn.text));
    await page.screenshot({ path: join(ARTIFACTS, 'tools.png'), fullPage: true });
    await page.close();

    expect(shown.outcome).toBe('completed');
    expect(shown.reconnects).toBe(1);
    expect(shown.tools).toEqual(
      turn.toolCalls.map((call) => ({
        id: call.id,
        name: call.name,
        args: JSON.stringify(call.input, null, 2),
        done: true,
      })),
    );
  });

  it.each([
    ['openai-chat/error-mid-stream', 'failed'],
    ['anthropic/max-tokens-no-message-stop', 'incomplete'],
  ])('ends %s with the outcome %s and its message', async (name, outcome) => {
    const turn = await turnOf(await relayedEvents(server, name));
    expect(turn.terminal.type).toBe(outcome);

    const page = await open(`capture=${name}`);
    const shown = await shownWhenDone(page, createMarkdown().render(turn.text));
    await page.close();

    const { terminal } = turn;
    expect(shown.outcome).toBe(outcome);
    expect(shown.status).toBe(
      terminal.type === 'failed'
        ? `Failed (${terminal.error.code}): ${terminal.error.message}`
        : terminal.type === 'incomplete'
          ? `Incomplete (${terminal.reason}): ${terminal.message}`
          : 'not a failure',
    );
    expect(shown.markdown).toBe(turn.text);
  });

  it('Stop calls the server, which ends the recording incomplete (aborted), keeping what arrived', async () => {
    const turn = await turnOf(await relayedEvents(server, DEMO));

    const page = await open(`capture=${DEMO}&gap=100`);
    await page.waitForFunction(
      () => (document.getElementById('reasoning-text')?.textContent ?? '').length > 0,
      { timeout: 30_000 },
    );
    await page.click('#stop');
    const shown = await shownWhenDone(page, '');
    await page.screenshot({ path: join(ARTIFACTS, 'stopped.png'), fullPage: true });
    await page.close();

    expect(shown.outcome).toBe('incomplete');
    // The server's stop (log.stop), not only the page's: its reason is in the message.
    expect(shown.status).toBe('Incomplete (aborted): Stopped: the user pressed Stop');
    const fullReasoning = turn.reasoning.map((entry) => entry.text).join('');
    expect(fullReasoning.startsWith(shown.reasoningText)).toBe(true);
    expect(shown.reasoningText.length).toBeLessThan(fullReasoning.length);
  });
});
