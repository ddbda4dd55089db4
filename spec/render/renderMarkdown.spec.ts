import { LlmRxError } from '../../src/errors';
import { renderMarkdown } from '../../src/render/renderMarkdown';
import type { RenderFormat, RenderedMessage } from '../../src/render/types';
import { renderingProblems } from './renderChecks';

/**
 * The messages as the app gets them (text, entities or parse mode), after checking that each
 * names the format it was rendered in and carries its visible text.
 */
const render = (markdown: string, format: RenderFormat, maxLength?: number) =>
  renderMarkdown(markdown, format, maxLength === undefined ? undefined : { maxLength }).map(
    ({ format: named, plain, ...message }) => {
      expect(named).toBe(format);
      expect(typeof plain).toBe('string');
      return message;
    },
  );
const texts = (messages: Array<Pick<RenderedMessage, 'text'>>) =>
  messages.map((message) => message.text);

describe('renderMarkdown: small documents, exactly', () => {
  it('every message says its format and its visible text (what a fallback sends)', () => {
    const markdown = 'A **b** & <c> [d](https://e.org/(f))';
    expect(
      renderMarkdown(markdown, 'telegram-html').map(({ format, plain }) => [format, plain]),
    ).toEqual([['telegram-html', 'A b & <c> d']]);
    expect(renderMarkdown(markdown, 'slack').map(({ format, plain }) => [format, plain])).toEqual([
      ['slack', 'A b & <c> d'],
    ]);
    expect(
      renderMarkdown(markdown, 'telegram').map(({ format, plain }) => [format, plain]),
    ).toEqual([['telegram', 'A b & <c> d']]);
  });

  const emphasis = 'Some **bold _nested_ text** and ~~gone~~.';
  it('bold, nested emphasis, strikethrough', () => {
    expect(render(emphasis, 'telegram')).toEqual([
      {
        text: 'Some bold nested text and gone.',
        entities: [
          { type: 'bold', offset: 5, length: 16 },
          { type: 'italic', offset: 10, length: 6 },
          { type: 'strikethrough', offset: 26, length: 4 },
        ],
      },
    ]);
    expect(render(emphasis, 'telegram-html')).toEqual([
      { text: 'Some <b>bold <i>nested</i> text</b> and <s>gone</s>.', parseMode: 'HTML' },
    ]);
    expect(texts(render(emphasis, 'slack'))).toEqual(['Some *bold _nested_ text* and ~gone~.']);
    expect(texts(render(emphasis, 'discord'))).toEqual([
      'Some **bold _nested_ text** and ~~gone~~.',
    ]);
    expect(texts(render(emphasis, 'plain'))).toEqual(['Some bold nested text and gone.']);
  });

  const code = 'Use `a*_<&` here.';
  it('inline code holding *_<& (escaped only where the format escapes)', () => {
    expect(render(code, 'telegram')).toEqual([
      { text: 'Use a*_<& here.', entities: [{ type: 'code', offset: 4, length: 5 }] },
    ]);
    expect(texts(render(code, 'telegram-html'))).toEqual(['Use <code>a*_&lt;&amp;</code> here.']);
    expect(texts(render(code, 'slack'))).toEqual(['Use `a*_&lt;&amp;` here.']);
    expect(texts(render(code, 'discord'))).toEqual(['Use `a*_<&` here.']);
    expect(texts(render(code, 'plain'))).toEqual(['Use a*_<& here.']);
  });

  const links = 'See [the docs](https://example.com/a_b) or https://x.org/p.';
  it('links and bare URLs', () => {
    expect(render(links, 'telegram')).toEqual([
      {
        text: 'See the docs or https://x.org/p.',
        entities: [
          { type: 'text_link', offset: 4, length: 8, url: 'https://example.com/a_b' },
          { type: 'text_link', offset: 16, length: 15, url: 'https://x.org/p' },
        ],
      },
    ]);
    expect(texts(render(links, 'telegram-html'))).toEqual([
      'See <a href="https://example.com/a_b">the docs</a> or <a href="https://x.org/p">https://x.org/p</a>.',
    ]);
    expect(texts(render(links, 'slack'))).toEqual([
      'See <https://example.com/a_b|the docs> or <https://x.org/p|https://x.org/p>.',
    ]);
    expect(texts(render(links, 'discord'))).toEqual([
      'See [the docs](<https://example.com/a_b>) or https://x.org/p.',
    ]);
    expect(texts(render(links, 'plain'))).toEqual(['See the docs or https://x.org/p.']);
  });

  it('a link no chat app takes (relative, javascript:) keeps its text, loses its target', () => {
    expect(render('[a](foo/bar) [b](javascript:alert(1))', 'telegram')).toEqual([
      { text: 'a [b](javascript:alert(1))', entities: [] },
    ]);
  });

  const fence = '```python\ndef f():\n\n    return 1\n```';
  it('fenced code with a language and a blank line', () => {
    expect(render(fence, 'telegram')).toEqual([
      {
        text: 'def f():\n\n    return 1',
        entities: [{ type: 'pre', offset: 0, length: 22, language: 'python' }],
      },
    ]);
    expect(texts(render(fence, 'telegram-html'))).toEqual([
      '<pre><code class="language-python">def f():\n\n    return 1</code></pre>',
    ]);
    // Slack fences take no language.
    expect(texts(render(fence, 'slack'))).toEqual(['```\ndef f():\n\n    return 1\n```']);
    expect(texts(render(fence, 'discord'))).toEqual(['```python\ndef f():\n\n    return 1\n```']);
    expect(texts(render(fence, 'plain'))).toEqual(['def f():\n\n    return 1']);
  });

  const table = '| Name | Qty |\n|:--|--:|\n| 漢字 | 2 |\n| 😀 ok | 10 |';
  it('a table with CJK and emoji as a padded monospace block (two columns each)', () => {
    const laidOut = 'Name  | Qty\n------|----\n漢字  |   2\n😀 ok |  10';
    expect(render(table, 'telegram')).toEqual([
      { text: laidOut, entities: [{ type: 'pre', offset: 0, length: 45 }] },
    ]);
    expect(texts(render(table, 'telegram-html'))).toEqual([`<pre>${laidOut}</pre>`]);
    expect(texts(render(table, 'slack'))).toEqual(['```\n' + laidOut + '\n```']);
    expect(texts(render(table, 'discord'))).toEqual(['```\n' + laidOut + '\n```']);
    expect(texts(render(table, 'plain'))).toEqual([laidOut]);
  });

  const heading = '## Setup *now*\n\nText.';
  it('a heading as a bold line; Discord keeps #', () => {
    expect(render(heading, 'telegram')).toEqual([
      {
        text: 'Setup now\n\nText.',
        entities: [
          { type: 'bold', offset: 0, length: 9 },
          { type: 'italic', offset: 6, length: 3 },
        ],
      },
    ]);
    expect(texts(render(heading, 'telegram-html'))).toEqual(['<b>Setup <i>now</i></b>\n\nText.']);
    expect(texts(render(heading, 'slack'))).toEqual(['*Setup _now_*\n\nText.']);
    expect(texts(render(heading, 'discord'))).toEqual(['## Setup _now_\n\nText.']);
    expect(texts(render('#### Deep', 'discord'))).toEqual(['### Deep']);
    expect(texts(render(heading, 'plain'))).toEqual(['Setup now\n\nText.']);
  });

  it('lists: bullets, numbers from the list start, nesting indented', () => {
    const lists = '- one\n- two\n  - nested\n\n3. three\n4. four';
    const shown = '• one\n• two\n   • nested\n\n3. three\n4. four';
    for (const format of ['telegram', 'telegram-html', 'slack', 'discord', 'plain'] as const) {
      expect(texts(render(lists, format))).toEqual([shown]);
    }
    expect(render(lists, 'telegram')[0].entities).toEqual([]);
  });

  const quote = '> quoted **bold**\n> line two';
  it('blockquotes', () => {
    expect(render(quote, 'telegram')).toEqual([
      {
        text: 'quoted bold\nline two',
        entities: [
          { type: 'blockquote', offset: 0, length: 20 },
          { type: 'bold', offset: 7, length: 4 },
        ],
      },
    ]);
    expect(texts(render(quote, 'telegram-html'))).toEqual([
      '<blockquote>quoted <b>bold</b>\nline two</blockquote>',
    ]);
    expect(texts(render(quote, 'slack'))).toEqual(['> quoted *bold*\n> line two']);
    expect(texts(render(quote, 'discord'))).toEqual(['> quoted **bold**\n> line two']);
    expect(texts(render(quote, 'plain'))).toEqual(['quoted bold\nline two']);
  });

  it('HTML in the text is text: escaped, never a tag', () => {
    const html = '<b>not a tag</b> & 1 < 2';
    expect(render(html, 'telegram')).toEqual([{ text: html, entities: [] }]);
    expect(texts(render(html, 'telegram-html'))).toEqual([
      '&lt;b&gt;not a tag&lt;/b&gt; &amp; 1 &lt; 2',
    ]);
    expect(texts(render(html, 'slack'))).toEqual(['&lt;b&gt;not a tag&lt;/b&gt; &amp; 1 &lt; 2']);
    expect(texts(render(html, 'discord'))).toEqual(['\\<b\\>not a tag\\</b\\> & 1 \\< 2']);
    expect(texts(render(html, 'plain'))).toEqual([html]);
  });

  it('Slack: a mark does not span a line break (closed before it, reopened after)', () => {
    expect(texts(render('**a\nb** c', 'slack'))).toEqual(['*a*\n*b* c']);
  });

  it('Slack: a marker next to a letter outside it gets a zero-width space (CJK, mid-word)', () => {
    expect(texts(render('这是**重要**的, foo*bar* and [a](https://x.y)z', 'slack'))).toEqual([
      '这是\u200b*重要*\u200b的, foo\u200b_bar_ and <https://x.y|a>z',
    ]);
  });
});

