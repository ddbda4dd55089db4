import { createMarkdownCodeTracker } from '../../src/text/markdownCodeTracker';

/** Whether a `<` right after `text` would be inside code. */
function insideCodeAfter(text: string): boolean {
  const tracker = createMarkdownCodeTracker();
  for (const char of text) tracker.feed(char);
  return tracker.insideCode();
}

describe('createMarkdownCodeTracker', () => {
  it('starts outside code', () => {
    expect(insideCodeAfter('')).toBe(false);
    expect(insideCodeAfter('plain text\n')).toBe(false);
  });

  it('opens a fence at a line start with 0-3 spaces and 3 or more backticks or tildes', () => {
    expect(insideCodeAfter('```')).toBe(true);
    expect(insideCodeAfter('```ts\n')).toBe(true);
    expect(insideCodeAfter('   ~~~\n')).toBe(true);
    expect(insideCodeAfter('text\n````\n')).toBe(true);
    expect(insideCodeAfter('    ```\n')).toBe(false); // four spaces: not a fence
    expect(insideCodeAfter('a ```\n')).toBe(false); // not at a line start
    expect(insideCodeAfter('~~\n')).toBe(false);
  });

  it('closes a fence only with the same character, at least as long, and nothing after', () => {
    expect(insideCodeAfter('````\nx\n```\n')).toBe(true); // shorter
    expect(insideCodeAfter('```\nx\n~~~\n')).toBe(true); // other character
    expect(insideCodeAfter('```\nx\n``` js\n')).toBe(true); // info after a closer
    expect(insideCodeAfter('```\nx\n   `````  \n')).toBe(false);
    expect(insideCodeAfter('~~~\nx\n~~~')).toBe(true); // the closing line has not ended yet
    expect(insideCodeAfter('~~~\nx\n~~~\n')).toBe(false);
  });

  it('tracks inline code spans by the length of their backtick run', () => {
    expect(insideCodeAfter('a `')).toBe(true);
    expect(insideCodeAfter('a `b`')).toBe(false);
    expect(insideCodeAfter('a ``b ` c')).toBe(true);
    expect(insideCodeAfter('a ``b ` c``')).toBe(false);
    expect(insideCodeAfter('``')).toBe(true); // two backticks at a line start: inline
  });

  it('ends an inline code span at the line break', () => {
    expect(insideCodeAfter('it`s\n')).toBe(false);
  });

  it('ignores backticks inside a fence', () => {
    expect(insideCodeAfter('```\n`\n```\n')).toBe(false);
  });
});
