// WhatsApp and Google Chat: the same marker family as Slack mrkdwn (`*bold*`, `_italic_`,
// `~strike~`, backticks), each with its own way of writing links and nothing to escape.

import { distinctMarks } from './walkRuns';
import { boldHeading, breakFences, markupWriter, quoteLines, SLACK_MARKER } from './markupWriters';

/**
 * `format: 'whatsapp'`: WhatsApp's formatting (`*bold*`, `_italic_`, `~strike~`, `` `code` ``,
 * ```` ``` ```` blocks). WhatsApp has no link markup: a link shows its text, then its address in
 * parentheses (a bare URL once); WhatsApp links the address itself.
 */
export const whatsappWriter = markupWriter(
  {
    // A backtick inside inline code would end it: such a span shows as plain text.
    marks: (marks, text) =>
      distinctMarks(marks).filter((mark) => mark.type !== 'code' || !text.includes('`')),
    open: (mark) => (mark.type === 'link' ? '' : SLACK_MARKER[mark.type]),
    close: (mark) =>
      mark.type === 'link' ? (mark.bare ? '' : ` (${mark.url})`) : SLACK_MARKER[mark.type],
    text: (text) => breakFences(text),
    // WhatsApp shows no language line: the block holds only the code.
    codeBlock: (code) => '```\n' + breakFences(code) + '\n```',
    marksEndAtLineBreaks: true,
    markersApartFromWords: true,
    heading: boldHeading,
  },
  quoteLines,
);

/**
 * `format: 'googlechat'`: Google Chat's own markup (`MARKUP_SYNTAX_CHAT`): `*bold*`,
 * `_italic_`, `~strike~`, backticks, and links as `<url|text>`.
 */
export const googleChatWriter = markupWriter(
  {
    marks: (marks, text) =>
      distinctMarks(marks).filter((mark) => mark.type !== 'code' || !text.includes('`')),
    open: (mark) =>
      mark.type === 'link' ? (mark.bare ? '' : `<${mark.url}|`) : SLACK_MARKER[mark.type],
    close: (mark) => (mark.type === 'link' ? (mark.bare ? '' : '>') : SLACK_MARKER[mark.type]),
    // `<` would open a link or a mention (`<users/all>`): a lookalike keeps the text as written.
    text: (text) => breakFences(text.replace(/</g, '\u2039')),
    codeBlock: (code) => '```\n' + breakFences(code) + '\n```',
    marksEndAtLineBreaks: true,
    markersApartFromWords: true,
    heading: boldHeading,
  },
  quoteLines,
);