describe('renderMarkdown: splitting', () => {
  const words = Array.from({ length: 24 }, (_, index) => `w${index}`).join(' ');
  const bold = `Intro.\n\n**${words} <&>**`;

  it('splits between blocks first, then inside a paragraph at a space, bold closed and reopened', () => {
    expect(render(bold, 'telegram', 64)).toEqual([
      { text: 'Intro.', entities: [] },
      {
        text: 'w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17',
        entities: [{ type: 'bold', offset: 0, length: 61 }],
      },
      { text: 'w18 w19 w20 w21 w22 w23 <&>', entities: [{ type: 'bold', offset: 0, length: 27 }] },
    ]);
    expect(texts(render(bold, 'telegram-html', 64))).toEqual([
      'Intro.',
      '<b>w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17</b>',
      '<b>w18 w19 w20 w21 w22 w23 &lt;&amp;&gt;</b>',
    ]);
    // Slack and Discord count their markers: the cut comes earlier for Discord's `**`.
    expect(texts(render(bold, 'slack', 64))).toEqual([
      'Intro.',
      '*w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17*',
      '*w18 w19 w20 w21 w22 w23 &lt;&amp;&gt;*',
    ]);
    expect(texts(render(bold, 'discord', 64))).toEqual([
      'Intro.',
      '**w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16**',
      '**w17 w18 w19 w20 w21 w22 w23 \\<&\\>**',
    ]);
  });

  const code =
    '```js\n' + Array.from({ length: 8 }, (_, i) => `let v${i} = ${i};`).join('\n') + '\n```';
  it('a split code block is closed and reopened with its language, at a line break', () => {
    expect(render(code, 'telegram', 64)).toEqual([
      {
        text: 'let v0 = 0;\nlet v1 = 1;\nlet v2 = 2;\nlet v3 = 3;\nlet v4 = 4;',
        entities: [{ type: 'pre', offset: 0, length: 59, language: 'js' }],
      },
      {
        text: 'let v5 = 5;\nlet v6 = 6;\nlet v7 = 7;',
        entities: [{ type: 'pre', offset: 0, length: 35, language: 'js' }],
      },
    ]);
    expect(texts(render(code, 'discord', 64))).toEqual([
      '```js\nlet v0 = 0;\nlet v1 = 1;\nlet v2 = 2;\nlet v3 = 3;\n```',
      '```js\nlet v4 = 4;\nlet v5 = 5;\nlet v6 = 6;\nlet v7 = 7;\n```',
    ]);
    expect(texts(render(code, 'telegram-html', 64))).toEqual([
      '<pre><code class="language-js">let v0 = 0;\nlet v1 = 1;\nlet v2 = 2;\nlet v3 = 3;\nlet v4 = 4;</code></pre>',
      '<pre><code class="language-js">let v5 = 5;\nlet v6 = 6;\nlet v7 = 7;</code></pre>',
    ]);
  });

  it('a hard cut never splits a surrogate pair (64 units = 32 emoji)', () => {
    const emoji = '😀'.repeat(40);
    for (const format of ['telegram', 'telegram-html', 'slack', 'discord', 'plain'] as const) {
      expect(texts(render(emoji, format, 64))).toEqual(['😀'.repeat(32), '😀'.repeat(8)]);
    }
  });

  it('Telegram HTML counts visible characters, not the escapes', () => {
    const messages = render('&'.repeat(100), 'telegram-html', 64);
    expect(texts(messages)).toEqual(['&amp;'.repeat(64), '&amp;'.repeat(36)]);
  });

  it('default limits: 4096 / 4096 / 4000 / 2000, plain unlimited', () => {
    const long = 'word '.repeat(2000).trim(); // 9999 characters
    const lengths = (format: RenderFormat) =>
      texts(render(long, format)).map((text) => text.length);
    expect(lengths('telegram')).toEqual([4094, 4094, 1809]);
    expect(lengths('slack')).toEqual([3999, 3999, 1999]);
    expect(lengths('discord')).toEqual([1999, 1999, 1999, 1999, 1999]);
    expect(lengths('plain')).toEqual([9999]);
  });
});

