import type { ToolCallEvent } from '../events';

/**
 * The `tool-call` for a finished call, `inputText` parsed as JSON — the same rule as the
 * openai-chat decoder: empty input (a tool without parameters: Anthropic `tool_use` without
 * `input_json_delta`, Responses `arguments: ""`) is `input: {}`; text that is not JSON gives
 * `input: null` and says why in `error`. The call is never dropped.
 */
export function toolCallEvent(id: string, name: string, inputText: string): ToolCallEvent {
  const event: ToolCallEvent = { type: 'tool-call', id, name, input: {}, inputText };
  if (inputText.trim() === '') return event;
  try {
    event.input = JSON.parse(inputText);
  } catch (error) {
    event.input = null;
    event.error = `Tool call ${id}: the arguments are not valid JSON (${(error as Error).message}).`;
  }
  return event;
}

/** What `full` adds to what was streamed; nothing when it does not extend it. */
export function missingSuffix(streamed: string, full: string): string {
  return full.length > streamed.length && full.startsWith(streamed)
    ? full.slice(streamed.length)
    : '';
}
