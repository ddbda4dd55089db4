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
  testScheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
    const source =
      spec.source !== undefined
        ? cold(spec.source, spec.values, error)
        : hot(spec.hot!, spec.values, error);
    const operator = factory(spec.args, testScheduler, {
      cold: (marbles) => cold(marbles, spec.values, error),
      expectSubscriptions: (observable, marbles) =>
        // Only cold() Observables carry a subscription log.
        expectSubscriptions((observable as any).subscriptions).toBe(marbles),
    });
    expectObservable(source.pipe(operator), spec.unsub).toBe(spec.expected, spec.values, error);
    if (spec.subs !== undefined) expectSubscriptions(source.subscriptions).toBe(spec.subs);
  });
  // Nothing the operator scheduled may outlive the test: every timer ran or was cancelled.
  expect(testScheduler.actions.filter((action) => !action.closed)).toEqual([]);
}
