import { describe, expect, it } from 'vitest';
import type { BetRecord } from '../../../src/bot/betting/bet-records.js';
import { promoLink, promosView, sortPromos } from '../../../src/bot/betting/handlers/promos.js';
import { raceChoices, trackChoices } from '../../../src/bot/betting/handlers/racing.js';
import { matches } from '../../../src/bot/betting/reconciler.js';
import { placeBetRequest, racingPriceOf } from '../../../src/bot/betting/slip-kinds.js';
import { decideOnLivePrice, type SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { trackDay } from '../../../src/bot/model/tracks.js';
import type { Transaction } from '../../../src/gateway/index.js';

const racing: SlipPayload = {
  kind: 'racing',
  racing: {
    track: 'Wentworth Park',
    raceNum: 3,
    raceType: '(G)',
    date: '2026-11-23',
    runner: 'Zipping Kiss',
    market: 'place',
  },
  epk: 'racing:Wentworth Park/3/(G)/2026-11-23',
  sport: 'racing',
  eventName: 'Wentworth Park R3',
  bookie: 'bookie_a',
  sessionId: 's1',
  marketKey: 'place',
  marketLabel: 'Place',
  selectionLabel: 'Zipping Kiss',
  selectionName: 'Zipping Kiss',
  marketRef: '',
  stakeCents: 1250,
  shownOdds: 2.4,
};

const record = (payload: SlipPayload, createdAt = Date.parse('2026-11-23T08:00:00Z')): BetRecord => ({
  placementId: 'p1',
  slipId: 'sl1',
  guildKey: 'g',
  guildId: 'g',
  channelId: 'c',
  messageId: 'm',
  userId: 'u',
  sessionId: 's1',
  bookie: 'bookie_a',
  day: '2026-11-23',
  stakeCents: payload.stakeCents ?? 0,
  payload,
  state: 'unknown',
  correlationId: null,
  timeoutAt: null,
  betId: null,
  odds: null,
  note: null,
  settledStatus: null,
  pnlCents: null,
  misses: 0,
  closeOdds: null,
  closeMarket: null,
  createdAt,
  updatedAt: createdAt,
});

describe('the place_bet body of each kind of slip', () => {
  it('sends a racing slip as a racing single: race, runner, market, stake in dollars and the floor as target_odds', () => {
    expect(placeBetRequest(racing, 1250, 2.28, 'http://cb')).toEqual({
      session_id: 's1',
      category: 'racing',
      track: 'Wentworth Park',
      race_num: 3,
      race_type: '(G)',
      date: '2026-11-23',
      runner: 'Zipping Kiss',
      market: 'place',
      stake: 12.5,
      target_odds: 2.28,
      callback_url: 'http://cb',
    });
  });

  it('asks for a bonus token only when the slip says so', () => {
    expect(placeBetRequest({ ...racing, useBonusBet: true }, 1250, 2.28, undefined)).toMatchObject({
      use_bonus_bet: true,
    });
    expect(placeBetRequest(racing, 1250, 2.28, undefined)).not.toHaveProperty('use_bonus_bet');
  });

  it('keeps a sports slip (no kind) a market_ref bet', () => {
    const sports: SlipPayload = {
      ...racing,
      kind: undefined,
      racing: undefined,
      epk: 'nba/x',
      sport: 'nba',
      marketRef: 'r1',
    };
    delete sports.kind;
    delete sports.racing;
    expect(placeBetRequest(sports, 1000, 1.9, undefined)).toEqual({
      session_id: 's1',
      category: 'sports',
      sport: 'nba',
      epk: 'nba/x',
      market_ref: 'r1',
      stake: 10,
      target_odds: 1.9,
    });
  });
});

describe('a racing slip whose price moved', () => {
  it('asks for a new slip instead of offering the sports re-price button', () => {
    const decision = decideOnLivePrice(racing, 1.5, 0.05);
    expect(decision.ok).toBe(false);
    expect(decision.ok ? '' : decision.message).toMatch(/Make a new slip if you still want it at the new price\.$/);
  });
});

describe('reading a racing price check', () => {
  const result = {
    status: 'success',
    selections: [
      {
        runner: 'Zipping Kiss',
        prices: [
          { market: 'win', price: 5.5 },
          { market: 'place', price: 2.1 },
        ],
      },
      { runner: 'Other', prices: [{ market: 'win', price: 3 }] },
    ],
  };
  it('finds the runner loosely and returns the book’s spelling with the market’s price', () => {
    expect(racingPriceOf(result, 'zipping  kiss', 'place')).toEqual({ runner: 'Zipping Kiss', price: 2.1 });
  });
  it('gives nothing for a failed check or a market without a price', () => {
    expect(racingPriceOf({ ...result, status: 'failure' }, 'Zipping Kiss', 'win')).toBeUndefined();
    expect(racingPriceOf(result, 'Other', 'place')).toBeUndefined();
  });
});

describe('the matching rule for a racing record', () => {
  // What the sandbox writes into a racing bet's transaction (src/sandbox/world/racing-bets.ts).
  const tx: Transaction & { selections: Array<Record<string, unknown>> } = {
    id: 'b9',
    type: 'bet',
    status: 'pending',
    stake: 12.5,
    odds: 2.4,
    placed_at: '2026-11-23T08:00:05Z',
    selections: [{ event: 'Wentworth Park R3', selection: 'Zipping Kiss', market: 'place', odds: 2.4 }],
  };
  it('matches the race as event, the runner as selection and win/place as market', () => {
    expect(matches(record(racing), tx, 600_000)).toBe(true);
  });
  it('does not take the same runner in the other market or another race', () => {
    expect(matches(record(racing), { ...tx, selections: [{ ...tx.selections[0], market: 'win' }] }, 600_000)).toBe(
      false,
    );
    expect(
      matches(record(racing), { ...tx, selections: [{ ...tx.selections[0], event: 'Wentworth Park R4' }] }, 600_000),
    ).toBe(false);
  });
});

describe('the matching rule for a same-race multi record', () => {
  const multi: SlipPayload = {
    ...racing,
    kind: 'multi',
    racing: undefined,
    multi: {
      track: 'Wentworth Park',
      raceNum: 3,
      raceType: '(G)',
      date: '2026-11-23',
      legs: [
        { runner: 'Zipping Kiss', position: 'win', winPrice: 3 },
        { runner: 'Other', position: 'top3', winPrice: 4 },
      ],
      method: 'multiplicative',
      books: 3,
    },
    marketKey: 'srm',
    selectionLabel: 'Zipping Kiss win + Other top 3',
    selectionName: 'Zipping Kiss win + Other top 3',
  };
  // What the sandbox writes into a multi's transaction: one selection per leg (src/sandbox/world/racing-bets.ts).
  const tx: Transaction & { selections: Array<Record<string, unknown>> } = {
    id: 'b10',
    type: 'bet',
    status: 'pending',
    stake: 12.5,
    odds: 6.1,
    placed_at: '2026-11-23T08:00:05Z',
    selections: [
      { event: 'Wentworth Park R3', selection: 'Zipping Kiss', market: 'win', odds: 3 },
      { event: 'Wentworth Park R3', selection: 'Other', market: 'top3', odds: 1.9 },
    ],
  };
  it('matches every leg by its runner and position in the race', () => {
    expect(matches(record(multi), tx, 600_000)).toBe(true);
  });
  it('does not take a multi with another position, a leg fewer or another race', () => {
    const [a, b] = tx.selections as [Record<string, unknown>, Record<string, unknown>];
    expect(matches(record(multi), { ...tx, selections: [a, { ...b, market: 'top2' }] }, 600_000)).toBe(false);
    expect(matches(record(multi), { ...tx, selections: [a] }, 600_000)).toBe(false);
    expect(matches(record(multi), { ...tx, selections: [a, { ...b, event: 'Wentworth Park R4' }] }, 600_000)).toBe(
      false,
    );
  });
});

describe('racing autocomplete', () => {
  it('offers a greyhound track with its race type in the value', () => {
    expect(trackChoices('went')[0]).toEqual({ name: 'Wentworth Park · greyhound', value: 'Wentworth Park (G)' });
  });
  it('keeps a track it does not know as typed', () => {
    expect(trackChoices('Ascot').at(-1)).toEqual({ name: 'Ascot', value: 'Ascot' });
  });
  it('names the track’s local day on each race: Sydney is already on the next day at 20:00 UTC', () => {
    const at = Date.parse('2026-11-22T20:00:00Z');
    expect(trackDay('Wentworth Park', at, 'UTC')).toBe('2026-11-23');
    expect(raceChoices('Wentworth Park', '2026-11-23', '1')).toContainEqual({
      name: 'Race 1 · Wentworth Park · 2026-11-23',
      value: 1,
    });
  });
});

describe('the promo inbox view', () => {
  const boost = {
    promo_id: 7,
    bookie: 'bookie_c',
    promo: 'bet_boost',
    label: 'Bet boost: Zipping Kiss to win',
    kind: 'racing',
    track: 'Wentworth Park',
    race_num: 3,
    race_type: 'G',
    selection: 'Zipping Kiss',
    base_odds: 4,
    boosted_odds: 4.8,
    session_id: 's3',
    placeable_by_id: true,
    how_to_bet: { endpoint: '/v3/place_promo' },
  };
  const token = {
    promo_id: 2,
    bookie: 'bookie_a',
    promo: '2/3',
    label: '2nd or 3rd money back',
    kind: 'racing',
    track: 'Flemington',
    race_num: 5,
    race_type: 'R',
    placeable_by_id: false,
    how_to_bet: { endpoint: '/v3/place_bet', promo_name: '2/3', note: 'choose a runner' },
  };
  it('puts cards placeable by id first', () => {
    expect(sortPromos([token, boost]).map((p) => p.promo_id)).toEqual([7, 2]);
  });
  it('shows selection, base and boosted odds, and a menu holding only placeable cards', () => {
    const view = promosView([token, boost], 'inbox1');
    expect(view.embeds[0]?.fields?.[0]?.value).toContain('Zipping Kiss · Wentworth Park R3 · 4.00 → **4.80**');
    const menu = (view.components[0] as { components: Array<{ options: Array<{ value: string }> }> }).components[0];
    expect(menu?.options.map((o) => o.value)).toEqual(['7']);
  });
  it('offers a button opening the race for a racing promo that needs a chosen runner', () => {
    const view = promosView([{ ...token, date: '2026-11-23' }], 'inbox1');
    const buttons = (view.components[0] as { components: Array<{ custom_id: string; label: string }> }).components;
    expect(buttons.map((b) => [b.custom_id, b.label])).toEqual([['v1:promo:race:inbox1:2', 'Bet #2: Flemington R5']]);
  });

  it('sends the promo of a racing slip as promo_name, and as bet_type when it is one', () => {
    const withPromo = {
      ...racing,
      racing: { ...(racing.racing as NonNullable<SlipPayload['racing']>), promoName: '2/3' },
    };
    expect(placeBetRequest(withPromo, 1250, 2.28, undefined)).toMatchObject({ promo_name: '2/3', bet_type: '2/3' });
  });

  it('asks the book to refuse, not place bare, a racing bet whose promo it cannot attach (skip_if_no_promo)', () => {
    const withPromo = {
      ...racing,
      racing: { ...(racing.racing as NonNullable<SlipPayload['racing']>), promoName: 'day saver' },
    };
    expect(placeBetRequest(withPromo, 1250, 2.28, undefined)).toMatchObject({
      promo_name: 'day saver',
      skip_if_no_promo: true,
    });
    expect(placeBetRequest(racing, 1250, 2.28, undefined)).not.toHaveProperty('skip_if_no_promo');
  });

  it("names a sports promo's event as the /bet event list shows it, never its raw key", () => {
    const sports = {
      promo_id: 9,
      bookie: 'bookie_b',
      label: 'Same game boost',
      kind: 'sports',
      event: 'Kansas City Chiefs v Cincinnati Bengals',
      epk: 'american_football/us/nfl/kansas-city-chiefs-v-cincinnati-bengals/2026-11-26',
      placeable_by_id: false,
    };
    expect(promoLink(sports as never)).toBe(
      'Bet it with `/bet`: pick **Kansas City Chiefs v Cincinnati Bengals** in its event list, then bookie bookie_b.',
    );
  });

  it('links a promo needing a chosen selection to the racing slip for its race', () => {
    expect(promoLink(token)).toBe('Bet it with `/bet-racing track:Flemington (R) race:5 bookie:bookie_a` (promo 2/3).');
  });
});
