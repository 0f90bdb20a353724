import { describe, expect, it } from 'vitest';
import { alertView, ruleText } from '../../../src/bot/views/watch.js';

const facts = {
  alertId: 'a1',
  kind: 'price' as const,
  headline: 'Arsenal reached 3.30 at bookie_c',
  eventName: 'Arsenal v Chelsea',
  marketLabel: 'Match Winner',
  selectionLabel: 'Arsenal',
  bookie: 'bookie_c',
  before: 3.1,
  now: 3.3,
  fairOdds: 3.05,
  edge: 0.082,
  startsAt: null,
  userId: '42',
  bettable: true,
};

describe('watch alerts and rules in words', () => {
  it('an alert in a channel mentions its member and carries the Bet button', () => {
    const v = alertView(facts);
    expect(v.content).toBe('<@42>');
    expect(JSON.stringify(v.components)).toContain('Bet at bookie_c 3.30');
  });

  it('an alert by DM mentions no one and has no Bet button, and says where to bet instead', () => {
    const v = alertView({ ...facts, dm: true });
    expect(v.content).toBeUndefined();
    expect(v.components).toEqual([]);
    expect(v.embeds[0]?.fields?.find((f) => f.name === 'Bet')?.value).toBe(
      'In the server: /bet at bookie_c, or /markets for the card.',
    );
  });

  it('a server rule reads as its edge, its leagues by name and its horizon', () => {
    expect(
      ruleText({
        bookie: null,
        rule: { kind: 'league', leagues: ['nrl', 'rugby_union'], edgePct: 3, horizonMs: 86_400_000 },
      }),
    ).toBe('edge ≥ 3 % at any book, in NRL, Rugby Union, starting within 24 h');
  });
});
