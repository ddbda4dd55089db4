import type { RenderedMessage } from '../render/types';

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/**
 * The visible text of a rendered message, without formatting: the text itself beside entities,
 * or Telegram HTML with its tags removed and `&amp;` `&lt;` `&gt;` `&quot;` `&#NN;` decoded.
 */
export function plainTextOf(rendered: RenderedMessage): string {
  if (rendered.parseMode !== 'HTML') return rendered.text;
  return rendered.text
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return HTML_ENTITIES[name.toLowerCase()] ?? whole;
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
}
