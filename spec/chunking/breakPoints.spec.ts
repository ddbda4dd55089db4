// The break queues' contract (breakPoints.ts): range queries over [low, high], both ends
// included, and `dropThrough`, after which no query returns a position at or before the cursor.
import {
  createBreakPoints,
  createBreakQueue,
  dropBreaksThrough,
} from '../../src/chunking/breakPoints';

function queueOf(positions: number[]) {
  const queue = createBreakQueue();
  for (const position of positions) queue.push(position);
  return queue;
}

describe('createBreakQueue', () => {
  it('answers -1 while empty', () => {
    const queue = createBreakQueue();
    expect(queue.lastInRange(0, 100)).toBe(-1);
    expect(queue.firstInRange(0, 100)).toBe(-1);
  });

  it('finds the last position in [low, high], both ends included', () => {
    const queue = queueOf([2, 5, 9, 14]);
    expect(queue.lastInRange(0, 100)).toBe(14);
    expect(queue.lastInRange(14, 14)).toBe(14);
    expect(queue.lastInRange(15, 100)).toBe(-1);
    expect(queue.lastInRange(5, 9)).toBe(9);
    expect(queue.lastInRange(9, 9)).toBe(9);
    expect(queue.lastInRange(5, 8)).toBe(5);
    expect(queue.lastInRange(5, 5)).toBe(5);
    expect(queue.lastInRange(6, 8)).toBe(-1);
    expect(queue.lastInRange(10, 13)).toBe(-1);
    expect(queue.lastInRange(0, 1)).toBe(-1);
    expect(queue.lastInRange(9, 5)).toBe(-1);
  });

  it('finds the first position in [low, high], both ends included', () => {
    const queue = queueOf([2, 5, 9, 14]);
    expect(queue.firstInRange(0, 100)).toBe(2);
    expect(queue.firstInRange(3, 9)).toBe(5);
    expect(queue.firstInRange(5, 5)).toBe(5);
    expect(queue.firstInRange(6, 8)).toBe(-1);
    expect(queue.firstInRange(10, 14)).toBe(14);
    expect(queue.firstInRange(10, 13)).toBe(-1);
    expect(queue.firstInRange(15, 100)).toBe(-1);
  });

  it('forgets every position at or before the cursor it drops through', () => {
    const queue = queueOf([2, 5, 9, 14]);
    queue.dropThrough(5);
    expect(queue.lastInRange(0, 8)).toBe(-1);
    expect(queue.lastInRange(0, 5)).toBe(-1);
    expect(queue.lastInRange(0, 10)).toBe(9);
    expect(queue.firstInRange(0, 100)).toBe(9);
    queue.dropThrough(14);
    expect(queue.lastInRange(0, 100)).toBe(-1);
    expect(queue.lastInRange(14, 14)).toBe(-1);
    expect(queue.firstInRange(0, 100)).toBe(-1);
    queue.push(20);
    expect(queue.lastInRange(0, 100)).toBe(20);
    expect(queue.firstInRange(0, 100)).toBe(20);
  });

  it('keeps answering exactly over thousands of positions dropped a few at a time', () => {
    const stored = Array.from({ length: 3000 }, (_, index) => index * 3 + 1);
    const queue = queueOf(stored);
    // The stored positions are 1, 4, 7, … 8998.
    const firstAbove = (at: number) => stored.find((position) => position > at) ?? -1;
    const lastUpTo = (at: number) => (at < 1 ? -1 : Math.min(at - ((at - 1) % 3), stored[2999]));
    const answers: number[][] = [];
    const expected: number[][] = [];
    for (let cursor = 0; cursor < 9000; cursor += 7) {
      queue.dropThrough(cursor);
      answers.push([
        queue.firstInRange(0, 1e9),
        queue.lastInRange(0, 1e9),
        queue.lastInRange(0, cursor),
        queue.lastInRange(0, cursor + 5),
        queue.firstInRange(cursor + 2, 1e9),
      ]);
      const near = lastUpTo(cursor + 5);
      expected.push([
        firstAbove(cursor),
        cursor < stored[2999] ? stored[2999] : -1,
        -1,
        near > cursor ? near : -1,
        firstAbove(cursor + 1),
      ]);
    }
    expect(answers).toEqual(expected);
  });
});

describe('dropBreaksThrough', () => {
  it('drops through the cursor in every queue', () => {
    const breaks = createBreakPoints();
    const queues = Object.values(breaks);
    expect(queues).toHaveLength(11);
    for (const queue of queues) {
      queue.push(3);
      queue.push(8);
    }
    dropBreaksThrough(breaks, 3);
    for (const queue of queues) {
      expect(queue.firstInRange(0, 100)).toBe(8);
      expect(queue.lastInRange(0, 7)).toBe(-1);
    }
  });
});
