// The flood budgets every transport's calls pass, in virtual time: when a call may start, in
// what order waiting calls go, and what a 429's hold, an abort and a finish change.
import { VirtualTimeScheduler } from 'rxjs';
import { budgetWaitMs, createCallBudget, createCallGate } from '../../src/delivery/callBudget';

describe('createCallGate', () => {
  it('admits `limit` calls, then none while they are in flight', () => {
    const gate = createCallGate(2, 1000);
    expect([gate.limit, gate.windowMs]).toEqual([2, 1000]);
    expect(gate.readyIn(0)).toBe(0);
    gate.take();
    expect(gate.readyIn(0)).toBe(0);
    gate.take();
    expect(gate.readyIn(0)).toBe(Infinity);
  });

  it('counts an answered call until windowMs + 1 ms after its answer', () => {
    const gate = createCallGate(1, 1000);
    gate.take();
    gate.answered(100);
    expect(gate.readyIn(100)).toBe(1001);
    expect(gate.readyIn(600)).toBe(501);
    expect(gate.readyIn(1100)).toBe(1);
    expect(gate.readyIn(1101)).toBe(0);
    // Once it left the window it stays out.
    expect(gate.readyIn(1100)).toBe(0);
  });

  it('keeps only the newest `limit` answers: the oldest of them decides the wait', () => {
    const gate = createCallGate(2, 1000);
    for (const at of [0, 10, 20]) {
      gate.take();
      gate.answered(at);
    }
    expect(gate.readyIn(20)).toBe(991);
  });

  it('holdUntil keeps every call out until then, and never shortens an earlier hold', () => {
    const gate = createCallGate(5, 1000);
    gate.holdUntil(5000);
    expect(gate.readyIn(1200)).toBe(3800);
    gate.holdUntil(10);
    expect(gate.readyIn(1200)).toBe(3800);
    expect(gate.readyIn(5000)).toBe(0);
    // A full gate waits for the later of the hold and the window.
    const full = createCallGate(1, 1000);
    full.take();
    full.answered(0);
    full.holdUntil(300);
    expect(full.readyIn(0)).toBe(1001);
    full.holdUntil(2000);
    expect(full.readyIn(0)).toBe(2000);
  });

  it('a first call waiting goes before the others: they wait until it stops waiting', () => {
    const gate = createCallGate(1, 1000);
    const woken: string[] = [];
    const stop = gate.onAnswer(() => woken.push('look'));
    gate.firstWaiting(1);
    expect(gate.readyIn(0)).toBe(Infinity);
    expect(gate.readyIn(0, true)).toBe(0);
    gate.take();
    gate.answered(0);
    // Full now: a later call waits as a first one would, for the window.
    expect(gate.readyIn(0)).toBe(1001);
    expect(woken).toEqual(['look']);
    gate.firstWaiting(-1);
    expect(woken).toEqual(['look', 'look']);
    expect(gate.readyIn(1001)).toBe(0);
    gate.firstWaiting(1);
    expect(woken).toEqual(['look', 'look']);
    stop();
    gate.take();
    gate.answered(2000);
    gate.firstWaiting(-1);
    expect(woken).toEqual(['look', 'look']);
  });

  it('is idle with nothing in flight, counted or held', () => {
    const gate = createCallGate(2, 1000);
    expect(gate.idle(0)).toBe(true);
    gate.take();
    expect(gate.idle(0)).toBe(false);
    gate.answered(100);
    expect(gate.idle(1100)).toBe(false);
    expect(gate.idle(1101)).toBe(true);
    gate.holdUntil(3000);
    expect(gate.idle(2999)).toBe(false);
    expect(gate.idle(3000)).toBe(true);
  });
});

