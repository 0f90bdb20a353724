import { describe, expect, it } from 'vitest';
import {
  AccountPromosQuery,
  BalanceRequest,
  BetStatusRequest,
  BoostTokenRequest,
  EventsQuery,
  MarketCardQuery,
  PlacePromoRequest,
  PromoTokensRequest,
  placeBetSchemaFor,
  RacingPriceCheckRequest,
  RequestValidationError,
  SessionCommandRequest,
  SessionJobRequest,
  SplitBonusBetRequest,
  StackedSrmRequest,
  StopSessionRequest,
  sportsPriceCheckSchemaFor,
  TransactionsRequest,
  WithdrawalRequest,
} from '../../../src/gateway/index.js';
import { parseRequest } from '../../../src/gateway/internal/validate.js';

const racing = {
  session_id: 's1',
  category: 'racing',
  track: 'Flemington',
  race_num: 3,
  date: '2026-11-21',
  runner: 'Fast Horse',
  market: 'win',
  stake: 10,
  target_odds: 2.5,
};
const srm = {
  ...racing,
  runner: undefined,
  market: undefined,
  is_same_event_multi: true,
  legs: [
    { runner: 'A', market: 'win' },
    { runner: 'B', market: 'place' },
  ],
};
delete (srm as Record<string, unknown>).runner;
delete (srm as Record<string, unknown>).market;
const sportsSel = {
  session_id: 's1',
  category: 'sports',
  competition: 'nba',
  event: 'Lakers v Celtics',
  market: 'head_to_head',
  selection: 'home',
  stake: 5,
  target_odds: 1.9,
};
const sportsRef = {
  session_id: 's1',
  category: 'sports',
  market_ref: 'mr-1',
  epk: 'basketball/us/nba/lal_v_bos/2026-11-21',
  sport: 'NBA',
  stake: 5,
  target_odds: 1.9,
};

/** Validates and returns the thrown error (or undefined when valid). */
function errorOf(schema: Parameters<typeof parseRequest>[0], input: unknown): RequestValidationError | undefined {
  try {
    parseRequest(schema, input, 'test');
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(RequestValidationError);
    return e as RequestValidationError;
  }
}
const bet = (input: unknown) => errorOf(placeBetSchemaFor(input), input);

describe('place_bet request union', () => {
  it('accepts each of the four variants', () => {
    expect(bet(racing)).toBeUndefined();
    expect(bet(srm)).toBeUndefined();
    expect(bet(sportsSel)).toBeUndefined();
    expect(bet(sportsRef)).toBeUndefined();
    expect(bet({ ...sportsRef, site_event_id: 'x-99' })).toBeUndefined();
  });

  it('refuses a negative stake, naming the field', () => {
    const err = bet({ ...racing, stake: -5 });
    expect(err?.field).toBe('stake');
    expect(err?.message).toMatch(/stake must be a positive/);
  });

  it('refuses max_odds below target_odds', () => {
    const err = bet({ ...sportsRef, max_odds: 1.5 });
    expect(err?.field).toBe('max_odds');
    expect(err?.message).toMatch(/at least target_odds/);
    expect(bet({ ...sportsRef, max_odds: null })).toBeUndefined();
    expect(bet({ ...racing, max_odds: 3 })).toBeUndefined();
  });

  it('refuses a random_delay whose min is above a positive max, as the gateway does', () => {
    const err = bet({ ...racing, random_delay: { min: 5, max: 2 } });
    expect(err?.field).toBe('random_delay.min');
    expect(err?.message).toMatch(/min must not be above max/);
    expect(bet({ ...racing, random_delay: { min: 1, max: 4 } })).toBeUndefined();
    expect(bet({ ...racing, random_delay: { min: 5, max: 0 } })).toBeUndefined();
  });

  it("refuses market each_way and says to use 'win' or 'place'", () => {
    const err = bet({ ...racing, market: 'each_way' });
    expect(err?.field).toBe('market');
    expect(err?.message).toMatch(/each_way.*'win' or 'place'/);
  });

  it('requires epk and sport with market_ref', () => {
    const { epk: _e, ...noEpk } = sportsRef;
    expect(bet(noEpk)?.field).toBe('epk');
    const { sport: _s, ...noSport } = sportsRef;
    expect(bet(noSport)?.field).toBe('sport');
  });

  it('requires at least two legs for a same-race multi', () => {
    expect(bet({ ...srm, legs: [{ runner: 'A', market: 'win' }] })?.field).toBe('legs');
  });

  it('refuses an unknown category and fields the spec does not name', () => {
    expect(bet({ ...racing, category: 'golf' })?.field).toBe('category');
    expect(bet({ ...racing, colour: 'red' })?.message).toMatch(/unknown field\(s\) colour/);
  });

  it('refuses a date not written YYYY-MM-DD and a non-integer race number', () => {
    expect(bet({ ...racing, date: '21/11/2026' })?.field).toBe('date');
    expect(bet({ ...racing, race_num: 2.5 })?.field).toBe('race_num');
  });
});

