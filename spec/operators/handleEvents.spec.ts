import { from, Subject, timer, VirtualTimeScheduler, type Observable } from 'rxjs';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';
import { handleEvents } from '../../src/operators/handleEvents';
import { collect } from '../helpers/bytes';

/** A promise with its settle functions, to release a handler exactly when the test says. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback and I/O turn run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const delta = (text: string): StreamEvent => ({ type: 'text-delta', id: 't', delta: text });
const toolEnd: StreamEvent = { type: 'tool-end', id: 'call_1', name: 'search' };
const completed: StreamEvent = { type: 'completed', finishReason: 'stop' };

/** Subscribes and records what comes out, and whether the output completed. */
function record(observable: Observable<StreamEvent>) {
  const out: StreamEvent[] = [];
  const state = { completed: false };
  const subscription = observable.subscribe({
    next: (event) => out.push(event),
    complete: () => (state.completed = true),
  });
  return { out, state, subscription };
}

describe('handleEvents with Promise handlers', () => {
  it('runs handlers strictly one at a time, in order, and re-emits each after its handler', async () => {
    const log: string[] = [];
    const events = [delta('a'), delta('b'), delta('c'), completed];
    const out = await collect(
      from(events).pipe(
        handleEvents(async (event) => {
          const name = event.type === 'text-delta' ? event.delta : event.type;
          log.push(`start ${name}`);
          await settle();
          log.push(`end ${name}`);
        }),
      ),
    );
    expect(log).toEqual([
      'start a',
      'end a',
      'start b',
      'end b',
      'start c',
      'end c',
      'start completed',
      'end completed',
    ]);
    expect(out).toEqual(events);
  });

  it('turns a rejecting handler into a handler-error warning before its event, and goes on', async () => {
    const out = await collect(
      from([delta('a'), delta('b'), completed]).pipe(
        handleEvents(async (event) => {
          if (event.type === 'text-delta' && event.delta === 'a') throw new Error('send failed');
        }),
      ),
    );
    expect(out).toEqual([
      {
        type: 'warning',
        code: 'handler-error',
        message: 'The handler for a "text-delta" event failed: send failed',
        detail: { eventType: 'text-delta', detached: false },
      },
      delta('a'),
      delta('b'),
      completed,
    ]);
  });

  it('re-emits a detached tool-end at once and holds the terminal until its Promise settles', async () => {
    const toolWork = deferred();
    const source = new Subject<StreamEvent>();
    const { out, state } = record(
      source.pipe(
        handleEvents((event) => (event.type === 'tool-end' ? toolWork.promise : undefined)),
      ),
    );
    source.next(toolEnd);
    source.next(delta('after the tool'));
    source.next(completed);
    await settle();
    expect(out).toEqual([toolEnd, delta('after the tool')]);
    expect(state.completed).toBe(false);
    toolWork.resolve();
    await settle();
    expect(out).toEqual([toolEnd, delta('after the tool'), completed]);
    expect(state.completed).toBe(true);
  });

  it('on unsubscribe ignores a pending Promise, and its later rejection is never unhandled', async () => {
    const pending = deferred();
    const detachedPending = deferred();
    const source = new Subject<StreamEvent>();
    const { out, subscription } = record(
      source.pipe(
        handleEvents((event) =>
          event.type === 'tool-end' ? detachedPending.promise : pending.promise,
        ),
      ),
    );
    source.next(toolEnd);
    source.next(delta('waiting'));
    subscription.unsubscribe();
    pending.reject(new Error('late failure'));
    detachedPending.reject(new Error('late detached failure'));
    await settle();
    await settle();
    expect(out).toEqual([toolEnd]);
    expect(source.observed).toBe(false);
    // spec/helpers/setup.ts fails the suite if either rejection went unhandled.
  });

  it('after settleTimeoutMs warns, cancels the detached work and ends', async () => {
    const never = new Promise<void>(() => undefined);
    const out = await collect(
      from([toolEnd, completed]).pipe(
        handleEvents((event) => (event.type === 'tool-end' ? never : undefined), {
          settleTimeoutMs: 0,
        }),
      ),
    );
    expect(out).toEqual([
      toolEnd,
      {
        type: 'warning',
        code: 'detached-timeout',
        message:
          '1 detached handler(s) did not settle within 0 ms of the end of the stream and were cancelled.',
        detail: { pending: 1 },
      },
      completed,
    ]);
  });

  it('mixes Promise, Observable and void handlers in one chain, in order', async () => {
    const log: string[] = [];
    const events = [delta('promise'), delta('observable'), delta('void'), completed];
    const out = await collect(
      from(events).pipe(
        handleEvents((event) => {
          if (event.type !== 'text-delta') return;
          log.push(event.delta);
          if (event.delta === 'promise') return settle();
          if (event.delta === 'observable') return timer(1);
        }),
      ),
    );
    expect(log).toEqual(['promise', 'observable', 'void']);
    expect(out).toEqual(events);
  });
});

