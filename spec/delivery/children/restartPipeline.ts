import type { ChannelOverrides } from '../../../src/channels/channel';

/**
 * The pipeline settings the restart spec and its bot processes share: smaller blocks and
 * messages split the repo's fixture over several messages; no idle flush, so that a replay cuts
 * the same blocks whatever its timing.
 */
export const restartPipeline = {
  channel: { minChars: 100, maxChars: 300, idleMs: 600_000 } satisfies ChannelOverrides,
  edits: { maxMessageChars: 400, render: 'telegram' as const },
};
