// Several operator stages run under one subscriber: what channel() uses. Each stage is the
// same logic its own operator runs (`createOperator(stage)`); only the plumbing between them
// differs, and it reproduces what RxJS does between operators (see Inlet).
import { Observable, Subscription, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import type { OperatorHooks, OperatorOutput, OperatorStage } from '../internal/createOperator';

/**
 * Runs `stages` in order as one operator: one subscription to the source, one subscriber, and
 * between stages a plain method call instead of an Observable, a Subscriber and an observer
 * per stage. It behaves as `source.pipe(...stages.map(createOperator))`, event for event and
 * frame for frame (spec/channels/fuseStages.spec.ts, fusedChannel.property.spec.ts):
 *
 * - a stage's `next` / `error` / `complete` reach the next stage's hooks at once, in order;
 * - a throw inside a stage's hook errors that stage's output (the later stages see the error,
 *   the earlier ones are stopped), as createOperator does;
 * - once a stage's output has ended (error, complete), it and every stage before it are
 *   stopped and torn down, and the source is unsubscribed; unsubscribing tears down all.
 *
 * ```
 * fuseStages([a, b, c])  ≡  pipe(createOperator(a), createOperator(b), createOperator(c))
 * ```
 *
 * @example
 * ```ts
 * const telegram = fuseStages([monotonicTextStage(), suppressSilentStage()]);
 * ```
 * @param stages - the stages, first to last (none: the source passes unchanged)
 */
export function fuseStages<T>(
  stages: ReadonlyArray<OperatorStage<T, T>>,
): MonoTypeOperatorFunction<T> {
  if (stages.length === 0) return (source) => source;
  return (source) =>
    new Observable<T>((subscriber) => {
      const chain = new FusedChain<T>(stages, subscriber);
      // A stage that ended its output while being set up never touches the source.
      if (!chain.inlets[0].closed) chain.upstream.add(source.subscribe(chain.inlets[0]));
      return () => chain.tearDown(stages.length - 1);
    });
}

/**
 * What one stage reads from: the source's observer for the first stage, else the output of the
 * stage before (what would be that stage's Subscriber). `closed` is that Subscriber's stopped
 * state; while open, it calls its stage's hooks and turns a throw into an error of the stage's
 * output, exactly like the observer createOperator subscribes with.
 */
class Inlet<T> implements OperatorOutput<T> {
  closed = false;
  hooks!: OperatorHooks<T>;
  // The stage's `next` hook, read once: every stage's hooks object has its own hidden class, so
  // reading `hooks.next` per value would be a megamorphic property load on the hot path.
  nextHook!: OperatorHooks<T>['next'];
  output!: OperatorOutput<T>;

  constructor(
    private readonly chain: FusedChain<T>,
    /** The stage this inlet feeds. */
    private readonly position: number,
  ) {}

  next(value: T): void {
    if (this.closed) return;
    try {
      this.nextHook.call(this.hooks, value);
    } catch (thrown) {
      this.output.error(thrown);
    }
  }

  error(error: unknown): void {
    if (this.closed) return;
    this.chain.stopThrough(this.position);
    try {
      if (this.hooks.error) this.hooks.error(error);
      else this.output.error(error);
    } catch (thrown) {
      this.output.error(thrown);
    }
    this.chain.tearDown(this.position - 1);
  }

  complete(): void {
    if (this.closed) return;
    this.chain.stopThrough(this.position);
    try {
      if (this.hooks.complete) this.hooks.complete();
      else this.output.complete();
    } catch (thrown) {
      this.output.error(thrown);
    }
    this.chain.tearDown(this.position - 1);
  }
}

/** The stages of one subscription, their inlets, and which are torn down. */
class FusedChain<T> {
  /** inlets[k] feeds stage k; stage k's output is inlets[k + 1], the last one the subscriber. */
  readonly inlets: Array<Inlet<T>> = [];
  /** The source subscription. */
  readonly upstream = new Subscription();
  private readonly hooks: Array<OperatorHooks<T>> = [];
  private tornDown = 0; // stages before this one are torn down

  constructor(stages: ReadonlyArray<OperatorStage<T, T>>, subscriber: Subscriber<T>) {
    const count = stages.length;
    for (let position = 0; position < count; position++) {
      this.inlets.push(new Inlet(this, position));
    }
    // Set up from the last stage to the first, as subscribing a pipe does; a stage whose output
    // ended during its setup leaves the stages before it unsubscribed, and the source too.
    for (let position = count - 1; position >= 0; position--) {
      const output = position + 1 < count ? this.inlets[position + 1] : subscriber;
      const hooks = stages[position]({ subscriber: output });
      this.hooks[position] = hooks;
      this.inlets[position].hooks = hooks;
      this.inlets[position].nextHook = hooks.next;
      this.inlets[position].output = output;
      if (output.closed) {
        this.stopThrough(position);
        return;
      }
    }
  }

  /** A Subscriber before inlet `position` stopped: it and every one before it take nothing. */
  stopThrough(position: number): void {
    for (let index = 0; index <= position; index++) this.inlets[index].closed = true;
  }

  /** Unsubscribes the source and tears down stages 0..last (each once, earliest first). */
  tearDown(last: number): void {
    this.stopThrough(last);
    this.upstream.unsubscribe();
    while (this.tornDown <= last) this.hooks[this.tornDown++]?.teardown?.();
  }
}
