// deliver's options as a user gives them: the defaults filled in, and each bad option refused at
// once with `invalid-options` and a message naming it.
import { asyncScheduler } from 'rxjs';
import { defaultNotice } from '../../src/delivery/answerOutcome';
import { parseDeliverOptions } from '../../src/delivery/deliverOptions';
import { memoryLedger } from '../../src/delivery/memoryLedger';
import type { DeliveryTransport } from '../../src/delivery/types';
import { LlmRxError } from '../../src/errors';

const transport: DeliveryTransport<number> = { send: async () => 1, edit: async () => undefined };

/** The error parseDeliverOptions threw, or 'accepted'. */
function refusal(options: object, of: unknown = transport): unknown {
  try {
    parseDeliverOptions(of as DeliveryTransport<number>, options);
    return 'accepted';
  } catch (error) {
    return error;
  }
}

function expectRefused(options: object, message: string, of: unknown = transport) {
  const thrown = refusal(options, of);
  expect(thrown).toBeInstanceOf(LlmRxError);
  expect((thrown as LlmRxError).code).toBe('invalid-options');
  expect((thrown as LlmRxError).message).toBe(message);
}

const TRANSPORT_MESSAGE =
  'deliver: transport must be an object with send(edit) and edit(ref, edit) methods (and optionally finish(ref, edit)), such as telegramTransport({ … }).';

describe('parseDeliverOptions', () => {
  it('fills in the defaults: 5 attempts, 500 ms backoff, no interval, the default notice', () => {
    const settings = parseDeliverOptions(transport, {});
    expect(settings.maxAttempts).toBe(5);
    expect(settings.backoffMs).toBe(500);
    expect(settings.minIntervalMs).toBe(0);
    expect(settings.notice).toBe(defaultNotice);
    expect(settings.ledger).toBeUndefined();
    expect(settings.key).toBeUndefined();
    expect(settings.scheduler).toBe(asyncScheduler);
  });

  it("takes the transport's minIntervalMs unless the option gives one", () => {
    const paced = { ...transport, minIntervalMs: 1000 };
    expect(parseDeliverOptions(paced, {}).minIntervalMs).toBe(1000);
    expect(parseDeliverOptions(paced, { minIntervalMs: 0 }).minIntervalMs).toBe(0);
    expect(parseDeliverOptions(transport, { minIntervalMs: 250 }).minIntervalMs).toBe(250);
  });

  it('keeps what it was given: attempts, backoff, a ledger with its key, a notice or false', () => {
    const ledger = memoryLedger();
    const notice = () => 'ended';
    const settings = parseDeliverOptions(transport, {
      maxAttempts: 1,
      backoffMs: 0,
      ledger,
      key: 'reply-1',
      notice,
    });
    expect(settings).toMatchObject({ maxAttempts: 1, backoffMs: 0, key: 'reply-1' });
    expect(settings.ledger).toBe(ledger);
    expect(settings.notice).toBe(notice);
    expect(parseDeliverOptions(transport, { notice: false }).notice).toBe(false);
    // Any object with read and write is a ledger.
    const own = { read: async () => [], write: async () => undefined };
    expect(parseDeliverOptions(transport, { ledger: own, key: 'k' }).ledger).toBe(own);
  });

  it('accepts a transport with a finish method, or with none', () => {
    expect(refusal({}, { ...transport, finish: async () => undefined })).toBe('accepted');
    expect(refusal({}, { send: transport.send, edit: transport.edit })).toBe('accepted');
  });

  it.each([
    ['null', null],
    ['a string', 'telegram'],
    ['a function', Object.assign(() => undefined, { send: transport.send, edit: transport.edit })],
    ['no send', { edit: transport.edit }],
    ['a send that is no function', { send: 1, edit: transport.edit }],
    ['no edit', { send: transport.send }],
    ['an edit that is no function', { send: transport.send, edit: 'x' }],
    ['a finish that is no function', { ...transport, finish: 1 }],
  ])('refuses a transport that is %s', (_what, bad) => {
    expectRefused({}, TRANSPORT_MESSAGE, bad);
  });

  it.each([
    [{ maxAttempts: 0 }, '✖ Too small: expected number to be >=1\n  → at maxAttempts'],
    [{ maxAttempts: 1.5 }, '✖ Invalid input: expected int, received number\n  → at maxAttempts'],
    [{ backoffMs: -1 }, '✖ Too small: expected number to be >=0\n  → at backoffMs'],
    [{ minIntervalMs: -1 }, '✖ Too small: expected number to be >=0\n  → at minIntervalMs'],
    [
      { key: '', ledger: memoryLedger() },
      '✖ Too small: expected string to have >=1 characters\n  → at key',
    ],
    [{ notice: true }, '✖ Invalid input\n  → at notice'],
    [{ notice: 'Stopped' }, '✖ Invalid input\n  → at notice'],
    [
      { scheduler: 1 },
      '✖ expected an RxJS scheduler (with schedule() and now())\n  → at scheduler',
    ],
    [
      { extra: 1 },
      '✖ Unknown option "extra"; known options: minIntervalMs, maxAttempts, backoffMs, ledger, key, notice, scheduler',
    ],
  ])('refuses %j', (options, issue) => {
    expectRefused(options, `deliver: invalid options\n${issue}`);
  });

  const read = async (): Promise<[]> => [];
  const write = async (): Promise<void> => undefined;
  it.each<[string, unknown]>([
    ['an empty object', {}],
    ['null', null],
    ['read only', { read }],
    ['write only', { write }],
    ['a read that is no function', { read: [], write }],
    ['a write that is no function', { read, write: 'x' }],
    ['a function with read and write', Object.assign(() => undefined, { read, write })],
  ])('refuses a ledger that is %s', (_what, ledger) => {
    expectRefused(
      { ledger, key: 'k' },
      'deliver: invalid options\n✖ expected a ledger with read(key) and write(key, entry), such as memoryLedger()\n  → at ledger',
    );
  });

  it('refuses a key without a ledger, and a ledger without a key', () => {
    const both =
      'deliver: invalid options\n✖ ledger and key go together: give both (key names the reply) or neither\n  → at key';
    expectRefused({ key: 'reply' }, both);
    expectRefused({ ledger: memoryLedger() }, both);
  });
});
