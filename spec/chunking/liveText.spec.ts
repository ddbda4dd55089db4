// createLiveText: the text a live reply holds between emissions, taken in whole words or whole.
import fc from 'fast-check';
import { createLiveText } from '../../src/chunking/liveText';

describe('createLiveText', () => {
  it('holds nothing at first: no text, no words, both takes empty', () => {
    const held = createLiveText();
    expect([held.holding, held.hasWords, held.takeWords(), held.takeAll()]).toEqual([
      false,
      false,
      '',
      '',
    ]);
  });

  it('takes whole words up to the last whitespace; the unfinished word stays held', () => {
    const held = createLiveText();
    held.append('Hello wor');
    expect([held.holding, held.hasWords]).toEqual([true, true]);
    expect(held.takeWords()).toBe('Hello ');
    expect([held.holding, held.hasWords]).toEqual([true, false]);
    expect(held.takeWords()).toBe('');
    held.append('ld');
    expect(held.takeAll()).toBe('world');
    expect([held.holding, held.hasWords]).toEqual([false, false]);
  });

  it('the last whitespace of all deltas counts, even one held from an earlier delta', () => {
    const held = createLiveText();
    held.append('one two ');
    held.append('thr');
    // The whitespace is the earlier delta's last character: its words are still whole.
    expect(held.hasWords).toBe(true);
    expect(held.takeWords()).toBe('one two ');
    held.append('ee four five');
    expect(held.takeWords()).toBe('three four ');
    expect(held.takeAll()).toBe('five');
  });

  it('reads the last whitespace of a delta, not its first', () => {
    const held = createLiveText();
    held.append('a b c d');
    expect(held.takeWords()).toBe('a b c ');
    held.append('\nx');
    expect(held.takeWords()).toBe('d\n');
  });

  it('line breaks, tabs, no-break and ideographic spaces end a word; letters and punctuation do not', () => {
    for (const space of ['\n', '\t', '\u00a0', '\u3000', '\r']) {
      const held = createLiveText();
      held.append(`word${space}next`);
      expect([space, held.takeWords()]).toEqual([space, `word${space}`]);
    }
    const held = createLiveText();
    held.append('no-space,here.yet');
    expect([held.hasWords, held.takeWords(), held.takeAll()]).toEqual([
      false,
      '',
      'no-space,here.yet',
    ]);
  });

  it('a delta with no whitespace after words were taken adds no words', () => {
    const held = createLiveText();
    held.append('first ');
    expect(held.takeWords()).toBe('first ');
    held.append('sec');
    held.append('ond');
    expect([held.hasWords, held.takeWords(), held.takeAll()]).toEqual([false, '', 'second']);
  });

  it('takeAll after takeWords leaves nothing; a new word after takeAll starts afresh', () => {
    const held = createLiveText();
    held.append('alpha beta');
    expect(held.takeAll()).toBe('alpha beta');
    held.append('gamma');
    expect([held.hasWords, held.takeWords()]).toEqual([false, '']);
    expect(held.takeAll()).toBe('gamma');
  });

  it('property: the pieces taken, in order, are exactly the text appended; takeWords ends at a whitespace', () => {
    const op = fc.oneof(
      fc.record({
        append: fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'é', '\u3000') }),
      }),
      fc.constant({ take: 'words' as const }),
      fc.constant({ take: 'all' as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const held = createLiveText();
        let appended = '';
        let taken = '';
        for (const step of ops) {
          if ('append' in step) {
            held.append(step.append);
            appended += step.append;
          } else if (step.take === 'words') {
            const words = held.takeWords();
            if (words !== '') expect(/\s$/.test(words)).toBe(true);
            taken += words;
          } else taken += held.takeAll();
          expect(held.holding).toBe(appended.length > taken.length);
        }
        expect(taken + held.takeAll()).toBe(appended);
      }),
      { numRuns: 300, seed: 44 },
    );
  });
});
