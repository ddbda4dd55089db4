// Issue 37: a Slack stream continued in a new streamed message inside a fenced code block
// closes the block in the part it stops and reopens it, with the same opening line, in the next
// (DESIGN §13: a code block is never split without closing and reopening it). Each spec asserts
// the exact markdown_text of every request the fake received.
import { asyncScheduler } from 'rxjs';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import type { DeliveryWarning } from '../../../src/delivery/types';
import {
  slackTransport,
  type SlackTransportOptions,
} from '../../../src/platforms/slack/slackTransport';
import {
  callInOrder,
  startFakeSlackApi,
  type FakeSlackApi,
} from '../../helpers/slack/fakeSlackApi';
import { expectFencedRotations } from '../../helpers/slack/fenceLines';
import { transportCall } from '../../helpers/transportCall';

const token = 'xoxb-SECRET-fence-token';
const channel = 'C0FENCE';
const threadTs = '1699999999.000001';
const recipients = { recipientUserId: 'U0USER', recipientTeamId: 'T0TEAM' };
const edit = (message: number, text: string): MessageEdit => ({ op: 'edit', message, text });
const bytes = (text: string) => Buffer.byteLength(text);

const GO = 'Intro.\n\n```go\nfmt.Println(1)\nfmt.Println(2)\nfmt.Println(3)\n```\n\nDone.';

