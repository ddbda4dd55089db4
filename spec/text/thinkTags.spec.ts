import fc from 'fast-check';
import {
  MAX_TAG_LENGTH,
  createThinkTagScanner,
  splitThinkTags,
  type ThinkTagPart,
} from '../../src/text/thinkTags';

/** Every part the scanner gives for `deltas`, pushed one by one, then `end()`. */
function scan(deltas: string[], tags?: string[]): ThinkTagPart[] {
  const scanner = createThinkTagScanner({ tags });
  return mergeParts([...deltas.flatMap((delta) => scanner.push(delta)), ...scanner.end()]);
}

/** Adjacent text pieces of one kind joined, so different splits compare equal. */
function mergeParts(parts: ThinkTagPart[]): ThinkTagPart[] {
  const merged: ThinkTagPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if ('text' in part && last?.type === part.type && 'text' in last) last.text += part.text;
    else merged.push({ ...part });
  }
  return merged;
}

/** `text` cut at the given offsets. */
function splitText(text: string, offsets: number[]): string[] {
  const cuts = [...new Set(offsets.filter((o) => o > 0 && o < text.length))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    pieces.push(text.slice(start, cut));
    start = cut;
  }
  pieces.push(text.slice(start));
  return pieces;
}

describe('createThinkTagScanner', () => {
  it('splits a think block from the text around it', () => {
    expect(scan(['Hi <think>plan</think> there'])).toEqual([
      { type: 'text', text: 'Hi ' },
      { type: 'reasoning-start' },
      { type: 'reasoning', text: 'plan' },
      { type: 'reasoning-end' },
      { type: 'text', text: ' there' },
    ]);
  });

  it('holds back exactly the characters that could still be a tag', () => {
    const scanner = createThinkTagScanner();
    expect(scanner.push('a <')).toEqual([{ type: 'text', text: 'a ' }]);
    expect(scanner.push(' /')).toEqual([]);
    expect(scanner.push(' thinki')).toEqual([]);
    expect(scanner.push('x')).toEqual([{ type: 'text', text: '< / thinkix' }]);
    expect(scanner.push('<th')).toEqual([]);
    expect(scanner.push('ink')).toEqual([]);
    expect(scanner.push(' a="1"')).toEqual([]);
    expect(scanner.push('>r')).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning', text: 'r' },
    ]);
    expect(scanner.end()).toEqual([{ type: 'reasoning-end' }]);
  });

  it('releases a held partial tag at a second "<" and starts over there', () => {
    expect(scan(['<thi<think>x'])).toEqual([
      { type: 'text', text: '<thi' },
      { type: 'reasoning-start' },
      { type: 'reasoning', text: 'x' },
      { type: 'reasoning-end' },
    ]);
  });

  it('recognises every default name in any case, with whitespace and attributes', () => {
    for (const tag of ['think', 'THINKING', 'Thought', 'antThinking']) {
      expect(splitThinkTags(`a<${tag}>b</ ${tag} >c< ${tag} x='y' >d</${tag}>`)).toEqual({
        visible: 'ac',
        reasoning: 'bd',
      });
    }
  });

  it('does not take a longer or different name for a tag', () => {
    expect(splitThinkTags('<thinker>a</thinks><th1nk><think-x>')).toEqual({
      visible: '<thinker>a</thinks><th1nk><think-x>',
      reasoning: '',
    });
  });

  it('removes <final> tags, keeps their content, and ends reasoning at <final>', () => {
    expect(splitThinkTags('<think>r<final>A</final>')).toEqual({ visible: 'A', reasoning: 'r' });
    expect(splitThinkTags('<FINAL>A</Final>B')).toEqual({ visible: 'AB', reasoning: '' });
  });

  it('removes stray closing, nested opening and self-closing tags without changing the mode', () => {
    expect(scan(['a</think>b<think/>c<think>d<thinking>e</think>f'])).toEqual([
      { type: 'text', text: 'abc' },
      { type: 'reasoning-start' },
      { type: 'reasoning', text: 'de' },
      { type: 'reasoning-end' },
      { type: 'text', text: 'f' },
    ]);
  });

  it('treats a tag broken by a line break, or longer than MAX_TAG_LENGTH, as text', () => {
    expect(splitThinkTags('<think\n>a')).toEqual({ visible: '<think\n>a', reasoning: '' });
    const long = `<think ${'x'.repeat(MAX_TAG_LENGTH)}>a`;
    expect(splitThinkTags(long)).toEqual({ visible: long, reasoning: '' });
    const justFits = `<think ${'x'.repeat(MAX_TAG_LENGTH - 8)}>a`;
    expect(splitThinkTags(justFits)).toEqual({ visible: '', reasoning: 'a' });
  });

  it('leaves tags inside fenced code blocks and inline code as text', () => {
    const fenced = '```html\n<think>x</think>\n```\n';
    expect(splitThinkTags(fenced)).toEqual({ visible: fenced, reasoning: '' });
    expect(splitThinkTags('`<think>`x')).toEqual({ visible: '`<think>`x', reasoning: '' });
    // After the fence closes, tags count again.
    expect(splitThinkTags(`${fenced}<think>r</think>`)).toEqual({
      visible: fenced,
      reasoning: 'r',
    });
  });

  it('judges fences on the text with the tags removed', () => {
    // "<think>r</think>" at a line start leaves "```" at the line start: a fence opens.
    expect(splitThinkTags('<think>r</think>```\n<think>x')).toEqual({
      visible: '```\n<think>x',
      reasoning: 'r',
    });
  });

  it('closes open reasoning and releases held text at end()', () => {
    const scanner = createThinkTagScanner();
    expect(scanner.push('<think>a</thin')).toEqual([
      { type: 'reasoning-start' },
      { type: 'reasoning', text: 'a' },
    ]);
    expect(scanner.end()).toEqual([
      { type: 'reasoning', text: '</thin' },
      { type: 'reasoning-end' },
    ]);
  });

  it('uses only the given tags when `tags` is set (final stays known)', () => {
    expect(splitThinkTags('<think>a</think><r>b</r><final>c', { tags: ['R'] })).toEqual({
      visible: '<think>a</think>c',
      reasoning: 'b',
    });
  });
});

