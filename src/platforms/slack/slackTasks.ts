// Tool progress in a Slack stream: `task_update` chunks (docs.slack.dev, chat.appendStream
// "Using the chunks parameter"), sent once per tool status, beside the streamed markdown.

import type { MessageEdit } from '../../channels/messageEditPlanner';

/** A `task_update` chunk (chat.startStream / appendStream / stopStream `chunks`). */
export interface TaskChunk {
  type: 'task_update';
  id: string;
  title: string;
  status: 'in_progress' | 'complete' | 'error';
}

const TASK_STATUS = { running: 'in_progress', done: 'complete', error: 'error' } as const;

/** The task chunks `edit.progress` holds that `ref` has not shown yet (title ≤ 256 characters). */
export function newTasks(
  ref: { tasks?: Record<string, TaskChunk['status']> },
  edit: MessageEdit,
): TaskChunk[] {
  return (edit.progress ?? [])
    .map((tool): TaskChunk => ({
      type: 'task_update',
      id: tool.id,
      title: (tool.title ?? tool.name).slice(0, 256),
      status: TASK_STATUS[tool.status],
    }))
    .filter((task) => ref.tasks?.[task.id] !== task.status);
}

/**
 * The text and tasks of one stream request: `markdown_text` alone, or, with tasks, everything
 * as `chunks` (a `markdown_text` chunk first) — never both fields in one request.
 */
export function streamContent(text: string, tasks: TaskChunk[]): Record<string, unknown> {
  if (tasks.length === 0) return text === '' ? {} : { markdown_text: text };
  const markdown = text === '' ? [] : [{ type: 'markdown_text', text }];
  return { chunks: [...markdown, ...tasks] };
}
