import { describe, expect, it } from 'vitest';
import { settlementOf } from '../../../src/bot/betting/model/settlement.js';
import { settlementView } from '../../../src/bot/betting/views/notice.js';
import { closedSlipView, receiptView, slipView } from '../../../src/bot/betting/views/slip.js';
import { pageLimit } from '../../../src/bot/catalog/catalog.js';
import { cardView, stakeFormTitle } from '../../../src/bot/catalog/views/card.js';
import { eventsView } from '../../../src/bot/catalog/views/events.js';
import { chooseDay } from '../../../src/bot/model/dates.js';
import { leagueKeyOf, leagueName } from '../../../src/bot/model/leagues.js';
import { LIMITS } from '../../../src/bot/model/limits.js';
import { selectionName } from '../../../src/bot/model/markets.js';
import { formatMoney, parseCents } from '../../../src/bot/model/money.js';
import { checkDailyRoom, type SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { resolveTrack } from '../../../src/bot/model/tracks.js';
import { isMemberMistake, userMessage } from '../../../src/bot/model/user-errors.js';
import { UserFacingError } from '../../../src/bot/model/user-facing-error.js';
import {
  RaceNotFoundError,
  RequestValidationError,
  ServerError,
  SessionNotFoundError,
} from '../../../src/gateway/errors.js';
import type { MarketCard } from '../../../src/gateway/index.js';

const slip: SlipPayload = {
  epk: 'basketball/us/nba/a_v_b/2026-11-23',
  sport: 'basketball',
  eventName: 'Boston v Denver',
  bookie: 'bookie_a',
  sessionId: 's-1',
  marketKey: 'total',
  marketLabel: 'Total Points',
  selectionLabel: 'Over 215.5',
  marketRef: 'r',
  stakeCents: 125_000,
  shownOdds: 1.9,
};
const START = '2026-11-23T01:30:00Z';
const UNIX = Date.parse(START) / 1000;
const fieldsOf = (v: { embeds: Array<{ fields?: Array<{ name: string; value: string }> }> }) =>
  Object.fromEntries((v.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));

describe('selection names carry their line once', () => {
  it.each([
    ['Over 2.5', 2.5, 'Over 2.5'],
    ['Everton -0.5', -0.5, 'Everton -0.5'],
    ['Jalen Wallace 2+', 2, 'Jalen Wallace 2+'],
    ['Boston Celtics', -4.5, 'Boston Celtics -4.5'],
    ['Over', 2.5, 'Over 2.5'],
    ['Over 12.5', 2.5, 'Over 12.5 2.5'],
    ['Draw', null, 'Draw'],
  ])('%s with line %s reads "%s"', (label, line, expected) => {
    expect(selectionName(label, line)).toBe(expected);
  });
});

describe('money reads like money', () => {
  it('has thousands separators and cents', () => {
    expect(formatMoney(123_456_750)).toBe('$1,234,567.50');
    expect(formatMoney(-250_000)).toBe('-$2,500.00');
    expect(formatMoney(500)).toBe('$5.00');
  });

  it('reads back what it writes', () => {
    expect(parseCents(formatMoney(125_000))).toBe(125_000);
  });
});

describe('/events status:finished', () => {
  it('asks the gateway for at most 200 rows a page when only finished events are wanted, 500 otherwise', () => {
    expect(pageLimit({ status: 'finished' })).toBe(200);
    for (const status of ['prematch', 'in_play', undefined] as const) expect(pageLimit({ status })).toBe(500);
  });

  it('accepts past days (and "yesterday") for results, still refuses them for upcoming events', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(chooseDay('yesterday', now, 'UTC', { past: true })).toEqual({ ok: true, day: '2026-11-21' });
    expect(chooseDay('2026-11-18', now, 'UTC', { past: true })).toEqual({ ok: true, day: '2026-11-18' });
    const refused = chooseDay('2026-11-18', now, 'UTC');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/status:finished/);
  });
});

