// deliver's edges the marbles leave out: ledgers that answer synchronously or throw, steps that
// arrive while the ledger is read, steps after the end, and a transport's own budget.
import { lastValueFrom, Observable, of, toArray } from 'rxjs';
import type { MessageEdit, MessageStep } from '../../src/channels/messageEditPlanner';
import { deliver } from '../../src/delivery/deliver';
import { memoryLedger } from '../../src/delivery/memoryLedger';
import type { DeliveryLedger, DeliveryReport, DeliveryTransport } from '../../src/delivery/types';

const send = (message: number, text: string): MessageEdit => ({ op: 'send', message, text });
const edit = (message: number, text: string): MessageEdit => ({ op: 'edit', message, text });
const reportsOf = (reports$: Observable<DeliveryReport>) => lastValueFrom(reports$.pipe(toArray()));

/** A transport that records its calls; message n gets ref `ref-n`. */
function recording(extra: Partial<DeliveryTransport<string>> = {}) {
  const calls: string[] = [];
  const transport: DeliveryTransport<string> = {
    send: async (e) => (calls.push(`send ${e.message} ${e.text}`), `ref-${e.message}`),
    edit: async (ref, e) => void calls.push(`edit ${ref} ${e.text}`),
    ...extra,
  };
  return { calls, transport };
}

const types = (reports: DeliveryReport[]) => reports.map((report) => report.type);

describe('deliver with a ledger that does not return Promises', () => {
  it('a write that throws: the call is reported, then a ledger-write-failed warning', async () => {
    const { calls, transport } = recording();
    const ledger: DeliveryLedger = {
      read: async () => [],
      write: () => {
        throw new Error('READONLY');
      },
    };
    const reports = await reportsOf(
      of(send(0, 'A')).pipe(deliver(transport, { ledger, key: 'k' })),
    );
    expect(calls).toEqual(['send 0 A']);
    expect(reports).toEqual([
      { type: 'sent', message: 0, text: 'A', attempts: 1 },
      {
        type: 'warning',
        code: 'ledger-write-failed',
        message: 0,
        op: 'send',
        attempt: 1,
        detail:
          'deliver: the send of message 0 went through, but the ledger did not record it (READONLY); a restart may repeat it.',
      },
    ]);
  });

  it('a write that returns no Promise counts as written', async () => {
    const { calls, transport } = recording();
    const written: unknown[] = [];
    const ledger = {
      read: async () => [],
      write: (_key: string, entry: unknown) => void written.push(entry),
    } as unknown as DeliveryLedger;
    const reports = await reportsOf(
      of(send(0, 'A')).pipe(deliver(transport, { ledger, key: 'k' })),
    );
    expect(calls).toEqual(['send 0 A']);
    expect(reports).toEqual([{ type: 'sent', message: 0, text: 'A', attempts: 1 }]);
    expect(written).toEqual([{ message: 0, ref: 'ref-0', text: 'A', finished: false }]);
  });

  it('a read that throws fails the output before any call', async () => {
    const { calls, transport } = recording();
    const ledger: DeliveryLedger = {
      read: () => {
        throw new Error('ECONNREFUSED');
      },
      write: async () => undefined,
    };
    const error = await reportsOf(
      of(send(0, 'A')).pipe(deliver(transport, { ledger, key: 'k' })),
    ).catch((thrown: unknown) => thrown);
    expect((error as Error).message).toBe(
      'deliver: the ledger could not be read for key "k" (ECONNREFUSED); nothing was sent, so that nothing is sent twice.',
    );
    expect(calls).toEqual([]);
  });

  it('a read that returns its entries directly: what they hold is not sent again', async () => {
    const { calls, transport } = recording();
    const ledger = {
      read: () => [{ message: 0, ref: 'ref-0', text: 'Hello', finished: false }],
      write: async () => undefined,
    } as unknown as DeliveryLedger;
    const reports = await reportsOf(
      of(send(0, 'Hello'), edit(0, 'Hello there')).pipe(deliver(transport, { ledger, key: 'k' })),
    );
    expect(calls).toEqual(['edit ref-0 Hello there']);
    expect(types(reports)).toEqual(['resumed', 'edited']);
  });
});

