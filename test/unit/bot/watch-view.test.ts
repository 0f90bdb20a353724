import { ButtonStyle } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { alertedText, alertView, freshnessText, ruleText, watchListView } from '../../../src/bot/watch/views/watch.js';
import type { Watch } from '../../../src/bot/watch/watches-repo.js';

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

  it('an alert by DM mentions no one and has no Bet button: it names the /bet to run and links to the alerts channel', () => {
    const v = alertView({ ...facts, dm: { guildId: 'g7', alertsChannelId: 'c9' } });
    expect(v.content).toBeUndefined();
    const buttons = v.components.flatMap((r) => r.components) as { style?: number; url?: string; custom_id?: string }[];
    expect(buttons).toEqual([
      expect.objectContaining({ style: ButtonStyle.Link, url: 'https://discord.com/channels/g7/c9' }),
    ]);
    expect(buttons[0]?.custom_id).toBeUndefined();
    expect(v.embeds[0]?.fields?.find((f) => f.name === 'Bet')?.value).toMatch(
      /^Bet in the server: \/bet event: Arsenal v Chelsea · market: Match Winner · selection: Arsenal · bookie: bookie_c · min_odds: 3\.30 /,
    );
  });

  it('an alert by DM from a server with no alerts channel links to the server; an unbettable one has no link', () => {
    const dm = { guildId: 'g7', alertsChannelId: null };
    expect(JSON.stringify(alertView({ ...facts, dm }).components)).toContain('"url":"https://discord.com/channels/g7"');
    const unbettable = alertView({ ...facts, dm, bettable: false });
    expect(unbettable.components).toEqual([]);
  });

  it("a DM alert whose book refuses the event's sport names no book in its /bet, so the bet goes where it is taken", () => {
    const v = alertView({ ...facts, dm: { guildId: 'g7', alertsChannelId: 'c9' }, bookRefusesSport: true });
    const line = v.embeds[0]?.fields?.find((f) => f.name === 'Bet')?.value ?? '';
    expect(line).toMatch(
      /^Bet in the server: \/bet event: Arsenal v Chelsea · market: Match Winner · selection: Arsenal \(with no bookie, as bookie_c takes no bets on this sport: \/bet goes to the best book that does\)/,
    );
    expect(line).not.toMatch(/bookie: bookie_c|min_odds/);
  });

  it('an alert at a book that takes no bet on it (a server rule at bookie_b) says why it has no Bet button and what to run', () => {
    for (const dm of [undefined, { guildId: 'g7', alertsChannelId: 'c9' }]) {
      const v = alertView({ ...facts, bookie: 'bookie_b', bettable: false, ...(dm ? { dm } : {}) });
      expect(v.components).toEqual([]);
      expect(v.embeds[0]?.fields?.find((f) => f.name === 'Bet')?.value).toBe(
        'No Bet button: bookie_b shows this price but takes no bet on it from the desk now. /bet event: Arsenal v Chelsea · market: Match Winner · selection: Arsenal (no bookie) bets it at the best book that takes it.',
      );
    }
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

describe('/watch list in words', () => {
  const NOW = Date.UTC(2026, 10, 28, 12);
  it('says how long ago a watch was read in the largest unit that reads naturally', () => {
    expect(freshnessText(NOW - 40_000, NOW)).toBe('read 40 s ago');
    expect(freshnessText(NOW - 12 * 60_000, NOW)).toBe('read 12 min ago');
    expect(freshnessText(NOW - 1445 * 60_000, NOW)).toBe('read 24 h ago');
    expect(freshnessText(NOW - 3 * 86_400_000, NOW)).toBe('read 3 days ago');
    expect(freshnessText(null, NOW)).toBe('not read yet');
  });

  it('says a watch whose event has started alerts no more', () => {
    expect(freshnessText(NOW - 40_000, NOW, NOW - 1)).toBe(
      'its event has started: no more alerts (/watch remove to tidy up)',
    );
    expect(freshnessText(NOW - 40_000, NOW, NOW + 60_000)).toBe('read 40 s ago');
  });

  it('says whether a watch has alerted, how often and when last', () => {
    expect(alertedText(undefined, NOW)).toBe('no alert yet');
    expect(alertedText({ count: 1, lastAt: NOW - 5 * 60_000 }, NOW)).toBe('alerted once, 5 min ago');
    expect(alertedText({ count: 3, lastAt: NOW - 2 * 3_600_000 }, NOW)).toBe('alerted 3 times, last 2 h ago');
  });

  it('lists watches whose event has started last, under their own heading, each with whether it alerted', () => {
    const watch = (id: string, eventName: string) =>
      ({
        watchId: id,
        scope: 'personal',
        delivery: 'channel',
        selectionLabel: 'Sacramento Kings',
        market: 'head_to_head',
        eventName,
        bookie: 'bookie_a',
        rule: { kind: 'price', target: 2.55, direction: 'above' },
      }) as unknown as Watch;
    const text = watchListView([
      { watch: watch('w-old', 'Lakers v Kings'), freshness: 'unused', alerted: 'alerted once, 3 h ago', started: true },
      { watch: watch('w-new', 'Kings v Suns'), freshness: 'read 40 s ago', alerted: 'no alert yet' },
    ]).embeds[0]?.description;
    expect(text).toBe(
      [
        '`w-new` Sacramento Kings · Kings v Suns: price ≥ 2.55 at bookie_a · read 40 s ago · no alert yet',
        '',
        '**Started, no more alerts** (/watch remove id: tidies them up):',
        '`w-old` Sacramento Kings · Lakers v Kings: price ≥ 2.55 at bookie_a · alerted once, 3 h ago',
      ].join('\n'),
    );
  });
});
