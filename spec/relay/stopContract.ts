import { lastValueFrom, Observable, tap, toArray } from 'rxjs';
import type { StreamEvent } from '../../src/events';
import type { EventLog } from '../../src/relay/log/eventLog';
import { followLog } from '../../src/relay/log/followLog';
import { recordTo } from '../../src/relay/log/recordTo';
import { streamEvents } from '../../src/streamEvents';
import { startModelServer, type ModelServer } from '../helpers/modelServer';

/** Two nodes of one log: the one that records (and calls the model), and another. */
export interface StopNodes {
  producer: EventLog;
  other: EventLog;
}

const textOf = (events: StreamEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');

/** Follows `id` on `log`; `saw(text)` resolves once the follower has received that much text. */
function follower(log: EventLog, id: string) {
  let text = '';
  const wanted: Array<{ text: string; resolve: () => void }> = [];
  const events = lastValueFrom(
    followLog(log, id).pipe(
      tap((event) => {
        if (event.type === 'text-delta') text += event.delta;
        for (const want of wanted.filter((w) => text.startsWith(w.text))) want.resolve();
      }),
      toArray(),
    ),
  );
  const saw = (expected: string) =>
    text.startsWith(expected)
      ? Promise.resolve()
      : new Promise<void>((resolve) => wanted.push({ text: expected, resolve }));
  return { events, saw };
}

/**
 * Stop, the same on every backend: a stop on any node aborts the producer's provider request
 * (the model server sees its socket close) and every follower — now or after a reload — ends
 * `incomplete` `aborted` with exactly the text the model sent before the stop.
 */
export function stopContract(makeNodes: () => StopNodes, idPrefix: string): void {
  let n = 0;
  const freshId = () => `${idPrefix}-stop-${++n}`;
  let model: ModelServer;
  beforeAll(async () => {
    model = await startModelServer();
  });
  afterAll(() => model.close());

  /** The producer's side, as the examples write it: the stop signal to fetch and streamEvents. */
  async function produce(log: EventLog, id: string) {
    const signal = log.stopSignal(id);
    const response = await fetch(model.url, { method: 'POST', body: '{}', signal });
    const request = await model.nextRequest();
    const recorded = lastValueFrom(
      streamEvents(response, { signal }).pipe(recordTo(log, id), toArray()),
    );
    return { request, recorded };
  }

  it('a stop on another node aborts the provider request; every follower and every reload sees the text so far, then the stop', async () => {
    const { producer, other } = makeNodes();
    const id = freshId();
    const { request, recorded } = await produce(producer, id);
    const followers = [follower(producer, id), follower(other, id)];
    await request.send('Hel');
    await request.send('lo, wor');
    await Promise.all(followers.map((f) => f.saw('Hello, wor')));

    const stoppedAt = performance.now();
    await other.stop(id, 'the user pressed Stop');
    await request.aborted;
    const abortedAfterMs = performance.now() - stoppedAt;
    expect(abortedAfterMs).toBeLessThan(1500); // the contract says 500 ms; slack for a busy CI

    const stopped: StreamEvent = {
      type: 'incomplete',
      reason: 'aborted',
      message: 'Stopped: the user pressed Stop',
    };
    for (const events of [await recorded, ...(await Promise.all(followers.map((f) => f.events)))]) {
      expect(textOf(events)).toBe(request.sent);
      expect(events.at(-1)).toEqual(stopped);
      expect(events.filter((event) => event.type === 'incomplete')).toHaveLength(1);
    }
    // A reload, on either node: the same partial answer, then the stop.
    for (const log of [producer, other]) {
      const replayed = await lastValueFrom(followLog(log, id).pipe(toArray()));
      expect([textOf(replayed), replayed.at(-1)]).toEqual(['Hello, wor', stopped]);
      expect(await log.status(id)).toBe('finished');
    }
  });

  it('a stop without a reason; a signal asked for after the stop is aborted too', async () => {
    const { producer, other } = makeNodes();
    const id = freshId();
    const { request, recorded } = await produce(producer, id);
    await request.send('Hi');
    await follower(other, id).saw('Hi');
    await other.stop(id);
    await request.aborted;
    const events = await recorded;
    expect(events.at(-1)).toEqual({
      type: 'incomplete',
      reason: 'aborted',
      message: 'Stopped by the user.',
    });
    expect(producer.stopSignal(id).aborted || (await producer.status(id)) === 'finished').toBe(
      true,
    );
  });

  it('a stop after the terminal changes nothing: the answer stays completed, the model was not cut', async () => {
    const { producer, other } = makeNodes();
    const id = freshId();
    const { request, recorded } = await produce(producer, id);
    await request.send('Done.');
    request.finish();
    const events = await recorded;
    expect(events.at(-1)).toEqual({ type: 'completed', finishReason: 'stop' });
    await other.stop(id, 'too late');
    await producer.stop(id, 'too late');
    const replayed = await lastValueFrom(followLog(other, id).pipe(toArray()));
    expect([textOf(replayed), replayed.at(-1)]).toEqual([
      'Done.',
      { type: 'completed', finishReason: 'stop' },
    ]);
    expect(request.wasAborted).toBe(false);
  });

  it('a stop before the recorder claimed the id still stops it', async () => {
    const { producer, other } = makeNodes();
    const id = freshId();
    const signal = producer.stopSignal(id);
    const source = new Observable<StreamEvent>((subscriber) => {
      subscriber.next({ type: 'text-delta', id: 't', delta: 'never shown?' });
    });
    // The producer asked for its signal; the stop comes before its claim.
    await other.stop(id, 'early');
    await new Promise<void>((resolve) =>
      signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve()),
    );
    const events = await lastValueFrom(source.pipe(recordTo(producer, id), toArray()));
    expect(events).toEqual([{ type: 'incomplete', reason: 'aborted', message: 'Stopped: early' }]);
  });
}
