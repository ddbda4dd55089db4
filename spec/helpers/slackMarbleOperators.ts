import { Observable } from 'rxjs';
import { createSlackRateLimits } from '../../src/platforms/slack/slackRateLimits';
import type { SlackMethod } from '../../src/platforms/slack/slackWebApi';
import type { MarbleOperatorFactory } from './marbleOperators';

/** One call a `slackRateLimits` marble asks for. */
interface MarbleCall {
  channel: string;
  method: SlackMethod;
}

/**
 * Marble entries for the Slack bot's shared rate limits.
 *
 * slackRateLimits: each source value is a call (`{ channel, method }`) asked for at that frame;
 * the output emits it when the limits let it start. It answers `latencyMs` later
 * (`args.replies["<call number>"].latencyMs` for one call); a reply's `retryAfterMs` is a 429,
 * which holds its method as the transport does. `minIntervalMs`, `tierWindowMs` and `tiers` are
 * the limits' settings. Completes when the source completed and every call answered.
 */
export const slackMarbleOperators: Record<string, MarbleOperatorFactory> = {
  slackRateLimits: ({ latencyMs = 1, replies = {}, ...settings }, scheduler) => {
    const limits = createSlackRateLimits({
      minIntervalMs: settings.minIntervalMs,
      tierWindowMs: settings.tierWindowMs,
      ...(settings.tiers === undefined ? {} : { tiers: settings.tiers }),
      scheduler,
    });
    return (source: Observable<MarbleCall>) =>
      new Observable<MarbleCall>((subscriber) => {
        let asked = 0;
        let open = 0;
        let ended = false;
        const endIfDone = () => {
          if (ended && open === 0) subscriber.complete();
        };
        const subscription = source.subscribe({
          next: (call) => {
            const reply = replies[String(asked++)] ?? {};
            const budget = limits.budgetOf(call.channel, call.method);
            open++;
            budget.whenReady(() => {
              subscriber.next(call);
              scheduler.schedule(() => {
                // As the transport does: the hold first, then the answer that wakes waiters.
                if (reply.retryAfterMs !== undefined) limits.hold(call.method, reply.retryAfterMs);
                budget.answered();
                open--;
                endIfDone();
              }, reply.latencyMs ?? latencyMs);
            });
          },
          error: (error) => subscriber.error(error),
          complete: () => {
            ended = true;
            endIfDone();
          },
        });
        return () => subscription.unsubscribe();
      });
  },
};
