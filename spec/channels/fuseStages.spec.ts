import fc from 'fast-check';
import type { MonoTypeOperatorFunction, SchedulerLike, Subscription } from 'rxjs';
import { ColdObservable } from 'rxjs/internal/testing/ColdObservable';
import type { TestMessage } from 'rxjs/internal/testing/TestMessage';
import { TestScheduler } from 'rxjs/testing';
import { fuseStages } from '../../src/channels/fusedChannel';
import { createOperator, type OperatorStage } from '../../src/internal/createOperator';

// fuseStages must behave as piping createOperator(stage) for every stage, also on the paths the
// channel stages rarely take: a hook that throws, a stage that ends its output early (complete
// or error), timers, and the order in which stages are torn down.

type Log = unknown[];
type StageMaker = (
  scheduler: SchedulerLike,
  log: Log,
  position: number,
) => OperatorStage<number, number>;

const stageMakers: Record<string, StageMaker> = {
  addOne:
    () =>
    ({ subscriber }) => ({ next: (value) => subscriber.next(value + 1) }),
  throwsOnThree:
    () =>
    ({ subscriber }) => ({
      next(value) {
        if (value === 3) throw new Error('three');
        subscriber.next(value);
      },
    }),
  completesAfterFive:
    () =>
    ({ subscriber }) => ({
      next(value) {
        subscriber.next(value);
        if (value === 5) subscriber.complete();
      },
    }),
  errorsOnSeven:
    () =>
    ({ subscriber }) => ({
      next(value) {
        if (value === 7) subscriber.error('seven');
        else subscriber.next(value);
      },
    }),
  // Completes 2 frames after its source did (a stage that still works after its input ended).
  completesLater:
    (scheduler) =>
    ({ subscriber }) => {
      let timer: Subscription | undefined;
      return {
        next: (value) => subscriber.next(value * 2),
        complete() {
          timer = scheduler.schedule(() => subscriber.complete(), 2);
        },
        teardown: () => timer?.unsubscribe(),
      };
    },
  // Emits each value twice, the second time after 3 frames; flushes what waits at the end.
  echoLater:
    (scheduler, log, position) =>
    ({ subscriber }) => {
      const timers = new Set<Subscription>();
      const pending: number[] = [];
      const flush = () => {
        timers.forEach((timer) => timer.unsubscribe());
        timers.clear();
        pending.splice(0).forEach((value) => subscriber.next(value));
      };
      return {
        next(value) {
          subscriber.next(value);
          pending.push(value);
          const timer = scheduler.schedule(() => {
            timers.delete(timer);
            const index = pending.indexOf(value);
            if (index >= 0) subscriber.next(pending.splice(index, 1)[0]);
          }, 3);
          timers.add(timer);
        },
        complete() {
          flush();
          subscriber.complete();
        },
        error(error) {
          flush();
          subscriber.error(error);
        },
        teardown() {
          log.push(['teardown', position, scheduler.now()]);
          timers.forEach((timer) => timer.unsubscribe());
        },
      };
    },
  // Holds the sum, sends it at completion or error, and logs its teardown.
  sumAtEnd:
    (scheduler, log, position) =>
    ({ subscriber }) => {
      let sum = 0;
      return {
        next(value) {
          sum += value;
        },
        complete() {
          subscriber.next(sum);
          subscriber.complete();
        },
        error(error) {
          subscriber.next(sum);
          subscriber.error(error);
        },
        teardown() {
          log.push(['teardown', position, scheduler.now()]);
        },
      };
    },
};

const scenarioArbitrary = fc.record({
  stages: fc.array(fc.constantFrom(...Object.keys(stageMakers)), { minLength: 1, maxLength: 5 }),
  steps: fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 9 })), {
    maxLength: 12,
  }),
  ending: fc.constantFrom('complete', 'error', 'none'),
  unsubscribeAt: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
});
type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer S> ? S : never;

function run(
  scenario: Scenario,
  build: (stages: Array<OperatorStage<number, number>>) => MonoTypeOperatorFunction<number>,
) {
  const scheduler = new TestScheduler(() => undefined);
  const log: Log = [];
  let subscriptions: unknown;
  scheduler.run(() => {
    const messages: TestMessage[] = [];
    let frame = 0;
    for (const [gap, value] of scenario.steps) {
      frame += gap;
      messages.push({ frame, notification: { kind: 'N', value } });
    }
    if (scenario.ending === 'complete')
      messages.push({ frame: frame + 1, notification: { kind: 'C' } });
    if (scenario.ending === 'error') {
      messages.push({ frame: frame + 1, notification: { kind: 'E', error: 'source' } });
    }
    const source = new ColdObservable<number>(messages, scheduler);
    const stages = scenario.stages.map((name, position) =>
      stageMakers[name](scheduler, log, position),
    );
    const subscription = source.pipe(build(stages)).subscribe({
      next: (value) => log.push([scheduler.now(), 'next', value]),
      error: (error) =>
        log.push([scheduler.now(), 'error', error instanceof Error ? error.message : error]),
      complete: () => log.push([scheduler.now(), 'complete']),
    });
    if (scenario.unsubscribeAt !== undefined) {
      scheduler.schedule(() => subscription.unsubscribe(), scenario.unsubscribeAt);
    }
    subscriptions = source.subscriptions;
  });
  return { log, subscriptions };
}

describe('fuseStages', () => {
  it('≡ piping createOperator(stage) for each stage: notifications, frames, teardowns', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const fused = run(scenario, (stages) => fuseStages(stages));
        const composed = run(
          scenario,
          (stages) => (source) =>
            stages.reduce((piped, stage) => piped.pipe(createOperator(stage)), source),
        );
        expect(fused).toEqual(composed);
      }),
      { numRuns: 1000, seed: 20261202 },
    );
  });

  it('a hook that throws errors its stage output; later stages still flush', () => {
    const scenario: Scenario = {
      stages: ['sumAtEnd', 'throwsOnThree', 'sumAtEnd'],
      steps: [
        [0, 1],
        [1, 2],
      ],
      ending: 'complete',
      unsubscribeAt: undefined,
    };
    // 1 + 2 = 3 reaches throwsOnThree at completion: the last stage sends its sum (0), then the
    // error; the stages are torn down after the error went out, earliest first.
    const expected = [
      [2, 'next', 0],
      [2, 'error', 'three'],
      ['teardown', 0, 2],
      ['teardown', 2, 2],
    ];
    expect(run(scenario, (stages) => fuseStages(stages)).log).toEqual(expected);
    const composed = run(
      scenario,
      (stages) => (source) =>
        stages.reduce((piped, stage) => piped.pipe(createOperator(stage)), source),
    );
    expect(composed.log).toEqual(expected);
  });
});
