import { renderMarkdown } from '../../src/render/renderMarkdown';
import type { RenderFormat } from '../../src/render/types';

// A link keeps its URL as the model wrote it: parentheses, non-ASCII paths and query strings
// are not percent-encoded (markdown-it's normalizeLink would). Only absolute http(s) is a link.

const markdown =
  'See [Foo](https://en.wikipedia.org/wiki/Foo_(bar)), ' +
  'https://en.wikipedia.org/wiki/Baz_(qux) and ' +
  '[Größe](https://de.wikipedia.org/wiki/Größe?a=1&b=(2)).';
const wiki = 'https://en.wikipedia.org/wiki/Foo_(bar)';
const bare = 'https://en.wikipedia.org/wiki/Baz_(qux)';
const german = 'https://de.wikipedia.org/wiki/Größe?a=1&b=(2)';

const textOf = (format: RenderFormat, input = markdown) =>
  renderMarkdown(input, format).map((message) => message.text);

describe('links keep the URL as written', () => {
  it('telegram: text_link entities carry the URL unchanged', () => {
    expect(renderMarkdown(markdown, 'telegram')).toEqual([
      {
        text: `See Foo, ${bare} and Größe.`,
        entities: [
          { type: 'text_link', offset: 4, length: 3, url: wiki },
          { type: 'text_link', offset: 9, length: bare.length, url: bare },
          { type: 'text_link', offset: 9 + bare.length + 5, length: 5, url: german },
        ],
        format: 'telegram',
        plain: `See Foo, ${bare} and Größe.`,
      },
    ]);
  });

  it('telegram-html: href unchanged, only & and " escaped', () => {
    expect(textOf('telegram-html')).toEqual([
      `See <a href="${wiki}">Foo</a>, <a href="${bare}">${bare}</a> and ` +
        '<a href="https://de.wikipedia.org/wiki/Größe?a=1&amp;b=(2)">Größe</a>.',
    ]);
  });

  it('slack: <url|text> with the URL unchanged', () => {
    expect(textOf('slack')).toEqual([
      `See <${wiki}|Foo>, <${bare}|${bare}> and <${german}|Größe>.`,
    ]);
  });

  it('discord: [text](<url>) with the URL unchanged, a bare URL stays bare', () => {
    expect(textOf('discord')).toEqual([`See [Foo](<${wiki}>), ${bare} and [Größe](<${german}>).`]);
  });

  it('an unbalanced parenthesis inside <…> and a percent escape stay as written', () => {
    const input = '[a](<https://x.org/a)b>) [c](https://x.org/c%20d)';
    expect(renderMarkdown(input, 'telegram')[0].entities).toEqual([
      { type: 'text_link', offset: 0, length: 1, url: 'https://x.org/a)b' },
      { type: 'text_link', offset: 2, length: 1, url: 'https://x.org/c%20d' },
    ]);
    expect(textOf('slack', input)).toEqual(['<https://x.org/a)b|a> <https://x.org/c%20d|c>']);
  });

  it('still only absolute http(s): relative, mailto and javascript: keep their text only', () => {
    const input = '[a](/docs) [b](mailto:x@y.org) [c](javascript:alert(1)) [d](ftp://x.org/f)';
    expect(renderMarkdown(input, 'telegram')).toEqual([
      {
        text: 'a b [c](javascript:alert(1)) d',
        entities: [],
        format: 'telegram',
        plain: 'a b [c](javascript:alert(1)) d',
      },
    ]);
  });
});
