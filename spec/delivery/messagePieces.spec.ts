// The texts a plain-string transport posts for one message, and its parted send that goes on
// from the parts a failed attempt already posted.
import type { MessageEdit } from '../../src/channels/messageEditPlanner';
import { splitToFit } from '../../src/channels/messageEditPlanner';
import { DeliveryError } from '../../src/delivery/errors';
import { createPartedSend, messagePieces } from '../../src/delivery/messagePieces';
import { renderMessages } from '../../src/render/renderMarkdown';

const edit = (text: string, rest: Partial<MessageEdit> = {}): MessageEdit => ({
  op: 'send',
  message: 3,
  text,
  ...rest,
});
const options = { format: 'whatsapp', maxChars: 40, transport: 'whatsappTransport' } as const;

describe('messagePieces', () => {
  it('renders an unrendered text for the format, split by the renderer within maxChars', () => {
    // The renderer's smallest limit is 64.
    const wide = { ...options, maxChars: 64 };
    const text =
      '**Bold** start.\n\nA second paragraph that is long enough to need a cut, and then some more.';
    const pieces = messagePieces(edit(text), wide);
    expect(pieces).toEqual(
      renderMessages(text, 'whatsapp', { maxLength: 64 }).map((message) => message.rendered.text),
    );
    expect(pieces.length).toBeGreaterThan(1);
    expect(messagePieces(edit('**Bold**'), wide)).toEqual(['*Bold*']);
  });

  it('none for a text with nothing visible', () => {
    expect(messagePieces(edit(''), { ...options, maxChars: 64 })).toEqual([]);
  });

  it('a rendering for its format as it is when it fits, exactly at maxChars too', () => {
    const rendered = { format: 'whatsapp' as const, text: 'x'.repeat(40), plain: 'x'.repeat(40) };
    expect(messagePieces(edit('ignored', { rendered }), options)).toEqual(['x'.repeat(40)]);
  });

  it('a longer rendering split at spaces, never truncated', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    const rendered = { format: 'whatsapp' as const, text, plain: text };
    const pieces = messagePieces(edit('ignored', { rendered }), options);
    expect(pieces).toEqual(splitToFit(text, 40));
    expect(pieces).toEqual(['alpha beta gamma delta epsilon zeta eta', 'theta iota kappa']);
  });

  it('a rendering for another format: a permanent DeliveryError naming the render option', () => {
    const rendered = { format: 'slack' as const, text: '*x*', plain: 'x' };
    let thrown: unknown;
    try {
      messagePieces(edit('x', { rendered }), options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DeliveryError);
    expect((thrown as DeliveryError).message).toBe(
      "whatsappTransport: message 3 was rendered for slack; use toMessageEdits({ render: 'whatsapp' }) or no render at all.",
    );
    expect((thrown as DeliveryError).permanent).toBe(true);
  });
});

describe('createPartedSend', () => {
  /** A ref that lists the parts posted; `failAfter` parts are posted before a failure. */
  const showing =
    (posted: string[][], failAfter?: number) => async (ref: string[], pieces: string[]) => {
      for (const piece of pieces.slice(ref.length)) {
        if (failAfter !== undefined && ref.length >= failAfter) throw new Error('network reset');
        ref.push(piece);
        posted.push([...ref]);
      }
    };

  it('posts every part into a new ref and returns it', async () => {
    const send = createPartedSend('whatsappTransport', () => [] as string[]);
    const posted: string[][] = [];
    expect(await send(edit('x'), 1, ['a', 'b'], showing(posted))).toEqual(['a', 'b']);
    expect(posted).toEqual([['a'], ['a', 'b']]);
  });

  it('a retry goes on from the parts the failed attempt posted', async () => {
    const send = createPartedSend('whatsappTransport', () => [] as string[]);
    const posted: string[][] = [];
    await expect(send(edit('x'), 1, ['a', 'b', 'c'], showing(posted, 1))).rejects.toThrow(
      'network reset',
    );
    expect(await send(edit('x'), 2, ['a', 'b', 'c'], showing(posted))).toEqual(['a', 'b', 'c']);
    expect(posted).toEqual([['a'], ['a', 'b'], ['a', 'b', 'c']]);
  });

  it('a first attempt starts anew even when an earlier one of that message failed', async () => {
    const send = createPartedSend('whatsappTransport', () => [] as string[]);
    const posted: string[][] = [];
    await expect(send(edit('x'), 1, ['a', 'b'], showing(posted, 1))).rejects.toThrow(
      'network reset',
    );
    expect(await send(edit('x'), 1, ['a', 'b'], showing(posted))).toEqual(['a', 'b']);
    expect(posted).toEqual([['a'], ['a'], ['a', 'b']]);
  });

  it('a message that went through is not continued by a later retry of the same number', async () => {
    const send = createPartedSend('whatsappTransport', () => [] as string[]);
    const posted: string[][] = [];
    await send(edit('x'), 1, ['a'], showing(posted));
    expect(await send(edit('x'), 2, ['b'], showing(posted))).toEqual(['b']);
    expect(posted).toEqual([['a'], ['b']]);
  });

  it('the parts of another message are not taken over', async () => {
    const send = createPartedSend('whatsappTransport', () => [] as string[]);
    const posted: string[][] = [];
    await expect(send(edit('x'), 1, ['a', 'b'], showing(posted, 1))).rejects.toThrow(
      'network reset',
    );
    expect(await send(edit('y', { message: 4 }), 2, ['c'], showing(posted))).toEqual(['c']);
  });

  it('a message with no visible text: a permanent DeliveryError, nothing shown', async () => {
    const send = createPartedSend('whatsappTransport', () => [] as string[]);
    const posted: string[][] = [];
    const thrown = await send(edit('  '), 1, [], showing(posted)).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(DeliveryError);
    expect((thrown as DeliveryError).message).toBe(
      'whatsappTransport: message 3 has no visible text to send.',
    );
    expect((thrown as DeliveryError).permanent).toBe(true);
    expect(posted).toEqual([]);
  });
});
