/**
 * At most `max` characters of `text`, quoted, with an ellipsis and the full length when cut: how
 * an error message shows a payload (payloads are never logged whole). Lives with the bytes layer,
 * which uses it for bodies that are not streams; the decoders use it for payloads.
 */
export function excerpt(text: string, max = 80): string {
  const oneLine = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${oneLine}… (${text.length} characters)` : oneLine;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** True when `body` is an HTML page (a proxy's or gateway's error page), not a message. */
export function looksLikeHtml(body: string): boolean {
  return /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<title[\s>]|<center[\s>]|<h1[\s>])/i.test(
    body,
  );
}

/** The text a person would read on an HTML page: no tags, scripts, styles or comments. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * How an error message shows a body that reaches people (a browser, a chat): {@link excerpt}
 * of it, except that an HTML page is named by its title (or its text, stripped of markup), never
 * shown as markup: `an HTML page titled "502 Bad Gateway"`.
 */
export function bodyExcerpt(body: string, max = 200): string {
  if (!looksLikeHtml(body)) return excerpt(body, max);
  const title = textOfHtml(/<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(body)?.[1] ?? '');
  if (title !== '') return `an HTML page titled ${excerpt(title, max)}`;
  const text = textOfHtml(body);
  return text === '' ? 'an empty HTML page' : `an HTML page reading ${excerpt(text, max)}`;
}
