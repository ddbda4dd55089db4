// Telegram: plain text + Bot API entities, and the same entities written as Telegram HTML.
// Both count the entity-parsed text in UTF-16 units, so both split in the same places.

import { blockText, type Block, type Mark } from './blocks';
import type { Fragment, FormatWriter } from './fragment';
import type { TelegramEntity } from './types';
import { distinctMarks, walkRuns } from './walkRuns';

const BOLD: Mark = { type: 'bold' };

/**
 * Telegram's nesting rules: `code` and `pre` contain no other entity and are part of none but
 * `text_link`'s text… which may hold no `code` either. So a code span keeps only its code mark,
 * and a code span inside a link shows as linked text.
 */
function telegramMarks(marks: readonly Mark[]): Mark[] {
  const distinct = distinctMarks(marks);
  const code = distinct.find((mark) => mark.type === 'code');
  if (!code) return distinct;
  return distinct.some((mark) => mark.type === 'link')
    ? distinct.filter((mark) => mark.type !== 'code')
    : [code];
}

/** The block's runs, with a heading's bold mark outermost. */
function runsOf(block: Block & { kind: 'text' }) {
  return block.heading === undefined
    ? block.runs
    : block.runs.map((run) => ({ text: run.text, marks: [BOLD, ...run.marks] }));
}

const ENTITY_TYPE: Record<Mark['type'], TelegramEntity['type']> = {
  bold: 'bold',
  italic: 'italic',
  strikethrough: 'strikethrough',
  code: 'code',
  link: 'text_link',
};

/** `format: 'telegram'`: text and entities, offsets in UTF-16 code units. */
export const telegramWriter: FormatWriter = {
  block(block) {
    if (block.kind === 'code') {
      const pre: TelegramEntity = { type: 'pre', offset: 0, length: block.code.length };
      if (block.language) pre.language = block.language;
      return { text: block.code, length: block.code.length, entities: [pre] };
    }
    let text = '';
    const entities: TelegramEntity[] = [];
    const openEntities: TelegramEntity[] = [];
    walkRuns(runsOf(block), telegramMarks, {
      open(mark) {
        const entity: TelegramEntity = {
          type: ENTITY_TYPE[mark.type],
          offset: text.length,
          length: 0,
        };
        if (mark.url) entity.url = mark.url;
        entities.push(entity);
        openEntities.push(entity);
      },
      close() {
        const entity = openEntities.pop()!;
        entity.length = text.length - entity.offset;
      },
      text(part) {
        text += part;
      },
    });
    const kept = entities.filter((entity) => entity.length > 0);
    if (block.quote) kept.unshift({ type: 'blockquote', offset: 0, length: text.length });
    return { text, length: text.length, entities: kept };
  },
  message: (fragment) => ({ text: fragment.text, entities: fragment.entities }),
};

/** `&`, `<`, `>` (and `"` in attributes) as Telegram HTML wants them. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const HTML_TAG: Record<Mark['type'], string> = {
  bold: 'b',
  italic: 'i',
  strikethrough: 's',
  code: 'code',
  link: 'a',
};

/** `format: 'telegram-html'`: Telegram HTML; `length` is the visible text's UTF-16 length. */
export const telegramHtmlWriter: FormatWriter = {
  block(block): Fragment {
    const visible = blockText(block).length;
    let html = '';
    if (block.kind === 'code') {
      const code = escapeHtml(block.code);
      html = block.language
        ? `<pre><code class="language-${block.language}">${code}</code></pre>`
        : `<pre>${code}</pre>`;
      return { text: html, length: visible, entities: [] };
    }
    walkRuns(runsOf(block), telegramMarks, {
      open(mark) {
        html += mark.url
          ? `<a href="${escapeHtml(mark.url).replace(/"/g, '&quot;')}">`
          : `<${HTML_TAG[mark.type]}>`;
      },
      close(mark) {
        html += `</${HTML_TAG[mark.type]}>`;
      },
      text(part) {
        html += escapeHtml(part);
      },
    });
    if (block.quote) html = `<blockquote>${html}</blockquote>`;
    return { text: html, length: visible, entities: [] };
  },
  message: (fragment) => ({ text: fragment.text, parseMode: 'HTML' }),
};
