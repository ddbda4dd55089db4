// More of deliver's queue rules (see createDeliveryQueue's doc): a reply resumed from the
// ledger, the op of the next call, what a failure given up on drops, and counted failures.
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { createDeliveryQueue } from '../../src/delivery/deliveryQueue';

const edit = (message: number, text: string, op: 'send' | 'edit' = 'edit'): MessageEdit => ({
  op,
  message,
  text,
});

describe('createDeliveryQueue: nothing to do', () => {
  it('next() and nextOp() are undefined, hasWork() false', () => {
    const queue = createDeliveryQueue({ finishes: true });
    expect(queue.next()).toBeUndefined();
    expect(queue.nextOp()).toBeUndefined();
    expect(queue.hasWork()).toBe(false);
    queue.closeAll();
    expect(queue.next()).toBeUndefined();
  });
});

describe('createDeliveryQueue: nextOp', () => {
  it('names the op of the lowest message with a call, without taking it', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.push(edit(0, 'A', 'send'));
    expect(queue.nextOp()).toBe('send');
    queue.delivered(queue.next()!, 'ref-0');
    queue.push(edit(0, 'AB'));
    queue.push(edit(1, 'B', 'send'));
    // Message 0 is closed by message 1: its waiting text goes out as its finish.
    expect(queue.nextOp()).toBe('finish');
    expect(queue.nextOp()).toBe('finish');
    expect(queue.hasWork()).toBe(true);
    const finish = queue.next()!;
    expect([finish.message, finish.op, finish.edit.text]).toEqual([0, 'finish', 'AB']);
    queue.delivered(finish);
    expect(queue.nextOp()).toBe('send');
  });

  it('an edit of a sent message before a send of a higher one', () => {
    const queue = createDeliveryQueue();
    queue.push(edit(0, 'A', 'send'));
    queue.delivered(queue.next()!, 'ref-0');
    queue.push(edit(1, 'B', 'send'));
    queue.push(edit(0, 'AB'));
    expect(queue.nextOp()).toBe('edit');
  });
});

describe('createDeliveryQueue: a send that answers after a higher message arrived', () => {
  it('finishes the lower message first once its send went through', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.push(edit(0, 'A', 'send'));
    const send = queue.next()!;
    queue.push(edit(1, 'B', 'send'));
    queue.delivered(send, 'ref-0');
    const next = queue.next()!;
    expect([next.message, next.op, next.edit.text, next.ref]).toEqual([0, 'finish', 'A', 'ref-0']);
  });
});

describe('createDeliveryQueue: a finish in flight when the source ends', () => {
  it('once it went through (and the next send was given up), nothing is left to do', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.push(edit(0, 'A', 'send'));
    queue.delivered(queue.next()!, 'ref-0');
    queue.push(edit(1, 'B', 'send'));
    const finish = queue.next()!;
    const send = queue.next()!;
    expect([finish.op, send.op]).toEqual(['finish', 'send']);
    queue.closeAll();
    queue.delivered(finish);
    queue.giveUp(send);
    expect(queue.hasWork()).toBe(false);
    expect(queue.nextOp()).toBeUndefined();
    expect(queue.next()).toBeUndefined();
  });
});

describe('createDeliveryQueue: failures', () => {
  it('counts only the failures retried as counted', () => {
    const queue = createDeliveryQueue();
    queue.push(edit(0, 'A', 'send'));
    const first = queue.next()!;
    queue.retry(first, false);
    expect(queue.failuresOf(first)).toBe(0);
    const second = queue.next()!;
    queue.retry(second, true);
    expect(queue.failuresOf(second)).toBe(1);
    const third = queue.next()!;
    expect(third.attempt).toBe(3);
    queue.delivered(third, 'ref-0');
    expect(queue.failuresOf(third)).toBe(0);
  });

  it('an edit given up on drops only that text: a later text still edits, and the finish is made', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.push(edit(0, 'A', 'send'));
    queue.delivered(queue.next()!, 'ref-0');
    queue.push(edit(0, 'AB'));
    queue.giveUp(queue.next()!);
    expect(queue.hasWork()).toBe(false);
    queue.push(edit(0, 'ABC'));
    const later = queue.next()!;
    expect([later.op, later.edit.text, later.ref, later.attempt]).toEqual([
      'edit',
      'ABC',
      'ref-0',
      1,
    ]);
    queue.delivered(later);
    queue.closeAll();
    const finish = queue.next()!;
    expect([finish.op, finish.edit.text]).toEqual(['finish', 'ABC']);
  });
});

