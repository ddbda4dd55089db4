import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startCuttingRelayServer, type CuttingRelayServer } from '../helpers/cuttingRelayServer';
import { seededRandom } from '../helpers/seededRandom';
import { CHROMIUM_ARGS, describeWithChromium } from '../helpers/chromium';

// Chromium's own EventSource on the guide's relay route (examples/web/server/relayRoutes.ts),
// the connection cut at random events: every event once, and after the terminal one more
// request, answered 204, after which the browser stops (readyState CLOSED) instead of
// reconnecting every `retry` forever.

interface Received {
  ids: string[];
  data: unknown[];
  closed: boolean;
}

/** Opens an EventSource in the page and resolves once the browser closed it (or `limitMs`). */
function readInPage(page: Page, path: string, limitMs: number): Promise<Received> {
  return page.evaluate(
    (path: string, limitMs: number) =>
      new Promise<Received>((resolve) => {
        const source = new EventSource(path);
        const received: Received = { ids: [], data: [], closed: false };
        const limit = setTimeout(() => {
          source.close();
          resolve(received);
        }, limitMs);
        source.onmessage = (message) => {
          received.ids.push(message.lastEventId);
          received.data.push(JSON.parse(message.data));
        };
        source.onerror = () => {
          if (source.readyState !== EventSource.CLOSED) return;
          clearTimeout(limit);
          resolve({ ...received, closed: true });
        };
      }),
    path,
    limitMs,
  );
}

describeWithChromium("Chromium's EventSource on the relay route", (executablePath) => {
  let server: CuttingRelayServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startCuttingRelayServer();
    browser = await puppeteer.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    await page.goto(server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each([1, 2, 3])(
    'run %i: cut at random events, every event once, then one 204 and closed',
    async (run) => {
      const random = seededRandom(390 + run);
      const cuts = Array.from({ length: run - 1 }, () => 1 + Math.floor(random() * 12));
      const responseId = `chromium-${run}`;
      const events = server.record(responseId, 24, 25);
      server.cutPlan(responseId, cuts);
      const received = await readInPage(page, `/api/chat?responseId=${responseId}`, 20_000);
      expect(received.closed).toBe(true);
      expect(received.data).toEqual(events);
      expect(received.ids).toEqual(events.map((_, i) => String(i)));
      const requests = server.requests(responseId);
      const last = events.length - 1;
      const terminalAt = requests.findIndex((r) => r.sentIds.includes(last));
      expect(requests.slice(terminalAt + 1)).toEqual([
        { lastEventId: String(last), status: 204, sentIds: [] },
      ]);
      expect(requests.length).toBe(cuts.length + 2);
    },
  );

  it('an unknown id: one request, 204, closed at once', async () => {
    const received = await readInPage(page, '/api/chat?responseId=unknown-id', 5_000);
    expect(received).toEqual({ ids: [], data: [], closed: true });
    expect(server.requests('unknown-id')).toEqual([
      { lastEventId: undefined, status: 204, sentIds: [] },
    ]);
  });
});
