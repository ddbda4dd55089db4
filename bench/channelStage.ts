// The channel stage measured after streamEvents: `channel('telegram')` when src/channels has
// it, else an interim chain of the operators that exist, clearly labelled as such.

import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../src/events';
import { firstLine } from './contenders';

type Stage = OperatorFunction<StreamEvent, StreamEvent>;
type StageFactory = (options: Record<string, unknown>) => Stage;

/** A stage to measure, or (without `stage`) why there is none. */
export interface ChannelStage {
  label: string;
  stage?: Stage;
  /** True when this is `channel('telegram')` itself, not the interim chain. */
  isChannel: boolean;
}

/** The operators of DESIGN §1, in order, with the telegram preset's options (DESIGN §6). */
export const INTERIM_CHAIN: Array<{ name: string; options: Record<string, unknown> }> = [
  { name: 'normalizeReasoning', options: { reasoning: 'drop' } },
  { name: 'sortByIndex', options: {} },
  { name: 'monotonicText', options: {} },
  { name: 'suppressSilent', options: {} },
  { name: 'bufferChunk', options: { minChars: 800, maxChars: 4096, idleMs: 1000 } },
];

/** `channel('telegram')` from src/channels, else the interim chain of src/operators. */
export async function loadTelegramStage(): Promise<ChannelStage> {
  let whyNoChannel = 'no `channel` export yet';
  try {
    const module: Record<string, unknown> = await import('../src/channels/channel');
    if (typeof module.channel === 'function') {
      const stage = (module.channel as (name: string) => Stage)('telegram');
      return { label: "llm-rx streamEvents + channel('telegram')", stage, isChannel: true };
    }
  } catch (error) {
    whyNoChannel = `src/channels/channel does not load: ${firstLine(error)}`;
  }
  return loadInterimChain(whyNoChannel);
}

async function loadInterimChain(whyNoChannel: string): Promise<ChannelStage> {
  const stages: Stage[] = [];
  const names: string[] = [];
  for (const { name, options } of INTERIM_CHAIN) {
    try {
      const module: Record<string, unknown> = await import(`../src/operators/${name}`);
      const factory = module[name] as StageFactory | undefined;
      if (typeof factory !== 'function') continue;
      stages.push(factory(options));
      names.push(name);
    } catch {
      // Not written yet: the interim chain holds what exists.
    }
  }
  if (stages.length === 0) {
    return {
      label: `channel('telegram'): not available yet (${whyNoChannel}; no channel operator exists yet)`,
      isChannel: false,
    };
  }
  const stage: Stage = (source) => stages.reduce((piped, next) => piped.pipe(next), source);
  return {
    label: `INTERIM (no channel() yet): streamEvents + ${names.join(' → ')}`,
    stage,
    isChannel: false,
  };
}