// Text that never contains a tag by itself: the grammar of a tag, as a regular expression.
const TAG_PATTERN =
  /<[ \t]*(\/[ \t]*)?(think|thinking|thought|antthinking|final)([ \t/][^<>\n]*)?>/i;
const plainText = fc
  .array(
    fc.constantFrom('a', 'Z', ' ', '\n', '<', '>', '/', 'think', 'ing', 'final', '=', 'é', '😀'),
    {
      maxLength: 12,
    },
  )
  .map((pieces) => pieces.join(''))
  .filter((text) => !TAG_PATTERN.test(text));
const tagName = fc
  .tuple(fc.constantFrom('think', 'thinking', 'thought', 'antthinking'), fc.boolean())
  .map(([name, upper]) => (upper ? name.toUpperCase() : name));
const padding = fc.constantFrom('', ' ', '\t ');
const openTag = fc
  .tuple(padding, tagName, fc.constantFrom('', ' effort="high"', ' a=b '))
  .map(([pad, name, attributes]) => `<${pad}${name}${attributes}>`);
const closeTag = fc
  .tuple(padding, tagName, padding)
  .map(([pad, name, trailing]) => `<${pad}/${name}${trailing}>`);

/** A text made of visible runs and think blocks, with what each side should read. */
const taggedText = fc
  .array(
    fc.record({
      visible: plainText,
      reasoning: fc.option(fc.tuple(openTag, plainText, closeTag), { nil: undefined }),
      finalTags: fc.boolean(),
    }),
    { maxLength: 6 },
  )
  .map((segments) => {
    let input = '';
    let visible = '';
    let reasoning = '';
    for (const segment of segments) {
      input += segment.finalTags ? `<final>${segment.visible}</final>` : segment.visible;
      visible += segment.visible;
      if (segment.reasoning) {
        const [open, inner, close] = segment.reasoning;
        input += open + inner + close;
        reasoning += inner;
      }
    }
    return { input, visible, reasoning };
  })
  // Two visible runs side by side ("<" + "think>") could form a tag of their own.
  .filter(({ visible }) => !TAG_PATTERN.test(visible));

describe('createThinkTagScanner properties', () => {
  it('gives visible + reasoning text equal to the input without its tags, whatever the deltas', () => {
    fc.assert(
      fc.property(taggedText, fc.array(fc.nat()), ({ input, visible, reasoning }, cuts) => {
        const parts = scan(
          splitText(
            input,
            cuts.map((cut) => cut % (input.length + 1)),
          ),
        );
        const text = (type: ThinkTagPart['type']) =>
          parts.map((part) => (part.type === type && 'text' in part ? part.text : '')).join('');
        expect(text('text')).toBe(visible);
        expect(text('reasoning')).toBe(reasoning);
        // Reasoning is bracketed: starts and ends alternate, and none is left open.
        const brackets = parts.filter((part) => !('text' in part)).map((part) => part.type);
        brackets.forEach((type, i) =>
          expect(type).toBe(i % 2 === 0 ? 'reasoning-start' : 'reasoning-end'),
        );
        expect(brackets.length % 2).toBe(0);
      }),
      { numRuns: 1000, seed: 20240605 },
    );
  });

  it('gives the same parts for any split of Markdown-like text, code and tags included', () => {
    const markdownish = fc
      .array(
        fc.constantFrom(
          'a',
          ' ',
          '  ',
          '\n',
          '`',
          '```',
          '~~~',
          '<think>',
          '</think>',
          '<thi',
          'nk>',
          '<final>',
        ),
        { maxLength: 30 },
      )
      .map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(markdownish, fc.array(fc.nat()), (input, cuts) => {
        const whole = scan([input]);
        const split = scan(
          splitText(
            input,
            cuts.map((cut) => cut % (input.length + 1)),
          ),
        );
        expect(split).toEqual(whole);
        const everyChar = scan([...input]);
        expect(everyChar).toEqual(whole);
      }),
      { numRuns: 1000, seed: 7 },
    );
  });
});