describe('events query rules', () => {
  const ev = (q: unknown) => errorOf(EventsQuery, q);
  it('accepts a 31-day window and refuses a 32-day one', () => {
    expect(ev({ since: '2026-01-01', until: '2026-01-31' })).toBeUndefined();
    const err = ev({ since: '2026-01-01', until: '2026-02-01' });
    expect(err?.field).toBe('until');
    expect(err?.message).toMatch(/32 days; at most 31/);
  });
  it('refuses limit 501 and 0, accepts 500', () => {
    expect(ev({ limit: 501 })?.field).toBe('limit');
    expect(ev({ limit: 0 })?.field).toBe('limit');
    expect(ev({ limit: 500 })).toBeUndefined();
  });
  it('refuses date combined with since or until', () => {
    expect(ev({ date: '2026-01-01', since: '2026-01-01' })?.message).toMatch(
      /date cannot be combined with since\/until/,
    );
    expect(ev({ date: '2026-01-01', until: '2026-01-02' })?.field).toBe('date');
    expect(ev({ date: '2026-01-01' })).toBeUndefined();
  });
  it('caps finished pages at 200 and refuses until before since', () => {
    expect(ev({ status: 'finished', limit: 201 })?.field).toBe('limit');
    expect(ev({ status: 'finished', limit: 200 })).toBeUndefined();
    expect(ev({ since: '2026-01-05', until: '2026-01-01' })?.field).toBe('until');
  });
});

