import { TestScheduler } from 'rxjs/testing';
import { channel } from '../../src/channels/channel';
import { channelNames, channelPresets } from '../../src/channels/presets';
import { LlmRxError } from '../../src/errors';
import type { StreamEvent } from '../../src/events';

describe('channelPresets', () => {
  it('holds the DESIGN §6 table', () => {
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
    expect(() => channel('whatsapp' as never)).toThrow(
      new LlmRxError(
        'invalid-options',
        'channel: unknown channel "whatsapp"; known channels: web, telegram, discord, slack, signal, msteams, sms.',
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
