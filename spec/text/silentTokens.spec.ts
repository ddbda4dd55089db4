import fc from 'fast-check';
import {
  DEFAULT_SILENT_TOKENS,
  createSilentTokenMatcher,
  stripSilentTokens,
} from '../../src/text/silentTokens';

/** Every way to cut `text` once into two deltas, plus one delta per character. */
function everyTwoDeltaSplit(text: string): string[][] {
  const splits: string[][] = [];
  for (let cut = 1; cut < text.length; cut++) splits.push([text.slice(0, cut), text.slice(cut)]);
  splits.push([...text]);
  return splits;
}

/** `count` random n-delta splits of `text`, reproducible from `seed`. */
function randomDeltaSplits(text: string, count: number, seed: number): string[][] {
  const cutLists = fc.sample(fc.array(fc.integer({ min: 1, max: Math.max(1, text.length - 1) })), {
    numRuns: count,
    seed,
  });
  return cutLists.map((cuts) => {
    const sorted = [...new Set(cuts.filter((cut) => cut < text.length))].sort((a, b) => a - b);
    const parts: string[] = [];
    let start = 0;
    for (const cut of sorted) {
      parts.push(text.slice(start, cut));
      start = cut;
    }
    parts.push(text.slice(start));
    return parts;
  });
}

/** Feeds deltas; returns every release in order and the final resolution. */
function run(deltas: string[], tokens?: string[]) {
  const matcher = createSilentTokenMatcher(tokens);
  const releases = deltas.map((delta) => matcher.push(delta));
  const resolution = matcher.end();
  return { releases, resolution, text: releases.join('') + resolution.release };
}

const allSplits = (text: string) => [
  ...everyTwoDeltaSplit(text),
  ...randomDeltaSplits(text, 50, 7),
];

describe('createSilentTokenMatcher', () => {
  describe.each([
    ['NO_REPLY', 'NO_REPLY'],
    ['  NO_REPLY  ', 'NO_REPLY'],
    ['no_reply', 'NO_REPLY'],
    ['**NO_REPLY**', 'NO_REPLY'],
    ['NO_REPLY NO_REPLY', 'NO_REPLY'],
    ['ANNOUNCE_SKIP', 'ANNOUNCE_SKIP'],
    ['REPLY_SKIP', 'REPLY_SKIP'],
    ['\n_NO_REPLY_\n', 'NO_REPLY'],
    ['~~reply_skip~~ NO_REPLY', 'REPLY_SKIP'],
  ])('%j is silent', (input, token) => {
    it('for every split: zero characters out, silent with the configured token', () => {
      for (const deltas of allSplits(input)) {
        const { text, resolution } = run(deltas);
        expect({ deltas, text, resolution }).toEqual({
          deltas,
          text: '',
          resolution: { release: '', silent: true, token },
        });
      }
    });
  });

  describe.each([
    'No, thanks',
    'NOTE: done',
    'Hello',
    'NO_X',
    'NO-',
    'NO_REPLY but here is more content',
    'NO_REPLY 👍',
    'Please NO_REPLY to this',
    'interject.NO_REPLY',
    'foo_NO_REPLY',
    'NO_REPLY NO_REPLY!',
    '   ',
    'Done.\n\n',
    'NO_REPL',
  ])('%j is content', (input) => {
    it('for every split: exactly the input out, never silent', () => {
      for (const deltas of allSplits(input)) {
        const { text, resolution } = run(deltas);
        expect({ deltas, text, silent: resolution.silent }).toEqual({
          deltas,
          text: input,
          silent: false,
        });
      }
    });
  });

  describe.each([
    ['Done.\n\nNO_REPLY', 'Done.'],
    ['some text **NO_REPLY', 'some text'],
    ['Done. **NO_REPLY**', 'Done.'],
    ['**Done.** NO_REPLY', '**Done.**'],
    ['Done.**NO_REPLY**', 'Done.'],
    ['Done. NO_REPLY no_reply\n', 'Done.'],
    ['NO_REPLY but later\nNO_REPLY', 'NO_REPLY but later'],
  ])('%j loses its trailing token', (input, visible) => {
    it('for every split: exactly the content, nothing of the token ever released', () => {
      for (const deltas of allSplits(input)) {
        const { releases, text, resolution } = run(deltas);
        expect({ deltas, text, resolution }).toEqual({
          deltas,
          text: visible,
          resolution: { release: expect.any(String), silent: false, token: 'NO_REPLY' },
        });
        // Released text only ever grows towards `visible`: no "N" or "NO" after it, ever.
        let soFar = '';
        for (const release of [...releases, resolution.release]) {
          soFar += release;
          expect(visible.startsWith(soFar)).toBe(true);
        }
      }
    });
  });

  it('holds exactly what could still become a token, and releases it the moment it cannot', () => {
    const matcher = createSilentTokenMatcher();
    expect(matcher.push('Done.')).toBe('Done.');
    expect(matcher.held).toBe('');
    expect(matcher.push('\n\nNO')).toBe('');
    expect(matcher.held).toBe('\n\nNO');
    expect(matcher.push('_RE')).toBe('');
    expect(matcher.push('AD')).toBe('\n\nNO_READ');
    expect(matcher.held).toBe('');
    expect(matcher.push(' **')).toBe('');
    expect(matcher.held).toBe(' **');
    expect(matcher.push('more')).toBe(' **more');
    expect(matcher.held).toBe('');
  });

  it('releases a glued token at once: nothing is held after a word', () => {
    const matcher = createSilentTokenMatcher();
    expect(matcher.push('interject.')).toBe('interject.');
    expect(matcher.push('NO_REPLY')).toBe('NO_REPLY');
    expect(matcher.end()).toEqual({ release: '', silent: false });
  });

  it('a leading token followed by content is released whole at the first impossible character', () => {
    const matcher = createSilentTokenMatcher();
    expect(matcher.push('NO_REPLY')).toBe('');
    expect(matcher.push(' ')).toBe('');
    expect(matcher.push('b')).toBe('NO_REPLY b');
  });

  it('uses custom tokens, ignoring case', () => {
    expect(stripSilentTokens('[[skip]]', ['[[SKIP]]'])).toEqual({
      text: '',
      silent: true,
      token: '[[SKIP]]',
    });
    expect(stripSilentTokens('NO_REPLY', ['HUSH'])).toEqual({ text: 'NO_REPLY', silent: false });
  });

  it('matches right with more token lists than the table cache keeps (64)', () => {
    for (let list = 0; list < 80; list++) {
      const tokens = [`SKIP_${list}`, `HUSH${list}`];
      expect(stripSilentTokens(`Done.\n\nhush${list}`, tokens)).toEqual({
        text: 'Done.',
        silent: false,
        token: `HUSH${list}`,
      });
      expect(stripSilentTokens(`**skip_${list}**`, tokens).silent).toBe(true);
      expect(stripSilentTokens(`skip_${list + 1}x`, tokens).silent).toBe(false);
    }
  });

  it('keeps many repeated tokens linear: candidates do not pile up', () => {
    const input = 'Done. ' + 'NO_REPLY '.repeat(5000);
    const { text, resolution } = run([...input]);
    expect(text).toBe('Done.');
    expect(resolution.token).toBe('NO_REPLY');
  });
});

