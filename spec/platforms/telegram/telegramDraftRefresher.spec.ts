import { VirtualTimeScheduler } from 'rxjs';
import { DeliveryError } from '../../../src/delivery/errors';
import type { TelegramOutcome } from '../../../src/platforms/telegram/telegramApi';
import type { Piece } from '../../../src/platforms/telegram/telegramContent';
import {
  createDraftRefresher,
  MAX_IDLE_REFRESHES,
} from '../../../src/platforms/telegram/telegramDrafts';

/** Runs the virtual clock to `until`, letting each write's Promise settle before going on. */
async function runUntil(scheduler: VirtualTimeScheduler, until: number) {
  for (let guard = 0; guard < 1000; guard++) {
    const next = scheduler.actions[0];
    if (!next || next.delay > until) break;
    scheduler.maxFrames = next.delay;
    scheduler.flush();
    await new Promise((resolve) => setImmediate(resolve));
  }
  scheduler.frame = Math.max(scheduler.frame, until);
}

describe('createDraftRefresher (virtual time)', () => {
  const piece: Piece = { text: 'hello' };
  const ok: TelegramOutcome = { ok: true, result: true };
  const setup = (answers: Array<TelegramOutcome | undefined> = []) => {
    const scheduler = new VirtualTimeScheduler();
    const writes: number[] = [];
    const refresher = createDraftRefresher<object>({
      scheduler,
      refreshMs: 20_000,
      write: async () => {
        writes.push(scheduler.now());
        return answers.length > 0 ? answers.shift() : ok;
      },
    });
    return { scheduler, writes, refresher, ref: {}, signal: new AbortController().signal };
  };

  it('writes the draft again every refreshMs after the last write', async () => {
    const { scheduler, writes, refresher, ref, signal } = setup();
    refresher.wrote(ref, piece, signal);
    await runUntil(scheduler, 65_000);
    expect(writes).toEqual([20_000, 40_000, 60_000]);
    expect(refresher.pending).toBe(1);
  });

  it('waits a 429’s retry_after before the next refresh', async () => {
    const limited: TelegramOutcome = {
      ok: false,
      error: new DeliveryError('429', { retryAfterMs: 3_000, status: 429 }),
    };
    const { scheduler, writes, refresher, ref, signal } = setup([limited]);
    refresher.wrote(ref, piece, signal);
    await runUntil(scheduler, 50_000);
    expect(writes).toEqual([20_000, 23_000, 43_000]);
  });

  it(`stops after ${MAX_IDLE_REFRESHES} refreshes without a new text; a new text starts over`, async () => {
    const { scheduler, writes, refresher, ref, signal } = setup();
    refresher.wrote(ref, piece, signal);
    await runUntil(scheduler, 20_000 * (MAX_IDLE_REFRESHES + 3));
    expect(writes.length).toBe(MAX_IDLE_REFRESHES);
    expect(refresher.pending).toBe(0);
    const at = scheduler.now();
    refresher.wrote(ref, piece, signal);
    await runUntil(scheduler, at + 45_000);
    expect(writes.slice(MAX_IDLE_REFRESHES)).toEqual([at + 20_000, at + 40_000]);
  });

  it('stops on stop(), close(), an aborted call, a permanent failure, or a message no longer a draft', async () => {
    const permanent: TelegramOutcome = {
      ok: false,
      error: new DeliveryError('403', { permanent: true, status: 403 }),
    };
    for (const end of ['stop', 'close', 'abort', 'permanent', 'not-a-draft'] as const) {
      const { scheduler, writes, refresher, ref } = setup(
        end === 'permanent' ? [permanent] : end === 'not-a-draft' ? [undefined] : [],
      );
      const call = new AbortController();
      refresher.wrote(ref, piece, call.signal);
      if (end === 'stop') refresher.stop(ref);
      if (end === 'close') refresher.close();
      if (end === 'abort') call.abort();
      await runUntil(scheduler, 100_000);
      expect([end, writes]).toEqual([
        end,
        end === 'permanent' || end === 'not-a-draft' ? [20_000] : [],
      ]);
      expect(refresher.pending).toBe(0);
      expect(scheduler.actions.length).toBe(0);
    }
  });
});
