// Slack's Web API rate limits as call budgets: per method for the whole workspace (one bot
// token), and per channel. Used by createSlackBot, whose transports all share one of these.
import type { SchedulerLike } from 'rxjs';
import {
  createCallBudget,
  createCallGate,
  type CallBudget,
  type CallGate,
} from '../../delivery/callBudget';
import { DeliveryError } from '../../delivery/errors';
import type { SlackCall, SlackMethod } from './slackWebApi';

/**
 * Calls per minute each method the transport calls may make in one workspace, the floor of
 * its tier (docs.slack.dev/apis/web-api/rate-limits: "Tier 2 20+ per minute", "Tier 3 50+",
 * "Tier 4 100+", limits "per API method per workspace/team per app"). From the method pages:
 * `chat.appendStream` Tier 4, `chat.stopStream` Tier 2, `chat.update` and `chat.delete` Tier 3.
 * `chat.startStream`: its page as searched for this table named no tier; Tier 2 is taken, the
 * one of its sibling `chat.stopStream` (a stream starts and stops once each). `chat.postMessage`
 * has a "special" limit instead of a tier: "1 message per second per channel" with short bursts,
 * "while also maintaining a workspace-wide limit" that the docs give no figure for; the channel
 * budget paces it, and nothing more. (`assistant.threads.setStatus` is not called.)
 */
export const SLACK_METHOD_TIERS: Readonly<Partial<Record<SlackMethod, number>>> = {
  'chat.startStream': 20,
  'chat.stopStream': 20,
  'chat.update': 50,
  'chat.delete': 50,
  'chat.appendStream': 100,
};

/** Settings of {@link createSlackRateLimits}. */
export interface SlackRateLimitSettings {
  /** Least time between two calls to one channel, from the previous call's answer. */
  minIntervalMs: number;
  /** The window a tier counts calls in (Slack: a minute; scaled in specs). */
  tierWindowMs: number;
  /** Calls per `tierWindowMs`, by method. @defaultValue {@link SLACK_METHOD_TIERS} */
  tiers?: Partial<Record<SlackMethod, number>>;
  scheduler: SchedulerLike;
}

/** The rate limits one bot token's transports share (see {@link createSlackRateLimits}). */
export interface SlackRateLimits {
  /** The budget a call of `method` in `channel` passes: the channel's gate and the method's. */
  budgetOf(channel: string, method: SlackMethod): CallBudget;
  /** A 429 on `method`: no call of it starts, in any channel, for `ms`. */
  hold(method: SlackMethod, ms: number): void;
  /** Milliseconds until a call to `channel` could start (what `deliver` waits before a text). */
  readyIn(channel: string): number;
}

/** Channels whose budgets are kept before idle ones are forgotten. */
const KEPT_CHANNELS = 1024;

/**
 * One bot token's Slack rate limits: a gate per method (its tier, per `tierWindowMs`, for every
 * channel together, as Slack counts per method per workspace) and a gate per channel (one call
 * per `minIntervalMs`, every method together: chat.postMessage's "1 per second per channel",
 * which the transport keeps for every call of a channel). Each call counts from its start until
 * a window after its answer, so Slack, which sees it in between, never counts one too many.
 *
 * ```
 * tier of chat.startStream 2 per 10 ms, answers after 1 ms:
 * calls:  (abc)           a, b, c in three channels at once
 * starts: (ab) 8ms c      c waits until a window after a's answer
 * ```
 * (marbles/slack-rate-limits/*.marble)
 *
 * @param settings - {@link SlackRateLimitSettings}
 */
export function createSlackRateLimits(settings: SlackRateLimitSettings): SlackRateLimits {
  const { minIntervalMs, tierWindowMs, scheduler, tiers = SLACK_METHOD_TIERS } = settings;
  const methodGates = new Map<SlackMethod, CallGate[]>();
  const gatesOf = (method: SlackMethod) => {
    let gates = methodGates.get(method);
    if (!gates) {
      const limit = tiers[method];
      gates = limit === undefined ? [] : [createCallGate(limit, tierWindowMs)];
      methodGates.set(method, gates);
    }
    return gates;
  };
  interface Channel {
    gate: CallGate;
    budgets: Map<SlackMethod, CallBudget>;
  }
  const channels = new Map<string, Channel>();
  const channelOf = (channel: string): Channel => {
    let known = channels.get(channel);
    if (known) return known;
    // A long-lived bot meets many channels: those whose budgets hold nothing are forgotten.
    if (channels.size >= KEPT_CHANNELS)
      for (const [id, { budgets }] of channels)
        if ([...budgets.values()].every((budget) => budget.idle())) channels.delete(id);
    known = { gate: createCallGate(1, minIntervalMs), budgets: new Map() };
    channels.set(channel, known);
    return known;
  };

  return {
    budgetOf(channel, method) {
      const { gate, budgets } = channelOf(channel);
      let budget = budgets.get(method);
      if (!budget) {
        budget = createCallBudget([gate], gatesOf(method), scheduler);
        budgets.set(method, budget);
      }
      return budget;
    },
    hold(method, ms) {
      const until = scheduler.now() + ms;
      for (const gate of gatesOf(method)) gate.holdUntil(until);
    },
    readyIn(channel) {
      return channelOf(channel).gate.readyIn(scheduler.now());
    },
  };
}

/**
 * `call` through `limits`: each call waits until its channel and its method may take it; a
 * 429 (`ratelimited` with `Retry-After`) holds its method in every channel for that long.
 */
export function limitedCall(limits: SlackRateLimits, channel: string, call: SlackCall): SlackCall {
  const holdOn429 = (method: SlackMethod) => (error: unknown) => {
    const { status, retryAfterMs } = error instanceof DeliveryError ? error : {};
    if (status === 429 && retryAfterMs !== undefined) limits.hold(method, retryAfterMs);
    throw error;
  };
  return (method, payload, signal) =>
    // Held before the budget counts the answer: counting it wakes the method's next waiter.
    limits
      .budgetOf(channel, method)
      .run(() => call(method, payload, signal).catch(holdOn429(method)), signal);
}
