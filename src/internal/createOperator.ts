import { Observable, Subscription, type OperatorFunction, type Subscriber } from 'rxjs';

/** What an operator does with each notification of its source; every hook may throw safely. */
export interface OperatorHooks<In> {
  next(value: In): void;
  /** Default: pass the error on. */
  error?(error: unknown): void;
  /** Default: complete. */
  complete?(): void;
  /** Runs once on unsubscribe, completion or error: cancel timers, drop what is held. */
  teardown?(): void;
}

/** Handed to an operator's setup: where to emit, and how to let go of the source early. */
export interface OperatorContext<Out> {
  subscriber: Subscriber<Out>;
  /** Unsubscribes from the source (e.g. after a terminal or a timeout); safe to call twice. */
  unsubscribeSource(): void;
}

/**
 * Where an operator's logic sends what it emits: what it uses of an RxJS Subscriber. A fused
 * pipeline (`fuseStages`) hands the next stage's inlet here instead of a Subscriber.
 */
export interface OperatorOutput<Out> {
  readonly closed: boolean;
  next(value: Out): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * An operator's logic without its RxJS shell: per subscription, the hooks for one output.
 * `createOperator(stage)` is the operator; `fuseStages` runs several under one subscriber.
 */
export type OperatorStage<In, Out> = (context: {
  subscriber: OperatorOutput<Out>;
}) => OperatorHooks<In>;

/**
 * The one way llm-rx operators are written: `(source) => new Observable(subscriber => …)`.
 * A throw inside a hook goes to `subscriber.error`; in RxJS 7 a throw inside a plain observer's
 * `next` is reported to `onUnhandledError` and the value is silently lost.
 */
export function createOperator<In, Out>(
  setup: (context: OperatorContext<Out>) => OperatorHooks<In>,
): OperatorFunction<In, Out> {
  return (source) =>
    new Observable<Out>((subscriber) => {
      const upstream = new Subscription();
      const hooks = setup({ subscriber, unsubscribeSource: () => upstream.unsubscribe() });
      // A setup that already ended the output (e.g. an aborted signal) never touches the source.
      if (subscriber.closed) return () => hooks.teardown?.();
      // One try/catch per hook rather than a shared `guard(() => …)`: that would allocate a
      // closure for every notification, and `next` runs once per token.
      const isOpen = () => !subscriber.closed && !upstream.closed;
      upstream.add(
        source.subscribe({
          next(value) {
            if (!isOpen()) return;
            try {
              hooks.next(value);
            } catch (thrown) {
              subscriber.error(thrown);
            }
          },
          error(error) {
            if (!isOpen()) return;
            try {
              if (hooks.error) hooks.error(error);
              else subscriber.error(error);
            } catch (thrown) {
              subscriber.error(thrown);
            }
          },
          complete() {
            if (!isOpen()) return;
            try {
              if (hooks.complete) hooks.complete();
              else subscriber.complete();
            } catch (thrown) {
              subscriber.error(thrown);
            }
          },
        }),
      );
      return () => {
        upstream.unsubscribe();
        hooks.teardown?.();
      };
    });
}