describe('slackTransport rotating a stream inside a fenced code block (issue 37)', () => {
  let api: FakeSlackApi;
  afterEach(() => api?.close());
  const start = async (options: Partial<Parameters<typeof startFakeSlackApi>[0]> = {}) => {
    api = await startFakeSlackApi({ token, channels: [channel], minIntervalMs: 0, ...options });
  };
  const transport = (options: Partial<SlackTransportOptions> = {}) =>
    slackTransport({ token, channel, threadTs, ...recipients, apiBase: api.apiBase, ...options });
  const held = () => api.channels.get(channel) ?? [];
  /** The markdown_text of each request, per Slack message (start, appends, stop). */
  const requests = () => held().map((m) => m.chunks);
  /** One text delivered whole (one send, then finish) with a stream byte budget. */
  const deliverWhole = async (text: string, maxStreamBytes = 40) => {
    const warnings: DeliveryWarning[] = [];
    await callInOrder(transport({ maxStreamBytes }), [edit(0, text)], warnings);
    return warnings.map((w) => w.code);
  };
  /**
   * `first` sent, then, once the stream is `maxStreamMs` (30) old on the transport's clock,
   * `text` as an edit and the finish; returns the call's warnings.
   */
  const deliverAged = async (first: string, text: string) => {
    await start({ streamLifetimeMs: 5000 });
    let clock = 0;
    const scheduler = { now: () => clock, schedule: asyncScheduler.schedule.bind(asyncScheduler) };
    const slack = transport({ maxStreamMs: 30, scheduler });
    const call = transportCall();
    let ref = await slack.send(edit(0, first), call);
    clock = 30;
    ref = await slack.edit(ref, edit(0, text), call);
    await slack.finish(ref, edit(0, text), call);
    return call.warnings.map((w) => w.code);
  };

  it('a ``` block with a language: the part closes it after a line of code, the next reopens it with ```go', async () => {
    await start();
    const warnings = await deliverWhole(GO);
    expect(requests()).toEqual([
      ['Intro.\n\n```go\nfmt.Println(1)\n', '```'],
      ['```go\nfmt.Println(2)\nfmt.Println(3)\n```\n', ''],
      ['\nDone.', ''],
    ]);
    expect(held().map((m) => bytes(m.text))).toEqual([32, 40, 6]);
    expect(warnings).toEqual(['slack-stream-rotated', 'slack-stream-rotated']);
    expect(held().map((m) => [m.stream, m.stops])).toEqual([
      ['stopped', 1],
      ['stopped', 1],
      ['stopped', 1],
    ]);
    expectFencedRotations(held(), [GO]);
  });

  it('a ```` block with a language (holding a ``` block) is reopened with ````markdown; its own closer ends no part early', async () => {
    await start();
    const text = 'See:\n\n````markdown\n```js\nlet a = 1;\n```\nmore text here\n````\nEnd.';
    await deliverWhole(text);
    expect(requests()).toEqual([
      ['See:\n\n````markdown\n```js\nlet a = 1;\n', '````'],
      // The inner ``` line is code of the ```` block; the part ends after the block, where
      // no closer is added (the cut outside a block is the same as before: mid-word here).
      ['````markdown\n```\nmore text here\n````\n', 'End'],
      ['.', ''],
    ]);
    const [read] = expectFencedRotations(held(), [text]);
    expect(read.points.map((p) => [p.inside, p.closed, p.opened])).toEqual([
      [true, true, true],
      [false, false, false],
    ]);
  });

  it('a ~~~ block is closed with ~~~ and reopened with ~~~python', async () => {
    await start();
    const text = '~~~python\nprint("a")\nprint("b")\nprint("c")\n~~~\nok';
    await deliverWhole(text);
    expect(requests()).toEqual([
      ['~~~python\nprint("a")\nprint("b")\n', '~~~'],
      ['~~~python\nprint("c")\n~~~\nok', ''],
    ]);
    expectFencedRotations(held(), [text]);
  });

  it('a rotation outside any block adds nothing: the requests of before', async () => {
    await start();
    const text = 'One line of prose.\nTwo lines of prose.\nThree lines, the end.';
    await deliverWhole(text);
    expect(requests()).toEqual([
      ['One line of prose.\nTwo lines of prose.\n', 'T'],
      ['hree lines, the end.', ''],
    ]);
    expect(
      held()
        .map((m) => m.text)
        .join(''),
    ).toBe(text);
  });

  it('UTF-8 in the block: the budget counts the bytes of the code, the opening and the closer', async () => {
    await start();
    const text = '```text\ncafé ☕ naïve\n🙂🙂🙂🙂 ok\nß\n```\nfin';
    await deliverWhole(text);
    expect(requests()).toEqual([
      ['```text\ncafé ☕ naïve\n', '```'],
      ['```text\n🙂🙂🙂🙂 ok\nß\n```\nfin', ''],
    ]);
    // 28 and 38 bytes: the next code line (20 bytes) and the closer would pass 40.
    expect(held().map((m) => bytes(m.text))).toEqual([28, 38]);
    expectFencedRotations(held(), [text]);
  });

  it('a rotation at maxStreamMs inside a block closes it in the stop and reopens it in the next stream', async () => {
    const text = '```go\na := 1\nb := 2\n```\nok';
    expect(await deliverAged('```go\na := 1\n', text)).toEqual(['slack-stream-rotated']);
    expect(requests()).toEqual([
      ['```go\na := 1\n', '```'],
      ['```go\nb := 2\n```\nok', ''],
    ]);
    expectFencedRotations(held(), [text]);
  });

  it('a rotation at maxStreamMs in the middle of a code line finishes that line before the closer', async () => {
    const text = '```go\na := 1\nb := 2\n```\nok';
    expect(await deliverAged('```go\na := 1', text)).toEqual(['slack-stream-rotated']);
    // The stop carries the line feed the code line was waiting for, then the closer.
    expect(requests()).toEqual([
      ['```go\na := 1', '\n```'],
      ['```go\nb := 2\n```\nok', ''],
    ]);
    const [read] = expectFencedRotations(held(), [text]);
    expect(read.shares).toEqual(['```go\na := 1\n', 'b := 2\n```\nok']);
  });

  it('a code line longer than a part is cut inside it: the closer goes on a line of its own', async () => {
    await start();
    const text = `\`\`\`\n${'x'.repeat(50)}\n\`\`\`\nend`;
    await deliverWhole(text, 30);
    expect(requests()).toEqual([
      ['```\n' + 'x'.repeat(22), '\n```'],
      ['```\n' + 'x'.repeat(22), '\n```'],
      ['```\n' + 'x'.repeat(6) + '\n```\nend', ''],
    ]);
    expect(held().map((m) => bytes(m.text))).toEqual([30, 30, 18]);
    expectFencedRotations(held(), [text]);
  });

  it('an old stream inside a block with nothing new waits: no closer without a part that reopens', async () => {
    const text = '```go\na := 1\n';
    expect(await deliverAged(text, text)).toEqual([]);
    expect(requests()).toEqual([['```go\na := 1\n', '']]);
  });

  it('msg_too_long inside a block: the part Slack closed keeps what it showed, the next reopens the block', async () => {
    await start({ streamByteCap: 40 });
    const warnings: DeliveryWarning[] = [];
    const text = '```go\nfirst line of code\nsecond line\nthird line\n```';
    await callInOrder(
      transport({ maxStreamBytes: 48000 }),
      [edit(0, '```go\nfirst line of code\n'), edit(0, text)],
      warnings,
    );
    expect(requests()).toEqual([
      // Slack refused the append (24 + 23 bytes): the stream is over and takes no closer.
      ['```go\nfirst line of code\n'],
      ['```go\nsecond line\n', '```'],
      ['```go\nthird line\n```', ''],
    ]);
    expect(held().map((m) => m.stream)).toEqual(['expired', 'stopped', 'stopped']);
    expect(api.rejected).toEqual(['msg_too_long']);
    expect(warnings.map((w) => w.code)).toEqual(['slack-stream-too-long', 'slack-stream-rotated']);
    const [read] = expectFencedRotations(held(), [text]);
    expect(read.points.map((p) => [p.inside, p.closed, p.opened])).toEqual([
      [true, false, true],
      [true, true, true],
    ]);
  });

  it('a rewrite of rotated parts by chat.update shows each share as complete markdown', async () => {
    await start();
    const rewritten = GO.replaceAll('Println', 'Printf!');
    await callInOrder(transport({ maxStreamBytes: 40 }), [edit(0, GO), edit(0, rewritten)]);
    expect(held().map((m) => [m.history, m.stream])).toEqual([
      [
        [
          'Intro.\n\n```go\nfmt.Println(1)\n',
          'Intro.\n\n```go\nfmt.Println(1)\n```',
          // mrkdwn: the block closed in its own message (renderMarkdown drops the language).
          'Intro.\n\n```\nfmt.Printf!(1)\n```',
        ],
        'stopped',
      ],
      [
        [
          '```go\nfmt.Println(2)\nfmt.Println(3)\n```\n',
          '```go\nfmt.Println(2)\nfmt.Println(3)\n```\n',
          // The share starts inside the block: rendered with its opening line, as code.
          '```\nfmt.Printf!(2)\nfmt.Printf!(3)\n```',
        ],
        'stopped',
      ],
      // Its share is unchanged: left as it is.
      [['\nDone.', '\nDone.'], 'stopped'],
    ]);
    expect(api.counts.byMethod['chat.update']).toBe(2);
  });

  it('after a restart, the newest part, a live stream inside the block, is updated with its opening line', async () => {
    await start();
    const first = transport({ maxStreamBytes: 40 });
    const partial = 'Intro.\n\n```go\nfmt.Println(1)\nfmt.Println(2)\nfmt.Println(3)\n';
    const ref = await first.send(edit(0, partial), transportCall());
    expect(requests()).toEqual([
      ['Intro.\n\n```go\nfmt.Println(1)\n', '```'],
      ['```go\nfmt.Println(2)\nfmt.Println(3)\n'],
    ]);
    // Another process (a ledger's ref) finishes the message.
    const second = transport({ maxStreamBytes: 40 });
    const text = `${partial}\`\`\`\nDone.`;
    await second.finish(ref, edit(0, text), transportCall());
    expect(held().map((m) => [m.text, m.stream])).toEqual([
      ['Intro.\n\n```go\nfmt.Println(1)\n```', 'stopped'],
      // mrkdwn of the opening line and the share: the code as code, then the text after it.
      ['```\nfmt.Println(2)\nfmt.Println(3)\n```\n\nDone.', 'stopped'],
    ]);
    expect(api.counts.byMethod['chat.update']).toBe(1);
  });
});
