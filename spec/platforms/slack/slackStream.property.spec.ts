import fc from 'fast-check';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { slackTransport } from '../../../src/platforms/slack/slackTransport';
import {
  callInOrder,
  startFakeSlackApi,
  type FakeSlackApi,
} from '../../helpers/slack/fakeSlackApi';
import { expectFencedRotations } from '../../helpers/slack/fenceLines';

const token = 'xoxb-PROPERTY-SECRET';
const RUNS = Number(process.env.RUNS ?? 30);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const channels = Array.from({ length: RUNS }, (_, i) => `C${i}`);

// One fake for all runs; each run streams in a channel of its own, with its own faults (by
// request number, counted from the run's first request).
let api: FakeSlackApi;
let run = { firstRequest: 0, faults: new Map<number, 'rate-limit' | 'server-error'>() };

beforeAll(async () => {
  api = await startFakeSlackApi({
    token,
    channels,
    minIntervalMs: 0,
    streamLifetimeMs: 60000,
    tierWindowMs: 20,
    fault: (n) => run.faults.get(n - run.firstRequest),
    forcedRetryAfterSeconds: 0.002,
  });
});
afterAll(() => api.close());

const piece = fc.oneof(
  { weight: 5, arbitrary: fc.stringMatching(/^[a-z ]{1,9}$/) },
  fc.constantFrom('**bold** ', '`code` ', '\n\n', '🙂', 'é', '```ts\nx\n```\n'),
  // Long pieces, so a message passes 12,000 characters and its stream is continued.
  fc
    .tuple(fc.constantFrom('ab ', '🙂'), fc.integer({ min: 500, max: 4000 }))
    .map(([s, n]) => s.repeat(n)),
);

describe('slackTransport streams (property)', () => {
  it('every stream holds exactly its share (and the fence lines of a rotation inside a code block): joined, the messages are the final texts; one stop each, ≤ 12,000 characters', async () => {
    let runIndex = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(piece, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 4 }),
        async (messages, rotateFast, faultAt) => {
          // Shrinking runs more often than RUNS: a channel is emptied before it is used again.
          const channel = channels[runIndex++ % RUNS];
          api.channels.set(channel, []);
          run = {
            firstRequest: api.counts.requests,
            faults: new Map(faultAt.map((n, i) => [n, i % 2 ? 'server-error' : 'rate-limit'])),
          };
          const edits: MessageEdit[] = messages.flatMap((pieces, message) =>
            pieces.map((_, i) => ({
              op: i === 0 ? 'send' : 'edit',
              message,
              text: pieces.slice(0, i + 1).join(''),
            })),
          );
          const slack = slackTransport({
            token,
            channel,
            threadTs: '1.2',
            recipientUserId: 'U1',
            recipientTeamId: 'T1',
            apiBase: api.apiBase,
            maxStreamMs: rotateFast ? 1 : 240000,
          });
          await callInOrder(slack, edits);
          const held = api.channels.get(channel)!;
          // Joined, less the fence lines added where a message rotates inside a code block.
          expectFencedRotations(
            held,
            messages.map((p) => p.join('')),
          );
          for (const message of held) {
            expect([message.stream, message.stops]).toEqual(['stopped', 1]);
            expect(message.chunks!.join('')).toBe(message.text);
            expect(message.text.length).toBeLessThanOrEqual(12000);
            expect(message.text).not.toMatch(LONE_SURROGATE);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('slackTransport against a stream byte cap (property)', () => {
  // Slack ends a stream near 11 KB of UTF-8: here at 11,000 bytes, refused each way.
  const capped: Record<string, FakeSlackApi> = {};
  beforeAll(async () => {
    for (const answer of ['msg_too_long', 'message_not_in_streaming_state'] as const)
      capped[answer] = await startFakeSlackApi({
        token,
        channels,
        minIntervalMs: 0,
        tierWindowMs: 20,
        streamByteCap: 11000,
        streamCapAnswer: answer,
        maxRequests: 100_000,
      });
  });
  afterAll(async () => {
    for (const fake of Object.values(capped)) await fake.close();
  });

  it('whatever the cap answers, the messages joined are the final texts; the default budget never meets the cap', async () => {
    let runIndex = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(piece, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('msg_too_long', 'message_not_in_streaming_state'),
        fc.constantFrom(undefined, 48000),
        async (messages, answer, maxStreamBytes) => {
          const fake = capped[answer];
          const channel = channels[runIndex++ % RUNS];
          fake.channels.set(channel, []);
          const rejectedBefore = fake.rejected.length;
          const requestsBefore = fake.counts.requests;
          const edits: MessageEdit[] = messages.flatMap((pieces, message) =>
            pieces.map((_, i) => ({
              op: i === 0 ? 'send' : 'edit',
              message,
              text: pieces.slice(0, i + 1).join(''),
            })),
          );
          const slack = slackTransport({
            token,
            channel,
            threadTs: '1.2',
            recipientUserId: 'U1',
            recipientTeamId: 'T1',
            apiBase: fake.apiBase,
            ...(maxStreamBytes === undefined ? {} : { maxStreamBytes }),
          });
          await callInOrder(slack, edits);
          // A refused request teaches the budget; it never shrinks to a trickle of requests.
          const total = Buffer.byteLength(messages.map((p) => p.join('')).join(''));
          expect(fake.counts.requests - requestsBefore).toBeLessThanOrEqual(
            4 * edits.length + 4 * Math.ceil(total / 4000) + 8,
          );
          const held = fake.channels.get(channel)!;
          expectFencedRotations(
            held,
            messages.map((p) => p.join('')),
          );
          const limit = maxStreamBytes === undefined ? 9000 : 11000;
          for (const message of held) {
            expect(Buffer.byteLength(message.text)).toBeLessThanOrEqual(limit);
            expect(message.text).not.toMatch(LONE_SURROGATE);
          }
          if (maxStreamBytes === undefined) expect(fake.rejected.slice(rejectedBefore)).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