// An independent oracle written as regular expressions over the whole text.
function oracle(text: string): { text: string; silent: boolean } {
  const tokens = DEFAULT_SILENT_TOKENS.join('|');
  if (new RegExp(`^[\\s*_~]*(?:(?:${tokens})[\\s*_~]*)+$`, 'i').test(text)) {
    return { text: '', silent: true };
  }
  const trailing = new RegExp(
    `^([\\s\\S]*?[^\\s*_~])([\\s*_~]*[\\s*~][\\s*_~]*)(?:${tokens})(?:[\\s*_~]*(?:${tokens}))*[\\s*_~]*$`,
    'i',
  ).exec(text);
  if (!trailing) return { text, silent: false };
  const [, content, lead] = trailing;
  const firstSpace = lead.search(/\s/);
  return { text: content + (firstSpace > 0 ? lead.slice(0, firstSpace) : ''), silent: false };
}

describe('stripSilentTokens', () => {
  const fragment = fc.constantFrom(
    'NO_REPLY',
    'no_reply',
    'REPLY_SKIP',
    'ANNOUNCE_SKIP',
    'NO',
    '_',
    '*',
    '**',
    '~~',
    ' ',
    '\n',
    'Done.',
    'x',
    '.',
    'NO_',
    'REPLY',
  );
  const text = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(''));

  it('agrees with the regular-expression oracle on the whole text', () => {
    fc.assert(
      fc.property(text, (input) => {
        const { text: visible, silent } = stripSilentTokens(input);
        expect({ text: visible, silent }).toEqual(oracle(input));
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  it('gives the same result for any split into deltas', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), (input, cuts) => {
        const offsets = [...new Set(cuts.map((cut) => cut % (input.length + 1)))].sort(
          (a, b) => a - b,
        );
        const deltas: string[] = [];
        let start = 0;
        for (const offset of offsets) {
          deltas.push(input.slice(start, offset));
          start = offset;
        }
        deltas.push(input.slice(start));
        const whole = stripSilentTokens(input);
        const { text: streamed, resolution } = run(deltas);
        expect({ text: streamed, silent: resolution.silent }).toEqual({
          text: whole.text,
          silent: whole.silent,
        });
      }),
      { seed: 12, numRuns: 3000 },
    );
  });
});
