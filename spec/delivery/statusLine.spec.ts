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
});