describe('league names instead of codes', () => {
  it('names preset leagues as the spec does and makes other keys readable', () => {
    expect(leagueName('nba')).toBe('NBA');
    expect(leagueName('rugby_union')).toBe('Rugby Union');
    expect(leagueName('super_rugby')).toBe('Super Rugby');
  });

  it('takes a typed name or key back to the key', () => {
    expect(leagueKeyOf('Rugby Union')).toBe('rugby_union');
    expect(leagueKeyOf(' NBA ')).toBe('nba');
    expect(leagueKeyOf('rugby_union')).toBe('rugby_union');
  });

  it('heads an events listing with the league name', () => {
    const v = eventsView({ events: [], league: 'rugby_union', date: '2026-11-22', timezone: 'UTC', page: 0, ref: 'r' });
    expect(v.embeds[0]?.title).toBe('Rugby Union — 2026-11-22');
  });
});

describe('start times, bettor and price on the card, form, slip and receipt', () => {
  const card: MarketCard = {
    epk: slip.epk,
    bookie: 'bookie_a',
    bound: true,
    market_ref_betting_enabled: true,
    markets: [],
  } as unknown as MarketCard;

  it('shows the start as a Discord timestamp on the card', () => {
    const v = cardView({ card, eventName: 'Boston v Denver', ref: 'r', page: 0, startTime: START });
    expect(v.embeds[0]?.description).toContain(`Starts <t:${UNIX}:f> (<t:${UNIX}:R>)`);
  });

  it('names the selection and price in the stake form, within 45 characters', () => {
    expect(stakeFormTitle('Over 215.5', 1.9)).toBe('Stake: Over 215.5 @ 1.90');
    const long = stakeFormTitle('A very long player name for a prop market selection', 12.5);
    expect(long.length).toBeLessThanOrEqual(LIMITS.modalTitle);
    expect(long).toMatch(/… @ 12\.50$/);
    expect(stakeFormTitle()).toBe('Stake for this bet');
  });

  it('shows the start and the bettor on the slip and the receipt', () => {
    const withBoth = { ...slip, startTime: START, userId: '42' };
    const s = fieldsOf(slipView({ slip: withBoth, slipId: 'x', userId: '42', expiresAt: 0 }));
    expect(s.Starts).toBe(`<t:${UNIX}:f> (<t:${UNIX}:R>)`);
    expect(s.Stake).toBe('$1,250.00');
    const r = fieldsOf(receiptView(withBoth, { success: true, bet_id: 'b1', odds: 1.9, stake: 1250 }));
    expect(r.Bettor).toBe('<@42>');
    expect(r.Starts).toContain(`<t:${UNIX}:f>`);
  });

  it('leaves both out of an older slip that lacks them', () => {
    const r = fieldsOf(receiptView(slip, { success: true, bet_id: 'b1', odds: 1.9, stake: 1250 }));
    expect(r.Bettor).toBeUndefined();
    expect(r.Starts).toBeUndefined();
  });
});

describe('a price-moved refusal offers the new price', () => {
  it('carries a "Bet again at" button with the live price', () => {
    const v = closedSlipView(slip, 'Bet not placed', 'moved', { priceMoved: { slipId: 'ref1', live: 1.72 } });
    const button = (v.components[0] as { components: Array<{ label: string; custom_id: string }> }).components[0];
    expect(button?.label).toBe('Bet again at 1.72');
    expect(button?.custom_id).toContain('slip:reprice');
    expect(button?.custom_id).toContain('ref1');
  });

  it('has no buttons on other refusals', () => {
    expect(closedSlipView(slip, 'Bet slip cancelled', 'Cancelled.').components).toEqual([]);
  });
});

describe('the daily limit is checked before a slip is posted', () => {
  it('refuses a stake that would pass the day limit, naming what is left', () => {
    const r = checkDailyRoom(6000, 95_000, 100_000);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/today's limit of \$1,000\.00 \(already staked \$950\.00; \$50\.00 left\)/);
  });

  it('lets a stake that fits exactly through', () => {
    expect(checkDailyRoom(5000, 95_000, 100_000)).toEqual({ ok: true });
    expect(checkDailyRoom(10, 20, 30)).toEqual({ ok: true });
  });
});

