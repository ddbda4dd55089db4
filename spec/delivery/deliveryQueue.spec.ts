import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { decideAfterFailure } from '../../src/delivery/callOutcome';
import { DeliveryError } from '../../src/delivery/deliveryError';
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
    [new Error('x'), 2, { kind: 'give-up', status: undefined }],
    [new DeliveryError('x', { permanent: true, status: 403 }), 0, { kind: 'give-up', status: 403 }],
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
