import MarkdownIt from 'markdown-it';

/**
 * The answer's markdown renderer. Raw HTML in the model's text is escaped (`html: false`) and the
 * page runs the result through DOMPurify as well; the e2e spec renders the final text with the
 * same options to compare.
 */
export function createMarkdown(): InstanceType<typeof MarkdownIt> {
  return new MarkdownIt({ html: false, linkify: true, typographer: false });
}