describe('handleEvents', () => {
  it('detaches by predicate', async () => {
    const hold = deferred();
    const source = new Subject<StreamEvent>();
    const { out } = record(
      source.pipe(
        handleEvents(() => hold.promise, {
          detach: (event) => event.type === 'text-delta' && event.delta === 'bg',
        }),
      ),
    );
    source.next(delta('bg'));
    source.next(delta('fg'));
    await settle();
    // "bg" is detached (out at once); "fg" waits on the same never-yet-resolved promise.
    expect(out).toEqual([delta('bg')]);
    hold.resolve();
    await settle();
    expect(out).toEqual([delta('bg'), delta('fg')]);
  });

  it('keeps the stack flat over many synchronously settling handlers', async () => {
    const events = Array.from({ length: 20_000 }, (_, index) => delta(String(index)));
    const out = await collect(from(events).pipe(handleEvents(() => undefined)));
    expect(out).toHaveLength(20_000);
    expect(out[19_999]).toEqual(delta('19999'));
  });

  it('keeps the stack flat when many queued events settle at once after a slow handler', () => {
    const gate = new Subject<void>();
    const events = Array.from({ length: 50_000 }, (_, index) => delta(String(index)));
    const { out, state } = record(
      from([...events, completed]).pipe(
        handleEvents((event) => (event === events[0] ? gate : undefined)),
      ),
    );
    expect(out).toEqual([]);
    gate.complete();
    expect(out).toHaveLength(50_001);
    expect(out[49_999]).toEqual(delta('49999'));
    expect(out[50_000]).toEqual(completed);
    expect(state.completed).toBe(true);
  });

  it('a detach predicate that throws once a handler settled errors the output', () => {
    const scheduler = new VirtualTimeScheduler();
    const failure = new Error('predicate failed');
    const out: StreamEvent[] = [];
    let error: unknown;
    from([delta('a'), toolEnd, completed])
      .pipe(
        handleEvents(() => timer(5, scheduler), {
          detach: (event) => {
            if (event.type === 'tool-end') throw failure;
            return false;
          },
          scheduler,
        }),
      )
      .subscribe({ next: (event) => out.push(event), error: (thrown) => (error = thrown) });
    scheduler.flush();
    expect(out).toEqual([delta('a')]);
    expect(error).toBe(failure);
  });

  it('drops what follows a terminal and releases the source', async () => {
    const source = new Subject<StreamEvent>();
    const { out, state } = record(source.pipe(handleEvents(() => undefined)));
    source.next(completed);
    expect(source.observed).toBe(false);
    source.next(delta('late'));
    expect(out).toEqual([completed]);
    expect(state.completed).toBe(true);
  });

  it('rejects bad options at construction', () => {
    expect(() => handleEvents('nope' as never)).toThrow(LlmRxError);
    expect(() => handleEvents(() => undefined, { detach: ['tool-finished' as never] })).toThrow(
      /invalid options/,
    );
    expect(() => handleEvents(() => undefined, { settleTimeoutMs: -1 })).toThrow(/settleTimeoutMs/);
    expect(() => handleEvents(42 as never)).toThrow(
      expect.objectContaining({
        code: 'invalid-options',
        message: 'handleEvents: the handler must be a function',
      }),
    );
    expect(() => handleEvents(() => undefined, { settleTimeoutMs: -1 })).toThrow(
      'handleEvents: invalid options\n✖ Too small: expected number to be >=0\n  → at settleTimeoutMs',
    );
  });
});
