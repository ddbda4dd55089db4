import { StreamEvent } from '../../src/events';
import { isTerminal } from '../../src/terminalEvents';
import { describeCorpus } from '../helpers/corpus';
import { runCliInProcess } from './runCliInProcess';

describeCorpus('llm-rx replay <capture> --channel telegram --speed 0 --json', (captures) => {
  // A multi-response file is several captures for the corpus helper, one file for the CLI.
  const files = new Map(captures.map((capture) => [capture.name.split('#')[0], capture.path]));

  it.each([...files])(
    '%s: exits 1 only if failed, prints exactly one terminal line, last',
    async (_name, path) => {
      const run = await runCliInProcess([
        'replay',
        path,
        '--channel',
        'telegram',
        '--speed',
        '0',
        '--json',
      ]);
      expect(run.stderr).toBe('');
      const lines = run.stdout.trimEnd().split('\n');
      const events = lines.map((line) => {
        const { atMs, ...event } = JSON.parse(line) as { atMs: number };
        expect(typeof atMs).toBe('number');
        return { atMs, event: StreamEvent.parse(event) };
      });
      expect(events.filter(({ event }) => isTerminal(event))).toHaveLength(1);
      expect(isTerminal(events[events.length - 1].event)).toBe(true);
      expect(run.code).toBe(events[events.length - 1].event.type === 'failed' ? 1 : 0);
      // Times only move forward, and telegram never shows reasoning.
      events.forEach(({ atMs }, index) => {
        if (index > 0) expect(atMs).toBeGreaterThanOrEqual(events[index - 1].atMs);
      });
      expect(events.some(({ event }) => event.type.startsWith('reasoning-'))).toBe(false);
      // Text reaches a telegram user only as blocks, each within the channel's 4096 characters.
      expect(events.some(({ event }) => event.type === 'text-delta')).toBe(false);
      for (const { event } of events) {
        if (event.type === 'block') expect(event.text.length).toBeLessThanOrEqual(4096);
      }
    },
  );
});
