import type { Block } from './blocks';
import type { RenderedMessage, TelegramEntity } from './types';

/** A block or a run of blocks, rendered: its text, what counts toward the limit, its entities. */
export interface Fragment {
  text: string;
  /** The length the format's limit counts (rendered characters, or visible ones for Telegram). */
  length: number;
  /** Telegram entities, offsets within `text` (empty for other formats). */
  entities: TelegramEntity[];
  /** The visible text, as `format: 'plain'` shows it (set by the layout, not by writers). */
  plain?: string;
}

/** How one format renders a block, and turns a message's fragment into a RenderedMessage. */
export interface FormatWriter {
  block(block: Block): Fragment;
  message(fragment: Fragment): Omit<RenderedMessage, 'format' | 'plain'>;
}

/** `first`, then `gap`, then `second`, as one fragment (the gap is visible text: it counts). */
export function joinFragments(first: Fragment, gap: string, second: Fragment): Fragment {
  const shift = first.text.length + gap.length;
  return {
    text: first.text + gap + second.text,
    length: first.length + gap.length + second.length,
    plain: (first.plain ?? '') + gap + (second.plain ?? ''),
    entities: [
      ...first.entities,
      ...second.entities.map((entity) => ({ ...entity, offset: entity.offset + shift })),
    ],
  };
}
