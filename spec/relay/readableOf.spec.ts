import { Subject } from 'rxjs';
import { readableTextOf } from '../../src/relay/readableOf';

/** Lets the stream run its pull (it is called after start settles, a tick later). */
const tick = () => new Promise((resolve) => setImmediate(resolve));
const text = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);

describe('readableTextOf', () => {
  it('subscribes on the first read; a waiting read gets text at once; a burst becomes one chunk', async () => {
    const source = new Subject<string>();
    const reader = readableTextOf(source).getReader();
    expect(source.observed).toBe(false);
    const first = reader.read();
    await tick();
    expect(source.observed).toBe(true);
    source.next('a');
    expect(text((await first).value)).toBe('a');
    source.next('b');
    source.next('c');
    expect(text((await reader.read()).value)).toBe('bc');
    source.next('d');
    source.complete();
    expect(text((await reader.read()).value)).toBe('d');
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it('cancelling the stream unsubscribes and drops what was held', async () => {
    const source = new Subject<string>();
    const reader = readableTextOf(source).getReader();
    const first = reader.read();
    await tick();
    source.next('a');
    await first;
    source.next('held');
    await reader.cancel();
    expect(source.observed).toBe(false);
  });
});
