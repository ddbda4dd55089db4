import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { decideAfterFailure } from '../../src/delivery/callOutcome';
import { DeliveryError } from '../../src/delivery/errors';
import { createDeliveryQueue } from '../../src/delivery/deliveryQueue';

const edit = (message: number, text: string, op: 'send' | 'edit' = 'edit'): MessageEdit => ({
  op,
  message,
  text,
});

describe('createDeliveryQueue', () => {
  it('serves the lowest message first; the first text of a message is a send, whatever its op', () => {
    const queue = createDeliveryQueue();
    queue.push(edit(1, 'B'));
    queue.push(edit(0, 'A', 'send'));
    const first = queue.next()!;
    queue.delivered(first, 'ref-0');
    const second = queue.next()!;
    expect([first.message, first.op, second.message, second.op]).toEqual([0, 'send', 1, 'send']);
    queue.push(edit(0, 'AB', 'send'));
    expect(queue.next()).toEqual({
      message: 0,
      op: 'edit',
      edit: edit(0, 'AB', 'send'),
      ref: 'ref-0',
      attempt: 1,
    });
  });

  it('collapses waiting texts of one message to the newest, returning the one replaced', () => {
    const queue = createDeliveryQueue();
    expect(queue.push(edit(0, 'A'))).toBeUndefined();
    expect(queue.push(edit(0, 'AB'))).toEqual(edit(0, 'A'));
    expect(queue.next()!.edit.text).toBe('AB');
    expect(queue.hasWork()).toBe(false);
  });

  it('puts a failed text back, unless a newer one waits; counts attempts across retries', () => {
    const queue = createDeliveryQueue();
    queue.push(edit(0, 'A'));
    const call = queue.next()!;
    expect(queue.retry(call, true)).toBeUndefined();
    const retried = queue.next()!;
    expect([retried.edit.text, retried.attempt, queue.failuresOf(retried)]).toEqual(['A', 2, 1]);
    queue.push(edit(0, 'AB'));
    expect(queue.retry(retried, false)).toEqual(edit(0, 'A'));
    expect(queue.next()!.edit.text).toBe('AB');
  });

  it('drops later texts of a message whose send was given up', () => {
    const queue = createDeliveryQueue();
    queue.push(edit(0, 'A', 'send'));
    queue.giveUp(queue.next()!);
    expect(queue.push(edit(0, 'AB'))).toBeUndefined();
    expect(queue.hasWork()).toBe(false);
  });
});

describe('decideAfterFailure', () => {
  const call = { message: 0, op: 'edit' as const, edit: edit(0, 'A'), ref: 1, attempt: 1 };
  const policy = { maxAttempts: 3, backoffMs: 100 };
  it.each([
    [new DeliveryError('x', { notModified: true }), 0, { kind: 'not-modified' }],
    [
      new DeliveryError('x', { retryAfterMs: 2500 }),
      2,
      { kind: 'retry', delayMs: 2500, reason: 'retry-after', counted: false },
    ],
    [new Error('x'), 0, { kind: 'retry', delayMs: 100, reason: 'backoff', counted: true }],
    [new Error('x'), 1, { kind: 'retry', delayMs: 200, reason: 'backoff', counted: true }],
    [new Error('x'), 2, { kind: 'give-up', status: undefined, permanent: false }],
    [
      new DeliveryError('x', { permanent: true, status: 403 }),
      0,
      { kind: 'give-up', status: 403, permanent: true },
    ],
    [{ retryAfterMs: -5 }, 0, { kind: 'retry', delayMs: 100, reason: 'backoff', counted: true }],
    ['a string', 0, { kind: 'retry', delayMs: 100, reason: 'backoff', counted: true }],
  ])('%p after %i failures → %p', (thrown, failuresBefore, decision) => {
    expect(decideAfterFailure(thrown, call, failuresBefore, policy)).toEqual(decision);
  });

  it('does not count notModified on a send as delivered', () => {
    const send = { ...call, op: 'send' as const };
    expect(decideAfterFailure({ notModified: true }, send, 0, policy).kind).toBe('retry');
  });
});

describe('createDeliveryQueue with finishes (the message lifecycle)', () => {
  const take = (queue: ReturnType<typeof createDeliveryQueue>) => {
    const call = queue.next()!;
    return [call.message, call.op, call.edit.text, call.ref];
  };

  it('finishes a sent message once a higher message arrives, before that message is sent', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.push(edit(0, 'A', 'send'));
    const send = queue.next()!;
    queue.delivered(send, 'ref-0');
    expect(queue.hasWork()).toBe(false);
    queue.push(edit(1, 'B', 'send'));
    expect(take(queue)).toEqual([0, 'finish', 'A', 'ref-0']);
  });

  it('makes a waiting text of a closed message its finish, and finishes only once', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.push(edit(0, 'A', 'send'));
    queue.delivered(queue.next()!, 'ref-0');
    queue.push(edit(0, 'AB'));
    queue.closeAll();
    const finish = queue.next()!;
    expect([finish.op, finish.edit.text]).toEqual(['finish', 'AB']);
    queue.delivered(finish, 'ref-final');
    expect(queue.hasWork()).toBe(false);
    // A later text edits the finished message with the ref its finish resolved to.
    queue.push(edit(0, 'ABC'));
    expect(take(queue)).toEqual([0, 'edit', 'ABC', 'ref-final']);
  });

  it('a retried finish carries the newest text; a finish given up on is not made again', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.push(edit(0, 'A', 'send'));
    queue.delivered(queue.next()!, 'ref-0');
    queue.closeAll();
    const first = queue.next()!;
    queue.push(edit(0, 'AB'));
    expect(queue.retry(first, true)).toEqual(edit(0, 'A', 'send'));
    const second = queue.next()!;
    expect([second.op, second.edit.text, second.attempt]).toEqual(['finish', 'AB', 2]);
    queue.giveUp(second);
    expect(queue.hasWork()).toBe(false);
  });

  it('never finishes a message whose send failed for good, nor one never sent', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.push(edit(0, 'A', 'send'));
    queue.giveUp(queue.next()!);
    queue.push(edit(1, 'B', 'send'));
    queue.closeAll();
    expect(take(queue)).toEqual([1, 'send', 'B', undefined]);
    expect(queue.hasWork()).toBe(false);
  });

  it('without finishes, a closed message makes no further call (the last edit is final)', () => {
    const queue = createDeliveryQueue();
    queue.push(edit(0, 'A', 'send'));
    queue.delivered(queue.next()!, 'ref-0');
    queue.push(edit(1, 'B', 'send'));
    queue.closeAll();
    expect(take(queue)).toEqual([1, 'send', 'B', undefined]);
  });

  it('keeps the ref an edit resolved to, and keeps the old one on undefined', () => {
    const queue = createDeliveryQueue();
    queue.push(edit(0, 'A', 'send'));
    queue.delivered(queue.next()!, 'ref-0');
    queue.push(edit(0, 'AB'));
    queue.delivered(queue.next()!, undefined);
    queue.push(edit(0, 'ABC'));
    const third = queue.next()!;
    expect(third.ref).toBe('ref-0');
    queue.delivered(third, 'ref-1');
    queue.push(edit(0, 'ABCD'));
    expect(queue.next()!.ref).toBe('ref-1');
  });
});
