import { MarbleFileError, parseMarbleFile } from './helpers/marbleFile';

// A malformed `.marble` file must fail naming its path and the offending line, so a typo in a
// spec is found at once instead of surfacing as a puzzling marble diff.

const PATH = 'marbles/demo/case.marble';

/** The error parseMarbleFile throws for `text` (fails the test when it throws none). */
function failureOf(text: string): MarbleFileError {
  try {
    parseMarbleFile(PATH, text);
  } catch (error) {
    expect(error).toBeInstanceOf(MarbleFileError);
    return error as MarbleFileError;
  }
  throw new Error('expected parseMarbleFile to throw');
}

const valid = [
  '# ensureTerminal passes a value',
  'operator: ensureTerminal',
  'args:     {}',
  'source:   -a|',
  'subs:     ^-!',
  'expected: -a(c|)',
  'a = {"type":"text-delta","id":"t","delta":"Hi"}',
  'c = {"type":"failed","error":{"code":"stream-closed","message":"m","retryable":true}}',
];

/** The valid file with line `index` (0-based) replaced, or removed when `line` is undefined. */
function withLine(index: number, line?: string): string {
  const lines = [...valid];
  if (line === undefined) lines.splice(index, 1);
  else lines[index] = line;
  return lines.join('\n');
}

describe('parseMarbleFile', () => {
  it('parses a valid file', () => {
    expect(parseMarbleFile(PATH, valid.join('\n'))).toEqual({
      path: PATH,
      title: 'ensureTerminal passes a value',
      operator: 'ensureTerminal',
      args: {},
      source: '-a|',
      subs: '^-!',
      expected: '-a(c|)',
      values: {
        a: { type: 'text-delta', id: 't', delta: 'Hi' },
        c: { type: 'failed', error: { code: 'stream-closed', message: 'm', retryable: true } },
      },
    });
  });

  it('a missing title names line 1', () => {
    const error = failureOf(withLine(0));
    expect(error.message).toMatch(new RegExp(`^${PATH}:1: .*"# title"`));
    expect(error.message).toContain('operator: ensureTerminal');
  });

  it('a bad JSON value names its line and shows it', () => {
    const error = failureOf(withLine(6, 'a = {"type":"text-delta",}'));
    expect(error.message).toMatch(new RegExp(`^${PATH}:7: not valid JSON`));
    expect(error.message).toContain('a = {"type":"text-delta",}');
  });

  it('bad JSON in args names the args line', () => {
    const error = failureOf(withLine(2, 'args:     {minChars: 3}'));
    expect(error.message).toMatch(new RegExp(`^${PATH}:3: not valid JSON`));
    expect(error.message).toContain('{minChars: 3}');
  });

  it('an unknown key names its line', () => {
    const error = failureOf(withLine(4, 'subscriptions: ^-!'));
    expect(error.message).toMatch(new RegExp(`^${PATH}:5: .*"subscriptions"`));
    expect(error.message).toContain('subscriptions: ^-!');
  });

  it('both source and hot names the second of them', () => {
    const lines = [...valid];
    lines.splice(4, 0, 'hot:      ^-a|');
    const error = failureOf(lines.join('\n'));
    expect(error.message).toMatch(new RegExp(`^${PATH}:5: .*exactly one of "source"`));
    expect(error.message).toContain('hot:      ^-a|');
  });

  it('neither source nor hot says so', () => {
    const error = failureOf(withLine(3));
    expect(error.message).toMatch(new RegExp(`^${PATH}: .*exactly one of "source"`));
  });

  it('a missing expected says which key is missing', () => {
    const error = failureOf(withLine(5));
    expect(error.message).toMatch(new RegExp(`^${PATH}: .*"expected"`));
  });

  it('a key given twice names the second line', () => {
    const error = failureOf(withLine(4, 'source:   -b|'));
    expect(error.message).toMatch(new RegExp(`^${PATH}:5: "source" is given twice`));
  });

  it('a line that is neither title, key nor value names its line', () => {
    const error = failureOf(withLine(4, 'subs ^-!'));
    expect(error.message).toMatch(new RegExp(`^${PATH}:5: expected "# title"`));
  });
});
