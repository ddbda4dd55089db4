import { finalize, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { LlmRxError, type ErrorCode } from '../../src/errors';
import type { MarbleSpec } from './marbleFile';
import { marbleOperators } from './marbleOperators';

/** Runs one marble spec under TestScheduler.run (1 frame = 1 ms). */
export function runMarbleSpec(spec: MarbleSpec): void {
  const factory = marbleOperators[spec.operator];
  if (!factory) {
    throw new Error(
      `${spec.path}: unknown operator "${spec.operator}" (known: ${Object.keys(marbleOperators).join(', ')})`,
    );
  }
  const error = spec.error && new LlmRxError(spec.error.code as ErrorCode, spec.error.message);
  const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  // Timers that fire after the output ended (unsubscribed, completed or errored) were leaked:
  // the operator's teardown should have cancelled them.
  let outputEndedAt: number | undefined;
  const lateTimers: number[] = [];
  const watched = watchedScheduler(testScheduler, () => {
    if (outputEndedAt !== undefined && testScheduler.now() > outputEndedAt) {
      lateTimers.push(testScheduler.now());
    }
  });
  testScheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
    const source =
      spec.source !== undefined
        ? cold(spec.source, spec.values, error)
        : hot(spec.hot!, spec.values, error);
    const operator = factory(spec.args, watched, {
      cold: (marbles) => cold(marbles, spec.values, error),
      expectSubscriptions: (observable, marbles) =>
        // Only cold() Observables carry a subscription log.
        expectSubscriptions((observable as any).subscriptions).toBe(marbles),
      expectObservable: (observable, marbles) =>
        expectObservable(observable).toBe(marbles, spec.values, error),
    });
    const output = source.pipe(
      operator,
      finalize(() => (outputEndedAt ??= testScheduler.now())),
    );
    expectObservable(output, spec.unsub).toBe(spec.expected, spec.values, error);
    if (spec.subs !== undefined) expectSubscriptions(source.subscriptions).toBe(spec.subs);
  });
  // Nothing the operator scheduled may outlive the test: every timer ran or was cancelled.
  expect(testScheduler.actions.filter((action) => !action.closed)).toEqual([]);
  expect({ timersFiredAfterTeardown: lateTimers }).toEqual({ timersFiredAfterTeardown: [] });
}

/** The test scheduler, calling `onFire` before each scheduled piece of work runs. */
function watchedScheduler(scheduler: TestScheduler, onFire: () => void): TestScheduler {
  const schedule: SchedulerLike['schedule'] = <T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay?: number,
    state?: T,
  ) =>
    scheduler.schedule<T>(
      function (this: SchedulerAction<T>, innerState?: T) {
        onFire();
        work.call(this, innerState);
      },
      delay,
      state,
    );
  return Object.assign(Object.create(scheduler) as TestScheduler, { schedule });
}
