import { TestScheduler } from 'rxjs/testing';
import { channel } from '../../src/channels/channel';
import { channelNames, channelPresets } from '../../src/channels/presets';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';

describe('channelPresets', () => {
  it('holds the table of presets (limits and pacing per chat app)', () => {
    const table = Object.fromEntries(
      channelNames.map((name) => {
        const { minChars, maxChars, idleMs, mode, reasoning } = channelPresets[name];
        return [name, [minChars, maxChars, idleMs, mode, reasoning]];
      }),
    );
    expect(table).toEqual({
      web: [undefined, undefined, undefined, undefined, 'keep'],
      telegram: [800, 4096, 1000, 'stream', 'drop'],
      discord: [1500, 2000, 1000, 'stream', 'drop'],
      slack: [1500, 4000, 1000, 'stream', 'drop'],
      signal: [1500, 2000, 1000, 'stream', 'drop'],
      msteams: [1500, 4000, 1000, 'stream', 'drop'],
      sms: [120, 160, 1000, 'stream', 'drop'],
      whatsapp: [1500, 4096, 1000, 'stream', 'drop'],
      googlechat: [1500, 4096, 1000, 'stream', 'drop'],
    });
  });

  it('every block fits one message of its platform, and says where the limit comes from', () => {
    for (const name of channelNames) {
      const preset = channelPresets[name];
      if (preset.maxChars !== undefined) {
        expect(preset.maxChars).toBeLessThanOrEqual(preset.maxMessageChars!);
        expect(preset.minChars!).toBeLessThan(preset.maxChars);
      }
      expect(preset.limitSource.length).toBeGreaterThan(20);
    }
  });

  it('is frozen: a preset cannot be changed by accident', () => {
    expect(Object.isFrozen(channelPresets)).toBe(true);
  });
});

describe('channel() construction', () => {
  it('an unknown name throws at once, naming the known channels', () => {
    expect(() => channel('viber' as never)).toThrow(
      new LlmRxError(
        'invalid-options',
        'channel: unknown channel "viber"; known channels: web, telegram, discord, slack, signal, msteams, sms, whatsapp, googlechat.',
      ),
    );
  });

  it('rejects a misspelt override, a bad value, and minChars above maxChars', () => {
    expect(() => channel('slack', { minchars: 10 } as never)).toThrow(
      /channel\("slack"\): invalid options[\s\S]*minchars/,
    );
    expect(() => channel('slack', { idleMs: -1 })).toThrow(/idleMs/);
    expect(() => channel('sms', { minChars: 500 })).toThrow(
      'channel("sms"): minChars (500) must not exceed maxChars (160).',
    );
  });

  it('web chunks only when given both minChars and maxChars', () => {
    expect(() => channel('web', { maxChars: 100 })).toThrow(
      /chunking needs both minChars and maxChars/,
    );
    expect(() => channel('web', { minChars: 10, maxChars: 100 })).not.toThrow();
  });

  it('web never makes blocks, whatever the text length', () => {
    new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(
      ({ cold, expectObservable }) => {
        const long = 'Word. '.repeat(2000).trim();
        const source = cold<StreamEvent>('-a-(c|)', {
          a: { type: 'text-delta', id: 't', delta: long },
          c: { type: 'completed' },
        });
        expectObservable(source.pipe(channel('web'))).toBe('-a-(c|)', {
          a: { type: 'text-delta', id: 't', delta: long },
          c: { type: 'completed' },
        });
      },
    );
  });
});

describe('the channelPresets doc example', () => {
  const sentences = Array.from(
    { length: 80 },
    (_, i) => `Sentence ${String(i + 1).padStart(2, '0')} of the long answer.`,
  );
  const text = sentences.join(' '); // one paragraph: past discord's maxChars, within slack's

  it('a whole preset does not spread into overrides: maxMessageChars is not an override', () => {
    expect(() => channel('discord', { ...channelPresets.slack } as never)).toThrow(
      /channel\("discord"\): invalid options[\s\S]*maxMessageChars/,
    );
  });

  it('discord with slack block sizes and reasoning kept: one 2559-character idle block', () => {
    expect(text.length).toBe(2559);
    expect(text.length).toBeGreaterThan(channelPresets.discord.maxChars!);
    new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(
      ({ cold, expectObservable, expectSubscriptions }) => {
        // Exactly the example of the channelPresets doc comment (src/channels/presets.ts).
        const { minChars, maxChars, idleMs, mode } = channelPresets.slack;
        const operator = channel('discord', {
          minChars,
          maxChars,
          idleMs,
          mode,
          reasoning: 'keep',
        });

        const values: Record<string, StreamEvent> = {
          r: { type: 'reasoning-start', id: 'r', index: 0 },
          d: { type: 'reasoning-delta', id: 'r', index: 0, delta: 'Plan.', kind: 'text' },
          n: { type: 'reasoning-end', id: 'r', index: 0 },
          s: { type: 'text-start', id: 't' },
          a: { type: 'text-delta', id: 't', delta: text },
          e: { type: 'text-end', id: 't' },
          f: { type: 'finish', reason: 'stop' },
          c: { type: 'completed', finishReason: 'stop' },
        };
        const source = cold<StreamEvent>('-r-d-n-s-a 1500ms (efc|)', values);
        // discord alone would cut a size block at 2000; slack's maxChars 4000 holds the
        // paragraph until the 1000 ms idle flush. Reasoning passes (discord drops it).
        expectObservable(source.pipe(operator)).toBe('-r-d-n---s 999ms x 500ms (efc|)', {
          ...values,
          x: { type: 'block', text, seq: 0, reason: 'idle' },
        });
        expectSubscriptions(source.subscriptions).toBe('^ 1509ms !');
      },
    );
  });
});