describe('renderMarkdown: bad input renders', () => {
  const FORMATS = ['telegram', 'telegram-html', 'slack', 'discord', 'plain'] as const;
  const cases: Array<[string, string]> = [
    ['unclosed **', 'a **bold start and more'],
    ['an unclosed fence', 'text\n\n```ts\nconst a = 1;\n\nconst b'],
    ['HTML tags', '<script>alert(1)</script> <a href="x">y</a> &nbsp; &#1;'],
    ['50 KB of one word', 'x'.repeat(50_000)],
    ['lone surrogates', 'a\ud800b \udc00c 😀 \ud83d'],
    ['nothing visible', '   \n\n'],
    ['NUL and control characters', 'a\u0000b\u0007c'],
  ];
  for (const [name, markdown] of cases) {
    it(`${name}: every format, every property`, () => {
      for (const format of FORMATS) {
        expect(renderingProblems(markdown, format, renderMarkdown(markdown, format))).toEqual([]);
      }
    });
  }

  it('an unclosed ** is literal text; lone surrogates become U+FFFD', () => {
    expect(texts(render('a **b', 'telegram'))).toEqual(['a **b']);
    expect(texts(render('a\ud800b', 'plain'))).toEqual(['a\ufffdb']);
    expect(render('   \n\n', 'telegram')).toEqual([]);
  });

  it('50 KB of one word: hard cuts at the limit', () => {
    const messages = render('x'.repeat(50_000), 'telegram');
    expect(messages.map((message) => message.text.length)).toEqual([...Array(12).fill(4096), 848]);
  });
});