describe('createDeliveryQueue: a reply resumed from the ledger', () => {
  const entry = { message: 0, ref: 'ref-0', text: 'Hello', finished: false };

  it('takeResumed returns each restored entry once, and nothing for another message', () => {
    const queue = createDeliveryQueue();
    queue.restore([entry, { message: 1, ref: 'ref-1', text: 'Next', finished: true }]);
    expect(queue.takeResumed(0)).toBe(entry);
    expect(queue.takeResumed(0)).toBeUndefined();
    expect(queue.takeResumed(1)).toEqual({
      message: 1,
      ref: 'ref-1',
      text: 'Next',
      finished: true,
    });
    expect(queue.takeResumed(2)).toBeUndefined();
    expect(createDeliveryQueue().takeResumed(0)).toBeUndefined();
  });

  it('a text the ledger holds (or a prefix of it) makes no call; a longer one edits with the restored ref', () => {
    const queue = createDeliveryQueue();
    queue.restore([entry]);
    queue.push(edit(0, 'Hel', 'send'));
    queue.push(edit(0, 'Hello'));
    expect(queue.hasWork()).toBe(false);
    expect(queue.next()).toBeUndefined();
    queue.push(edit(0, 'Hello world'));
    expect(queue.nextOp()).toBe('edit');
    const call = queue.next()!;
    expect(call).toEqual({
      message: 0,
      op: 'edit',
      edit: edit(0, 'Hello world'),
      ref: 'ref-0',
      attempt: 1,
    });
    queue.delivered(call);
    expect(queue.entryOf(call)).toStrictEqual({
      message: 0,
      ref: 'ref-0',
      text: 'Hello world',
      finished: false,
    });
  });

  it('a text that only ends like the ledger text is not taken for it', () => {
    const queue = createDeliveryQueue();
    queue.restore([entry]);
    queue.push(edit(0, 'llo'));
    expect(queue.nextOp()).toBe('edit');
  });

  it('a restored open message gets its finish with the newest text once closed; no text this run, no finish', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.restore([entry, { message: 1, ref: 'ref-1', text: 'Next', finished: false }]);
    queue.push(edit(0, 'Hello'));
    queue.closeAll();
    const finish = queue.next()!;
    expect(finish).toEqual({
      message: 0,
      op: 'finish',
      edit: edit(0, 'Hello'),
      ref: 'ref-0',
      attempt: 1,
    });
    queue.delivered(finish);
    expect(queue.entryOf(finish)).toStrictEqual({
      message: 0,
      ref: 'ref-0',
      text: 'Hello',
      finished: true,
    });
    // Message 1 was restored but got no text this run.
    expect(queue.next()).toBeUndefined();
  });

  it('a restored text closed by a higher message is finished before that message is sent', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.restore([entry]);
    queue.push(edit(0, 'Hello'));
    queue.push(edit(1, 'B', 'send'));
    const next = queue.next()!;
    expect([next.message, next.op]).toEqual([0, 'finish']);
  });

  it('a restored text pushed after a higher message closed it is finished first', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.restore([entry]);
    queue.push(edit(1, 'B', 'send'));
    queue.push(edit(0, 'Hello'));
    const next = queue.next()!;
    expect([next.message, next.op, next.edit.text]).toEqual([0, 'finish', 'Hello']);
  });

  it('a restored finished message is not finished again', () => {
    const queue = createDeliveryQueue({ finishes: true });
    queue.restore([{ ...entry, finished: true }]);
    queue.push(edit(0, 'Hello'));
    queue.closeAll();
    expect(queue.hasWork()).toBe(false);
    expect(queue.next()).toBeUndefined();
  });
});