describe('other request schemas', () => {
  it('place_promo: idempotency key of 201 characters is refused, 200 accepted', () => {
    const base = { session_id: 's1', promo_id: 7, stake: 10 };
    expect(errorOf(PlacePromoRequest, { ...base, idempotency_key: 'k'.repeat(201) })?.field).toBe('idempotency_key');
    expect(errorOf(PlacePromoRequest, { ...base, idempotency_key: 'k'.repeat(200) })).toBeUndefined();
    expect(errorOf(PlacePromoRequest, { ...base, promo_id: undefined })?.message).toMatch(/promo_id is required/);
  });
  it('markets: epk and bookie required, tier restricted', () => {
    expect(errorOf(MarketCardQuery, { bookie: 'bookie_a' })?.field).toBe('epk');
    expect(errorOf(MarketCardQuery, { epk: 'e', bookie: 'bookie_a', tier: 'gold' })?.field).toBe('tier');
    expect(
      errorOf(MarketCardQuery, { epk: 'e', bookie: 'bookie_a', tier: 'unmapped', include_unbettable: true }),
    ).toBeUndefined();
  });
  it('price checks: session_ids required and non-empty; sports by ref needs epk', () => {
    const race = { session_ids: ['s1'], category: 'racing', track: 'Randwick', race_num: 1, date: '2026-11-21' };
    expect(errorOf(RacingPriceCheckRequest, race)).toBeUndefined();
    expect(errorOf(RacingPriceCheckRequest, { ...race, session_ids: [] })?.field).toBe('session_ids');
    expect(errorOf(RacingPriceCheckRequest, { ...race, session_ids: undefined })?.field).toBe('session_ids');
    const byRef = { session_ids: ['s1'], category: 'sports', market_ref: 'm', epk: 'e', sport: 'NBA' };
    expect(errorOf(sportsPriceCheckSchemaFor(byRef), byRef)).toBeUndefined();
    expect(errorOf(sportsPriceCheckSchemaFor({ ...byRef, epk: undefined }), { ...byRef, epk: undefined })?.field).toBe(
      'epk',
    );
    const { session_id: _s, category: _c, stake: _st, target_odds: _t, ...sel } = sportsSel;
    const bySel = { session_ids: ['s1'], category: 'sports', ...sel };
    expect(errorOf(sportsPriceCheckSchemaFor(bySel), bySel)).toBeUndefined();
    expect(errorOf(sportsPriceCheckSchemaFor(bySel), { ...bySel, stake: 5 })?.message).toMatch(
      /unknown field\(s\) stake/,
    );
  });
  it('stacked SRM: at least 2 bets of at least 2 legs with positive stakes', () => {
    const legs = [{ runner: 'A' }, { runner: 'B', position: 'top2' }];
    const req = {
      session_id: 's1',
      track: 'Randwick',
      race_num: 2,
      date: '2026-11-21',
      bets: [
        { stake: 5, legs },
        { stake: 5, legs },
      ],
    };
    expect(errorOf(StackedSrmRequest, req)).toBeUndefined();
    expect(errorOf(StackedSrmRequest, { ...req, bets: [{ stake: 5, legs }] })?.field).toBe('bets');
    expect(
      errorOf(StackedSrmRequest, {
        ...req,
        bets: [
          { stake: 0, legs },
          { stake: 5, legs },
        ],
      })?.field,
    ).toBe('bets.0.stake');
    expect(
      errorOf(StackedSrmRequest, {
        ...req,
        bets: [
          { stake: 5, legs: [legs[0]] },
          { stake: 5, legs },
        ],
      })?.field,
    ).toBe('bets.0.legs');
  });
  it('session, balance, withdrawal, transactions, bonus and promo bodies', () => {
    expect(errorOf(SessionCommandRequest, {})?.field).toBe('session_id');
    expect(errorOf(StopSessionRequest, { session_id: 's', revoke: 'yes' })?.field).toBe('revoke');
    expect(errorOf(BalanceRequest, { session_id: '' })?.field).toBe('session_id');
    expect(errorOf(WithdrawalRequest, { session_id: 's', amount: 0 })?.field).toBe('amount');
    expect(errorOf(WithdrawalRequest, { session_id: 's', amount: 5, callback_url: 'ftp://x' })?.field).toBe(
      'callback_url',
    );
    expect(errorOf(TransactionsRequest, { session_id: 's', days_back: 0 })?.field).toBe('days_back');
    expect(
      errorOf(SessionJobRequest, { session_id: 's', callback_url: 'http://127.0.0.1:8790/webhooks/gateway' }),
    ).toBeUndefined();
    expect(errorOf(SplitBonusBetRequest, { session_id: 's', max_amount: -1 })?.field).toBe('max_amount');
    expect(errorOf(PromoTokensRequest, { session_id: 's', track: 'Randwick', race_num: 0 })?.field).toBe('race_num');
    expect(errorOf(BoostTokenRequest, { session_id: 's', track: 'Randwick', race_num: 1, race_type: 'R' })?.field).toBe(
      'race_type',
    );
    expect(errorOf(AccountPromosQuery, { bookie: 'bookie_c' })).toBeUndefined();
    expect(errorOf(BetStatusRequest, { correlation_ids: [] })?.field).toBe('correlation_ids');
  });
});