describe('renderMarkdown: options', () => {
  it('an unknown format is invalid-options naming the formats', () => {
    const call = () => renderMarkdown('x', 'viber' as RenderFormat);
    expect(call).toThrow(LlmRxError);
    expect(call).toThrow(
      'renderMarkdown: unknown format "viber"; use one of telegram, telegram-html, telegram-rich, slack, discord, whatsapp, googlechat, plain',
    );
    expect(() => renderMarkdown('x', 'toString' as RenderFormat)).toThrow(/unknown format/);
  });

  it('maxLength must be a whole number of at least 64', () => {
    expect(() => renderMarkdown('x', 'telegram', { maxLength: 10 })).toThrow(/maxLength/);
    expect(() => renderMarkdown('x', 'telegram', { maxLength: 100.5 })).toThrow(/maxLength/);
    let caught: unknown;
    try {
      renderMarkdown('x', 'slack', { maxLength: 0 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LlmRxError);
    expect((caught as LlmRxError).code).toBe('invalid-options');
    expect((caught as LlmRxError).message).toMatch(
      /^renderMarkdown: invalid options\n.*maxLength/s,
    );
  });

  it('markdown must be a string', () => {
    expect(() => renderMarkdown(42 as unknown as string, 'plain')).toThrow(
      'renderMarkdown: markdown must be a string, got number',
    );
  });
});

describe('renderMarkdown: whatsapp and googlechat', () => {
  const markdown =
    '## Plan\n\nUse **bold**, _it_, ~~old~~ and `x < y`; see [the docs](https://x.org/p) or https://x.org/q.\n\n```js\nlet a = 1;\n```';
  it('whatsapp: its markers, a link as text and (url), fences without a language', () => {
    expect(renderMarkdown(markdown, 'whatsapp').map((m) => m.text)).toEqual([
      '*Plan*\n\nUse *bold*, _it_, ~old~ and `x < y`; see the docs (https://x.org/p) or https://x.org/q.\n\n```\nlet a = 1;\n```',
    ]);
  });
  it('googlechat: its markup, links as <url|text>, a < kept from opening a mention', () => {
    expect(renderMarkdown(markdown, 'googlechat').map((m) => m.text)).toEqual([
      '*Plan*\n\nUse *bold*, _it_, ~old~ and `x \u2039 y`; see <https://x.org/p|the docs> or https://x.org/q.\n\n```\nlet a = 1;\n```',
    ]);
  });
});