describe('createCallBudget', () => {
  /** A budget on a virtual clock, and the times at which each call got its turn. */
  function setup(chatLimit = 1, shared: ReturnType<typeof createCallGate>[] = []) {
    const scheduler = new VirtualTimeScheduler();
    const budget = createCallBudget([createCallGate(chatLimit, 1000)], shared, scheduler);
    const turns: Array<[string, number]> = [];
    const ask = (name: string, options?: Parameters<typeof budget.whenReady>[1]) =>
      budget.whenReady(() => {
        turns.push([name, scheduler.now()]);
        // Each call answers at once.
        budget.answered();
      }, options);
    return { scheduler, budget, turns, ask };
  }

  it('gives the turns in the order asked, each one window after the answer before it', () => {
    const { scheduler, budget, turns, ask } = setup();
    expect(budget.idle()).toBe(true);
    expect(budget.readyIn()).toBe(0);
    ask('a');
    ask('b');
    ask('c');
    expect(budget.idle()).toBe(false);
    expect(budget.readyIn()).toBe(1001);
    scheduler.flush();
    expect(turns).toEqual([
      ['a', 0],
      ['b', 1001],
      ['c', 2002],
    ]);
  });

  it('hold(ms): no call of the chat starts for ms', () => {
    const { scheduler, budget, turns, ask } = setup(5);
    budget.hold(700);
    expect(budget.readyIn()).toBe(700);
    ask('a');
    scheduler.flush();
    expect(turns).toEqual([['a', 700]]);
  });

  it('an abort before the turn gives up the place, tells why, and the next waiter goes', () => {
    const { scheduler, turns, ask } = setup();
    const controller = new AbortController();
    const aborted: unknown[] = [];
    ask('a');
    ask('b', { signal: controller.signal, onAbort: (reason) => aborted.push(reason) });
    ask('c');
    controller.abort('stop');
    scheduler.flush();
    expect(aborted).toEqual(['stop']);
    expect(turns).toEqual([
      ['a', 0],
      ['c', 1001],
    ]);
  });

  it('a signal already aborted: no turn, onAbort at once', () => {
    const { scheduler, budget, turns, ask } = setup();
    const controller = new AbortController();
    controller.abort('gone');
    const aborted: unknown[] = [];
    ask('a', { signal: controller.signal, onAbort: (reason) => aborted.push(reason) });
    scheduler.flush();
    expect(aborted).toEqual(['gone']);
    expect(turns).toEqual([]);
    expect(budget.idle()).toBe(true);
  });

  it('a call in flight: the next waits until it answers, then one window', () => {
    const scheduler = new VirtualTimeScheduler();
    const budget = createCallBudget([createCallGate(1, 1000)], [], scheduler);
    const turns: Array<[string, number]> = [];
    budget.whenReady(() => turns.push(['a', scheduler.now()]));
    budget.whenReady(() => turns.push(['b', scheduler.now()]));
    expect(budget.readyIn()).toBe(Infinity);
    scheduler.schedule(() => budget.answered(), 300);
    scheduler.flush();
    expect(turns).toEqual([
      ['a', 0],
      ['b', 1301],
    ]);
  });

  it('a shared gate counts the calls of every budget on it', () => {
    const scheduler = new VirtualTimeScheduler();
    const token = createCallGate(2, 1000);
    const one = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const two = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const turns: Array<[string, number]> = [];
    const ask = (budget: typeof one, name: string, first?: boolean) =>
      budget.whenReady(
        () => {
          turns.push([name, scheduler.now()]);
          budget.answered();
        },
        { first },
      );
    ask(one, 'one-a');
    ask(two, 'two-a');
    ask(one, 'one-b');
    ask(two, 'two-b');
    scheduler.flush();
    expect(turns).toEqual([
      ['one-a', 0],
      ['two-a', 0],
      ['one-b', 1001],
      ['two-b', 1001],
    ]);
    // Its chat gate still counts the call answered at 1001.
    expect(one.idle()).toBe(false);
  });

  it("a conversation's first message goes before another's waiting edit on a shared gate", () => {
    const scheduler = new VirtualTimeScheduler();
    const token = createCallGate(1, 1000);
    const busy = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const fresh = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const turns: Array<[string, number]> = [];
    const ask = (budget: typeof busy, name: string, first?: boolean) =>
      budget.whenReady(
        () => {
          turns.push([name, scheduler.now()]);
          budget.answered();
        },
        { first },
      );
    ask(busy, 'busy-1');
    ask(busy, 'busy-2');
    ask(fresh, 'fresh-first', true);
    scheduler.flush();
    expect(turns).toEqual([
      ['busy-1', 0],
      ['fresh-first', 1001],
      ['busy-2', 2002],
    ]);
  });

  it("a message's finish goes before other chats' waiting edits, after a first message", () => {
    const scheduler = new VirtualTimeScheduler();
    const token = createCallGate(1, 1000);
    const budgetOf = () => createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const [busy, ending, fresh] = [budgetOf(), budgetOf(), budgetOf()];
    const turns: Array<[string, number]> = [];
    const ask = (
      budget: typeof busy,
      name: string,
      options: { first?: boolean; finish?: boolean } = {},
    ) =>
      budget.whenReady(() => {
        turns.push([name, scheduler.now()]);
        budget.answered();
      }, options);
    ask(busy, 'busy-1');
    ask(busy, 'busy-2');
    ask(ending, 'ending-finish', { finish: true });
    ask(fresh, 'fresh-first', { first: true });
    scheduler.flush();
    expect(turns).toEqual([
      ['busy-1', 0],
      ['fresh-first', 1001],
      ['ending-finish', 2002],
      ['busy-2', 3003],
    ]);
  });

  it('a finish waiting goes before the edits on a gate, not before a first message', () => {
    const gate = createCallGate(1, 1000);
    gate.finishWaiting(1);
    expect(gate.readyIn(0)).toBe(Infinity);
    expect(gate.readyIn(0, false, true)).toBe(0);
    expect(gate.readyIn(0, true)).toBe(0);
    gate.firstWaiting(1);
    expect(gate.readyIn(0, false, true)).toBe(Infinity);
    gate.firstWaiting(-1);
    gate.finishWaiting(-1);
    expect(gate.readyIn(0)).toBe(0);
  });

  it('without shared gates: its chat gates only', () => {
    const scheduler = new VirtualTimeScheduler();
    const budget = createCallBudget([createCallGate(1, 1000)], undefined, scheduler);
    const turns: number[] = [];
    budget.whenReady(() => (turns.push(scheduler.now()), budget.answered()));
    budget.whenReady(() => (turns.push(scheduler.now()), budget.answered()));
    scheduler.flush();
    expect(turns).toEqual([0, 1001]);
  });

  it('a call that never answers: the next waits, and no timer runs meanwhile', () => {
    const scheduler = new VirtualTimeScheduler();
    const budget = createCallBudget([createCallGate(1, 1000)], [], scheduler);
    const turns: string[] = [];
    budget.whenReady(() => turns.push('a'));
    budget.whenReady(() => turns.push('b'));
    scheduler.flush();
    expect(turns).toEqual(['a']);
    expect(scheduler.now()).toBe(0);
  });

  it('an abort after the turn changes nothing: no onAbort, the next waiter keeps its place', () => {
    const { scheduler, turns, ask } = setup();
    const controller = new AbortController();
    const aborted: unknown[] = [];
    ask('a', { signal: controller.signal, onAbort: (reason) => aborted.push(reason) });
    ask('b');
    ask('c');
    controller.abort('late');
    scheduler.flush();
    expect(aborted).toEqual([]);
    expect(turns).toEqual([
      ['a', 0],
      ['b', 1001],
      ['c', 2002],
    ]);
  });

  it('is not idle while a call waits on a shared gate, nor while one of its chat gates counts a call', () => {
    const scheduler = new VirtualTimeScheduler();
    const token = createCallGate(1, 1000);
    const other = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const budget = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    other.whenReady(() => undefined);
    budget.whenReady(() => undefined);
    expect(budget.idle()).toBe(false);

    const busy = createCallGate(1, 1000);
    const two = createCallBudget([createCallGate(5, 1000), busy], [], scheduler);
    busy.take();
    expect(two.idle()).toBe(false);
  });

  it('calls of one budget go in the order asked, a first call behind a call asked before it', () => {
    const scheduler = new VirtualTimeScheduler();
    const token = createCallGate(1, 1000);
    const other = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const budget = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const turns: Array<[string, number]> = [];
    other.whenReady(() => turns.push(['other', scheduler.now()]));
    budget.whenReady(() => (turns.push(['edit', scheduler.now()]), budget.answered()));
    budget.whenReady(() => (turns.push(['first', scheduler.now()]), budget.answered()), {
      first: true,
    });
    scheduler.schedule(() => other.answered(), 100);
    scheduler.flush();
    expect(turns).toEqual([
      ['other', 0],
      ['edit', 1101],
      ['first', 2102],
    ]);
  });

  it("a first call whose own chat cannot go claims nothing: another budget's call goes", () => {
    for (const blocked of ['held', 'one gate full'] as const) {
      const scheduler = new VirtualTimeScheduler();
      const token = createCallGate(1, 1000);
      const full = createCallGate(1, 1000);
      const fresh = createCallBudget([createCallGate(5, 1000), full], [token], scheduler);
      const busy = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
      if (blocked === 'held') fresh.hold(5000);
      else full.take();
      const turns: Array<[string, number]> = [];
      fresh.whenReady(() => turns.push(['fresh', scheduler.now()]), { first: true });
      busy.whenReady(() => (turns.push(['busy', scheduler.now()]), busy.answered()));
      scheduler.flush();
      expect(turns[0]).toEqual(['busy', 0]);
    }
  });

  it("readyIn: a budget's next call waits while another's first call claims the shared gate", () => {
    const scheduler = new VirtualTimeScheduler();
    const token = createCallGate(1, 1000);
    const fresh = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    const busy = createCallBudget([createCallGate(5, 1000)], [token], scheduler);
    token.holdUntil(500);
    expect(busy.readyIn()).toBe(500);
    fresh.whenReady(() => undefined, { first: true });
    expect(busy.readyIn()).toBe(Infinity);
  });

  it('run: waits its turn, resolves with the call, counts the answer even when the call fails', async () => {
    const scheduler = new VirtualTimeScheduler();
    const budget = createCallBudget([createCallGate(1, 1000)], [], scheduler);
    await expect(budget.run(async () => 'first')).resolves.toBe('first');
    expect(budget.readyIn()).toBe(1001);
    const failing = budget.run(async () => {
      throw new Error('500');
    });
    scheduler.flush();
    await expect(failing).rejects.toThrow('500');
    expect(budget.readyIn()).toBe(1001);
    const controller = new AbortController();
    const stopped = budget.run(async () => 'never', controller.signal);
    controller.abort('stopped');
    await expect(stopped).rejects.toBe('stopped');
  });
});

describe('budgetWaitMs', () => {
  const budget = { readyIn: () => 250 };
  it("an edit waits what the budget says; a send (it waits in the budget), a finish and no budget don't", () => {
    expect(budgetWaitMs('send', budget)).toBe(0);
    expect(budgetWaitMs('edit', budget)).toBe(250);
    expect(budgetWaitMs(undefined, budget)).toBe(250);
    expect(budgetWaitMs('finish', budget)).toBe(0);
    expect(budgetWaitMs('send', undefined)).toBe(0);
  });
});
