import { statusLineOf, withStatusLine, STATUS_LINE_MAX_CHARS } from '../../src/delivery/statusLine';
import type { ToolStatus } from '../../src/channels/messageEditPlanner';

const tool = (id: string, status: ToolStatus['status'], name = id): ToolStatus => ({
  id,
  name,
  status,
});

describe('statusLineOf', () => {
  it('names the running tools when text shows, and nothing once none runs', () => {
    expect(statusLineOf([tool('a', 'done'), tool('web_search', 'running')], true)).toBe(
      '⏳ web\\_search…',
    );
    expect(statusLineOf([tool('a', 'done'), tool('b', 'error')], true)).toBe('');
    expect(statusLineOf(undefined, true)).toBe('');
  });

  it('shows every tool with its icon before any text', () => {
    expect(statusLineOf([tool('a', 'done'), tool('b', 'error'), tool('c', 'running')], false)).toBe(
      '✓ a · ✗ b · ⏳ c',
    );
  });

  it('stays within its budget however many tools run', () => {
    const many = Array.from({ length: 80 }, (_, i) => tool(`tool_number_${i}`, 'running'));
    const line = statusLineOf(many, true);
    expect(line.length).toBeLessThanOrEqual(STATUS_LINE_MAX_CHARS);
    expect(line).toMatch(/ \+\d+ more…$/);
  });

  it('joins running tools with commas, shows a title before a name, and nothing for no tools', () => {
    const titled = { ...tool('b', 'running'), title: 'Reading the page' };
    expect(statusLineOf([tool('a', 'running'), titled], true)).toBe('⏳ a, Reading the page…');
    expect(statusLineOf([titled], false)).toBe('⏳ Reading the page');
    expect(statusLineOf(undefined, false)).toBe('');
    expect(statusLineOf([], false)).toBe('');
  });

  it('leaves the names as they are without markdown', () => {
    expect(statusLineOf([tool('web_search', 'running')], true, false)).toBe('⏳ web_search…');
    expect(statusLineOf([tool('a*b', 'done')], false, false)).toBe('✓ a*b');
  });

  it('takes a line of exactly the budget; past it, fewer names and then the count of tools', () => {
    const exact = tool('x'.repeat(STATUS_LINE_MAX_CHARS - 2), 'done');
    expect(statusLineOf([exact], false)).toBe(`✓ ${'x'.repeat(STATUS_LINE_MAX_CHARS - 2)}`);
    const longer = tool('x'.repeat(STATUS_LINE_MAX_CHARS - 1), 'done');
    expect(statusLineOf([longer], false)).toBe('1 tools');
    const running = tool('y'.repeat(STATUS_LINE_MAX_CHARS), 'running');
    expect(statusLineOf([running, running], true)).toBe('⏳ 2 tools…');
  });
});

describe('withStatusLine', () => {
  const edit = { op: 'edit' as const, message: 0, text: 'Hi', progress: [tool('f', 'running')] };

  it('puts the line under the text and drops rendered (the transport renders the preview)', () => {
    const rendered = { text: 'Hi', plain: 'Hi', format: 'plain' as const };
    expect(withStatusLine({ ...edit, rendered }, 100)).toEqual({ ...edit, text: 'Hi\n\n⏳ f…' });
  });

  it('leaves the edit as it is when the line would pass the limit or there is none', () => {
    expect(withStatusLine(edit, 7)).toBe(edit);
    const done = { ...edit, progress: [tool('f', 'done')] };
    expect(withStatusLine(done, 100)).toBe(done);
  });

  it('takes a text of exactly maxChars with its line', () => {
    expect(withStatusLine(edit, 8)).toEqual({ ...edit, text: 'Hi\n\n⏳ f…' });
  });

  it('with no text yet (only whitespace), the line of every tool is the text', () => {
    const progress = [tool('f', 'running'), tool('g', 'done')];
    expect(withStatusLine({ ...edit, text: ' \n', progress }, 100)).toEqual({
      ...edit,
      progress,
      text: '⏳ f · ✓ g',
    });
    expect(withStatusLine({ ...edit, text: '', progress }, 100)).toEqual({
      ...edit,
      progress,
      text: '⏳ f · ✓ g',
    });
  });
});
