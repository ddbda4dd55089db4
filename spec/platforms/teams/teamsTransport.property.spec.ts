import fc from 'fast-check';
import { from, lastValueFrom, toArray } from 'rxjs';
import type { MessageEdit } from '../../../src/channels/messageEditPlanner';
import { deliver } from '../../../src/delivery/deliver';
import { discordPieces } from '../../../src/platforms/discord/discordTransport';
import {
  cutChunks,
  teamsTransport,
  type TeamsMessageRef,
} from '../../../src/platforms/teams/teamsTransport';
import { startFakeTeamsApi } from '../../helpers/teams/fakeTeamsApi';

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
const visible = (text: string) => text.replace(/\s/g, '');
const words = fc.array(
  fc.oneof(fc.stringMatching(/^[a-z]{1,12}$/), fc.constantFrom(' ', '\n', '\n\n', '  ')),
  { minLength: 1, maxLength: 40 },
);

describe('Teams and Discord pieces', () => {
  it('cutChunks keeps every visible character, in order, each chunk within 28,000', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 1, max: 4000 }), (pieces, times) => {
        const text = pieces.join('').repeat(times);
        const chunks = cutChunks(text);
        expect(chunks.every((c) => c.text.length <= 28000 && c.text.trim() !== '')).toBe(true);
        expect(visible(chunks.map((c) => c.text).join(''))).toBe(visible(text));
        expect(chunks.reduce((sum, c) => sum + c.consumed, 0)).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 60 },
    );
  });

  it('discordPieces of a long discord rendering keep every visible character within 2000', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 1, max: 400 }), (pieces, times) => {
        const text = pieces.join('').repeat(times).trim();
        fc.pre(text !== '');
        const edit: MessageEdit = {
          op: 'send',
          message: 0,
          text,
          rendered: { text, format: 'discord', plain: text },
        };
        const result = discordPieces(edit);
        expect(result.every((piece) => piece.length <= 2000)).toBe(true);
        expect(visible(result.join(''))).toBe(visible(text));
      }),
      { numRuns: 60 },
    );
  });
});

describe('teamsTransport through deliver, any texts, chat and faults', () => {
  it('delivers every final text whole, sequences increasing, calls never overlapping', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.stringMatching(/^[a-z ]{1,30}$/), { minLength: 1, maxLength: 5 }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.boolean(),
        fc.array(fc.boolean(), { maxLength: 12 }),
        async (messages, personal, serverErrors) => {
          const conversationId = personal ? 'a:1' : '19:g@thread.v2';
          const api = await startFakeTeamsApi({
            token: 'eyJ-PROPERTY-SECRET',
            conversations: { [conversationId]: { personal } },
            minStreamIntervalMs: 4,
            fault: (n) => (serverErrors[n] ? 'server-error' : undefined),
          });
          try {
            const transport = teamsTransport({
              serviceUrl: api.serviceUrl,
              conversationId,
              token: 'eyJ-PROPERTY-SECRET',
              isPersonalChat: true,
              minIntervalMs: 5,
            });
            const refs: TeamsMessageRef[] = [];
            const edits: MessageEdit[] = messages.flatMap((blocks, message) =>
              blocks.map((_, i) => ({
                op: i === 0 ? ('send' as const) : ('edit' as const),
                message,
                text: `m${message}: ${blocks.slice(0, i + 1).join(' ')}`,
              })),
            );
            const reports = await lastValueFrom(
              from(edits).pipe(
                deliver(
                  {
                    ...transport,
                    send: async (edit, call) =>
                      (refs[edit.message] = await transport.send(edit, call)),
                  },
                  { backoffMs: 1, maxAttempts: 20 },
                ),
                toArray(),
              ),
            );
            expect(reports.filter((r) => r.type === 'delivery-failed')).toEqual([]);
            expect(JSON.stringify(reports)).not.toContain('SECRET');
            const held = new Map(api.messages(conversationId).map((m) => [m.id, m]));
            messages.forEach((blocks, message) => {
              const parts = refs[message].parts.map((p) => held.get(p.id)!);
              expect(squeeze(parts.map((p) => p.text).join(' '))).toBe(
                squeeze(`m${message}: ${blocks.join(' ')}`),
              );
              expect(parts.every((p) => p.state !== 'streaming')).toBe(true);
            });
            expect([api.counts.outOfOrder, api.counts.tooFast, api.counts.overlaps]).toEqual([
              0, 0, 0,
            ]);
          } finally {
            await api.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);
});