describe('settlement notices say what was bet, where and what came back', () => {
  const detail = {
    selectionLabel: 'Over 215.5',
    eventName: 'Boston v Denver',
    marketLabel: 'Total Points',
    bookie: 'bookie_a',
  };

  it('names the market, the book, the final score and the amount returned on a win', () => {
    const v = settlementView({
      settlement: settlementOf({ id: 'b1', type: 'bet', status: 'won', stake: 1000, odds: 1.9, pnl: 900 })!,
      userId: '42',
      detail,
      score: { home_score: 110, away_score: 108 },
    });
    const f = fieldsOf(v);
    expect(f).toMatchObject({ Market: 'Total Points', Book: 'bookie_a', 'Final score': '110–108' });
    expect(f.Returned).toBe('$1,900.00');
    expect(f['P&L']).toBe('+$900.00');
  });

  it('returns nothing on a loss and the stake on a void', () => {
    expect(settlementOf({ id: 'b', type: 'bet', status: 'lost', stake: 10, pnl: -10 })?.returnedCents).toBe(0);
    expect(settlementOf({ id: 'b', type: 'bet', status: 'void', stake: 10, pnl: 0 })?.returnedCents).toBe(1000);
  });

  it('leaves the score out when the league has no coverage', () => {
    const v = settlementView({
      settlement: settlementOf({ id: 'b1', type: 'bet', status: 'lost', stake: 10, pnl: -10 })!,
      userId: null,
      detail,
    });
    expect(fieldsOf(v)['Final score']).toBeUndefined();
  });
});

describe('member mistakes: a useful answer and a quiet log', () => {
  it('names the missing race and the race-type fix', () => {
    const err = new RaceNotFoundError('race not found', {
      status: 404,
      body: { error: 'race_not_found', detail: 'No race Wentworth Park R1 (R) on 2026-11-22' },
    });
    expect(userMessage(err)).toMatch(/No race Wentworth Park R1 \(R\).*race_type greyhound or harness/);
  });

  it('says which option breaks a gateway rule instead of "answered unexpectedly"', () => {
    const err = new RequestValidationError('bad', {
      field: 'limit',
      issues: [{ field: 'limit', message: 'must be at most 200 when status is finished' }],
    });
    expect(userMessage(err)).toBe(
      'That request breaks a rule of the gateway (limit must be at most 200 when status is finished). Check the options.',
    );
  });

  it('counts refusals of what was asked as mistakes, and faults of the desk or gateway as errors', () => {
    expect(isMemberMistake(new UserFacingError('x'))).toBe(true);
    expect(isMemberMistake(new RaceNotFoundError('x', { status: 404 }))).toBe(true);
    expect(isMemberMistake(new SessionNotFoundError('x', { status: 404 }))).toBe(false);
    expect(isMemberMistake(new ServerError('x', { status: 500 }))).toBe(false);
    expect(isMemberMistake(new Error('bug'))).toBe(false);
  });
});

describe('racing tracks and their race type', () => {
  it('takes the race type an explicit option gives, then the one the choice carries, then the track’s own', () => {
    expect(resolveTrack('Wentworth Park (G)')).toEqual({ track: 'Wentworth Park', raceType: '(G)' });
    expect(resolveTrack('wentworth park')).toEqual({ track: 'Wentworth Park', raceType: '(G)' });
    expect(resolveTrack('Menangle', '(R)')).toEqual({ track: 'Menangle', raceType: '(R)' });
    expect(resolveTrack('Some Country Track')).toEqual({ track: 'Some Country Track', raceType: '(R)' });
    expect(resolveTrack('Some Dogs (g)')).toEqual({ track: 'Some Dogs', raceType: '(G)' });
  });
});
