import { readFenceLine, reopenLine, type FenceRegion } from '../../src/chunking/fenceTracker';

const fence = (marker: string): FenceRegion => ({
  kind: 'fence',
  start: 0,
  breakBefore: -1,
  contentEndBefore: 0,
  contentStart: 0,
  lastContentEnd: -1,
  closerStart: Infinity,
  end: Infinity,
  marker,
  info: '',
  reopen: marker,
});

describe('readFenceLine (CommonMark fences)', () => {
  it.each([
    ['```js', { kind: 'opener', marker: '```', info: 'js' }],
    ['```` python  ', { kind: 'opener', marker: '````', info: 'python' }],
    ['~~~ info with `backticks`', { kind: 'opener', marker: '~~~', info: 'info with `backticks`' }],
    ['```', { kind: 'opener', marker: '```', info: '' }],
    ['``` a`b', { kind: 'other' }],
    ['``not', { kind: 'other' }],
  ])('outside a fence, %j is %j', (line, expected) => {
    expect(readFenceLine(line, null)).toEqual(expected);
  });

  it.each([
    ['```', '```', 'closer'],
    ['```', '```   ', 'closer'],
    ['```', '`````', 'closer'],
    ['````', '```', 'other'],
    ['```', '~~~', 'other'],
    ['```', '```js', 'other'],
  ])('inside a %j fence, %j is %s', (marker, line, kind) => {
    expect(readFenceLine(line, fence(marker)).kind).toBe(kind);
  });
});

describe('reopenLine', () => {
  it('repeats marker and info when they leave room for code', () => {
    expect(reopenLine('```', 'bash', 40)).toBe('```bash');
  });
  it('drops the info string when it would crowd out the code', () => {
    expect(reopenLine('```', 'typescript', 20)).toBe('```');
  });
  it('gives up on a marker that cannot fit twice', () => {
    expect(reopenLine('``````````', '', 16)).toBeNull();
  });
  it('keeps the info string while opener, closer and 8 characters of code fit in maxChars', () => {
    // '```bash' + line feed + 8 of code + line feed + '```' = 20.
    expect(reopenLine('```', 'bash', 20)).toBe('```bash');
    expect(reopenLine('```', 'bash', 19)).toBe('```');
  });
  it('keeps a bare marker while it fits twice with a character of code between', () => {
    // 7 + line feed + 1 + line feed + 7 = 17.
    expect(reopenLine('```````', '', 17)).toBe('```````');
    expect(reopenLine('```````', '', 16)).toBeNull();
    expect(reopenLine('```````', 'js', 17)).toBe('```````');
  });
});
