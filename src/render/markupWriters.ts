// Slack mrkdwn, Discord markdown and plain text: a block becomes one string; its length is what
// the app counts.

import { blockText, type Block, type Mark, type Run, type TextBlock } from './blocks';
import type { FormatWriter, Fragment } from './fragment';
import { distinctMarks, walkRuns, type MarkFilter } from './walkRuns';

export const BOLD: Mark = { type: 'bold' };

/** A three-backtick run inside code would close the block: a zero-width space breaks it. */
export const breakFences = (code: string) => code.replace(/```/g, '``\u200b`');

/** Every line of `text` as a quote line (Slack and Discord quote line by line, one level). */
export const quoteLines = (text: string) => text.replace(/^/gm, '> ');

const fragment = (text: string): Fragment => ({ text, length: text.length, entities: [] });

export interface MarkupSyntax {
  marks: MarkFilter;
  open(mark: Mark): string;
  close(mark: Mark): string;
  text(text: string, marks: readonly Mark[], atLineStart: boolean): string;
  codeBlock(code: string, language: string): string;
  /**
   * Markers count only next to a non-word character (Slack: `a*b*c` is not bold): a
   * zero-width space goes between a marker and a letter or digit outside it.
   */
  markersApartFromWords?: boolean;
  /** Marks cannot span lines (Slack): close them before a line break, reopen after. */
  marksEndAtLineBreaks?: boolean;
  /** A heading's line: Discord keeps `#`, the others show it bold. */
  heading(level: number, runs: TextBlock['runs']): { prefix: string; runs: TextBlock['runs'] };
}

const ZERO_WIDTH_SPACE = '\u200b';
const WORD_END = /[\p{L}\p{N}]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;

/** A run in lines, each line break a run of its own without marks. */
const splitAtLineBreaks = (run: Run): Run[] =>
  run.text.split(/(\n)/).map((text) => ({ text, marks: text === '\n' ? [] : run.marks }));

export function markupWriter(syntax: MarkupSyntax, quote: (text: string) => string): FormatWriter {
  return {
    block(block: Block) {
      if (block.kind === 'code') {
        const text = syntax.codeBlock(block.code, block.language);
        return fragment(block.quote ? quote(text) : text);
      }
      const { prefix, runs } =
        block.heading === undefined
          ? { prefix: '', runs: block.runs }
          : syntax.heading(block.heading, block.runs);
      const lines = syntax.marksEndAtLineBreaks ? runs.flatMap(splitAtLineBreaks) : runs;
      let text = prefix;
      let closedAt = -1;
      const apartFromWords = syntax.markersApartFromWords === true;
      walkRuns(lines, syntax.marks, {
        open(mark) {
          if (apartFromWords && mark.type !== 'link' && WORD_END.test(text))
            text += ZERO_WIDTH_SPACE;
          text += syntax.open(mark);
        },
        close(mark) {
          text += syntax.close(mark);
          if (mark.type !== 'link') closedAt = text.length;
        },
        text(part, marks) {
          if (apartFromWords && closedAt === text.length && WORD_START.test(part)) {
            text += ZERO_WIDTH_SPACE;
          }
          text += syntax.text(part, marks, text === prefix || text.endsWith('\n'));
        },
      });
      return fragment(block.quote ? quote(text) : text);
    },
    message: (whole) => ({ text: whole.text }),
  };
}

export const boldHeading = (_level: number, runs: TextBlock['runs']) => ({
  prefix: '',
  runs: runs.map((run) => ({ text: run.text, marks: [BOLD, ...run.marks] })),
});

const escapeSlack = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const SLACK_MARKER: Record<Exclude<Mark['type'], 'link'>, string> = {
  bold: '*',
  italic: '_',
  strikethrough: '~',
  code: '`',
};

/** `format: 'slack'`: mrkdwn. */
export const slackWriter = markupWriter(
  {
    // Slack has no way to put a backtick inside inline code: such a span shows as plain text.
    marks: (marks, text) =>
      distinctMarks(marks).filter((mark) => mark.type !== 'code' || !text.includes('`')),
    open: (mark) => (mark.type === 'link' ? `<${mark.url}|` : SLACK_MARKER[mark.type]),
    close: (mark) => (mark.type === 'link' ? '>' : SLACK_MARKER[mark.type]),
    text: (text) => breakFences(escapeSlack(text)),
    codeBlock: (code) => '```\n' + breakFences(escapeSlack(code)) + '\n```',
    marksEndAtLineBreaks: true,
    markersApartFromWords: true,
    heading: boldHeading,
  },
  quoteLines,
);

const DISCORD_MARKER: Record<Exclude<Mark['type'], 'link' | 'code'>, string> = {
  bold: '**',
  italic: '_',
  strikethrough: '~~',
};

/** Discord markdown: `\` escapes any punctuation, so escaping the syntax characters is safe. */
function escapeDiscord(text: string, atLineStart: boolean): string {
  const escaped = text.replace(/[\\*_~`|<>[\]]/g, '\\$&');
  return escaped.replace(atLineStart ? /(^|\n)([#>+-])/g : /(\n)([#>+-])/g, '$1\\$2');
}

/** Inline code between backticks; doubled (with spaces) when the code holds a backtick. */
const discordCode = (raw: string, code = breakFences(raw)) =>
  code.includes('`') ? `\`\` ${code} \`\`` : `\`${code}\``;

/** `format: 'discord'`: markdown as Discord renders it. A bare URL stays bare (Discord links it). */
export const discordWriter = markupWriter(
  {
    marks: distinctMarks,
    open: (mark) =>
      mark.type === 'link'
        ? mark.bare
          ? ''
          : '['
        : mark.type === 'code'
          ? ''
          : DISCORD_MARKER[mark.type],
    close: (mark) =>
      mark.type === 'link'
        ? mark.bare
          ? ''
          : `](<${mark.url}>)`
        : mark.type === 'code'
          ? ''
          : DISCORD_MARKER[mark.type],
    text(text, marks, atLineStart) {
      // Code spans are leaves (markdown-it gives each one run): the run is the whole span.
      if (marks.some((mark) => mark.type === 'code')) return discordCode(text);
      if (marks.some((mark) => mark.bare)) return text;
      return escapeDiscord(text, atLineStart);
    },
    codeBlock: (code, language) => '```' + language + '\n' + breakFences(code) + '\n```',
    heading: (level, runs) => ({ prefix: '#'.repeat(Math.min(level, 3)) + ' ', runs }),
  },
  quoteLines,
);

/** `format: 'plain'`: the visible text, markers removed. */
export const plainWriter: FormatWriter = {
  block: (block) => fragment(blockText(block)),
  message: (whole) => ({ text: whole.text }),
};