describe('deliver: steps that arrive while the ledger is read', () => {
  it('wait for it: a text the ledger holds is resumed, not sent', async () => {
    const ledger = memoryLedger();
    await ledger.write('k', { message: 0, ref: 'ref-0', text: 'Hello', finished: false });
    const { calls, transport } = recording();
    const reports = await reportsOf(
      of(send(0, 'Hello')).pipe(deliver(transport, { ledger, key: 'k' })),
    );
    expect(calls).toEqual([]);
    expect(reports).toEqual([{ type: 'resumed', message: 0, text: 'Hello', finished: false }]);
  });

  it('a source error while the ledger is read: the texts before it are still delivered, then the error', async () => {
    const ledger = memoryLedger();
    const { calls, transport } = recording();
    const source = new Observable<MessageStep>((subscriber) => {
      subscriber.next(send(0, 'A'));
      subscriber.error(new Error('model went away'));
    });
    const reports: DeliveryReport[] = [];
    const error = await new Promise((resolve) =>
      source
        .pipe(deliver(transport, { ledger, key: 'k', notice: false }))
        .subscribe({ next: (report) => reports.push(report), error: resolve }),
    );
    expect((error as Error).message).toBe('model went away');
    expect(calls).toEqual(['send 0 A']);
    expect(reports).toEqual([
      { type: 'sent', message: 0, text: 'A', attempts: 1 },
      {
        type: 'answer',
        outcome: 'failed',
        messages: 1,
        delivered: true,
        reason: 'stream-error',
        error: { code: 'stream-error', message: 'model went away' },
      },
    ]);
  });
});

describe('deliver: after the end', () => {
  it('a text after the end is not delivered, and a second end adds no second notice', async () => {
    const { calls, transport } = recording();
    const end: MessageStep = {
      op: 'end',
      terminal: { type: 'incomplete', reason: 'length', message: 'cut' },
    };
    const steps: MessageStep[] = [send(0, 'A'), end, edit(0, 'AB'), end];
    const reports = await reportsOf(of(...steps).pipe(deliver(transport)));
    expect(calls).toEqual(['send 0 A', 'edit ref-0 A\n\n… (cut at the length limit)']);
    expect(types(reports)).toEqual(['sent', 'edited', 'answer']);
  });
});

describe("deliver with a transport's own budget", () => {
  it('waits what the budget says before an edit; a send goes to the transport at once (it waits in the budget)', async () => {
    const start = performance.now();
    const { calls, transport } = recording({
      budget: { readyIn: () => Math.max(0, start + 30 - performance.now()) },
    });
    let sentAt = Infinity;
    let editedAt = 0;
    const timed: DeliveryTransport<string> = {
      ...transport,
      send: (e, call) => ((sentAt = performance.now()), transport.send(e, call)),
      edit: (ref, e, call) => ((editedAt = performance.now()), transport.edit(ref, e, call)),
    };
    await reportsOf(of(send(0, 'A'), edit(0, 'AB')).pipe(deliver(timed)));
    expect(calls).toEqual(['send 0 A', 'edit ref-0 AB']);
    expect(sentAt - start).toBeLessThan(29);
    expect(editedAt - start).toBeGreaterThanOrEqual(29);
  });

  it('a budget that waits for a call in flight (Infinity): the call goes to the transport, which waits itself', async () => {
    const { calls, transport } = recording({ budget: { readyIn: () => Infinity } });
    const reports = await reportsOf(of(send(0, 'A')).pipe(deliver(transport)));
    expect(calls).toEqual(['send 0 A']);
    expect(types(reports)).toEqual(['sent']);
  });
});
