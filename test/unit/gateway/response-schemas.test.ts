import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AccountPromosResult,
  AsyncEnvelope,
  BalanceRecord,
  BetResult,
  BetStatusResponse,
  BonusBetsResult,
  BoostTokenResult,
  EventsPage,
  LegacyBalance,
  LegacyBetResponse,
  MarketCard,
  PriceCheckResult,
  PriceCheckSubmission,
  PromoBetResult,
  PromosResult,
  PromoTokensResult,
  ResponseShapeError,
  SessionCommandResult,
  SessionList,
  SplitResult,
  StackedSrmResult,
  StopSessionResult,
  TransactionsResult,
  WebhookBody,
  WithdrawalResult,
} from '../../../src/gateway/index.js';
import { parseResponse } from '../../../src/gateway/internal/validate.js';

const samples: [string, z.ZodType, Record<string, unknown>][] = [
  [
    'session list',
    SessionList,
    { sessions: [{ session_id: 's1', bookie: 'bookie_a', username: 'u', active: true, pc_id: 'pc' }] },
  ],
  ['session command', SessionCommandResult, { status: 'success', session_status: 'launching', delivered: false }],
  ['stop session', StopSessionResult, { status: 'stopped', session_id: 's1', delivered: true }],
  [
    'balance',
    BalanceRecord,
    {
      session_id: 's1',
      bookie: 'b',
      username: 'u',
      balance: 10,
      bonus_balance: 2,
      withdrawable_balance: 8,
      retrieved_at: 't',
    },
  ],
  ['legacy balance', LegacyBalance, { bookie: 'b', username: 'u', balance: 10, bonus_balance: 0 }],
  [
    'async envelope',
    AsyncEnvelope,
    { status: 'pending', correlation_id: 'c', submitted_at: 'a', timeout_at: 'b', callback_url: null, amount: 5 },
  ],
  [
    'bet status',
    BetStatusResponse,
    { statuses: [{ correlation_id: 'c', status: 'completed', result: { success: true } }] },
  ],
  [
    'withdrawal',
    WithdrawalResult,
    { success: true, message: 'ok', withdrawal_id: 'w1', status: 'pending', bookie: 'b' },
  ],
  [
    'bet result (polled)',
    BetResult,
    { success: true, bet_result: { success: true, bet_id: 'B', odds: 2, stake: 5, error: null } },
  ],
  ['bet result (webhook, flat)', BetResult, { success: true, bet_id: 'B', odds: 2, stake: 5, potential_return: 10 }],
  [
    'legacy sync bet',
    LegacyBetResponse,
    { success: true, bet_id: 'B', bookie_bet_id: 123, stake: '5', odds: 2, potential_return: '10', status: 'placed' },
  ],
  [
    'promo bet',
    PromoBetResult,
    {
      success: true,
      bet_id: 'B',
      odds: 3,
      stake: 5,
      is_bonus_bet: false,
      bonus_token_id: 't',
      market: 'win',
      runner: 'R',
    },
  ],
  [
    'stacked srm',
    StackedSrmResult,
    {
      success: true,
      placed: 1,
      failed: 1,
      results: [
        {
          success: true,
          bet_id: 'B',
          odds: 9,
          stake: 5,
          market: 'srm',
          track: 'T',
          race_num: 1,
          legs: [{ runner: 'A', position: 'win', number: 3, odds: 2, proposition_id: 'p' }],
          error: null,
        },
      ],
    },
  ],
  [
    'transactions',
    TransactionsResult,
    {
      success: true,
      transactions: [
        {
          id: 't',
          type: 'bet',
          status: 'pending',
          stake: 5,
          odds: null,
          pnl: 0,
          is_bonus_bet: false,
          placed_at: 'a',
          settled_at: null,
          selections: [{ event: 'e', selection: 's', market: 'm', odds: 2, result: 'pending' }],
        },
      ],
      total_count: 1,
      has_more: false,
    },
  ],
  [
    'bonus bets',
    BonusBetsResult,
    {
      success: true,
      bonus_bets: [
        {
          id: 'b',
          amount: 25,
          status: 'AVAILABLE',
          split_options: [2, 5],
          split_amounts: [12.5, 5],
          expiry: 'x',
          description: 'd',
        },
      ],
      total_bonus: 25,
      count: 1,
    },
  ],
  [
    'split (v3)',
    SplitResult,
    { success: true, message: 'm', original_amount: 25, new_amount_per_bet: 5, num_splits: 5, token_id: 't' },
  ],
  ['split (v2 names)', SplitResult, { success: true, new_amount: 5, num_pieces: 5 }],
  [
    'race promos',
    PromosResult,
    {
      success: true,
      promos: [
        {
          track: 'T',
          race_num: 1,
          race_type: 'R',
          promo_type: '2/3',
          max_reward: 50,
          token_group_id: 'g',
          valid_till: 'v',
          event_url: '/e',
          offer_name: 'o',
          offer_type: 'stake_back',
        },
      ],
      count: 1,
    },
  ],
  [
    'promo tokens',
    PromoTokensResult,
    {
      success: true,
      saver_tokens: [{ type: '2/3', max_reward: 20, is_race_specific: true, usage_restrictions: 'u' }],
      bonus_boost: { available: true, boost_percentage: 25, max_reward: 50 },
    },
  ],
  ['boost token', BoostTokenResult, { success: true, boost_token_available: false }],
  [
    'account promos',
    AccountPromosResult,
    {
      success: true,
      count: 1,
      promos: [
        {
          promo_id: 1,
          session_id: null,
          session_ids: [],
          account_id: 'a',
          bookie: 'bookie_c',
          promo: 'bet_boost',
          label: 'l',
          summary: { label: 'l', headline: 'h', detail: 'd' },
          kind: 'sports',
          placeable_by_id: false,
          how_to_bet: { endpoint: null, note: 'n' },
        },
      ],
    },
  ],
  [
    'market card',
    MarketCard,
    {
      epk: 'e',
      bookie: 'b',
      site_event_id: null,
      bound: true,
      market_ref_betting_enabled: true,
      n_markets: 1,
      n_selections: 2,
      n_bettable_selections: 1,
      include_unbettable: true,
      filters: { tier: null, market: null, include_unbettable: true },
      markets: [
        {
          market: 'head_to_head',
          label: 'H2H',
          raw_market_name: 'Match',
          tier: 'popular',
          n_bettable: 1,
          selections: [
            {
              label: 'home',
              odds: 1.9,
              line: null,
              player: null,
              slug: 'home',
              market_ref: 'mr',
              proposition_id: 'p',
              bettable: true,
            },
            {
              label: 'away',
              odds: 2,
              line: null,
              player: null,
              slug: 'away',
              proposition_id: null,
              bettable: false,
              reason: 'no_proposition_id',
            },
          ],
        },
      ],
    },
  ],
  [
    'events page',
    EventsPage,
    {
      count: 1,
      truncated: false,
      next_cursor: null,
      data: [
        {
          event_id: 'e',
          sport: 'basketball',
          league: 'nba',
          country: 'us',
          name: 'A v B',
          home: 'A',
          away: 'B',
          participants: ['A', 'B'],
          competitors: [{ id: '1', name: 'A', side: 'home', logo_url: null }],
          is_outright: false,
          start_time: 't',
          status: 'finished',
          books: ['b'],
          score: { status: 'final', home_score: 100, away_score: 90, source: 's', source_game_id: 'g' },
          has_closing: null,
          off_at: 'o',
          off_source: 'quorum',
        },
      ],
      generated_at: 'g',
    },
  ],
  [
    'price-check submission',
    PriceCheckSubmission,
    {
      status: 'pending',
      category: 'racing',
      race: { track: 'T', race_num: 1, race_type: '(R)', date: 'd' },
      queries: [{ session_id: 's', correlation_id: 'c' }],
    },
  ],
  [
    'price-check result (racing)',
    PriceCheckResult,
    {
      status: 'success',
      category: 'racing',
      session_id: 's',
      bookie: 'b',
      selections: [{ runner: 'R', prices: [{ market: 'win', price: 3 }] }],
    },
  ],
  [
    'price-check result (sports)',
    PriceCheckResult,
    {
      status: 'success',
      category: 'sports',
      session_id: 's',
      bookie: 'b',
      selections: [{ label: 'home', market: 'h2h', price: 1.9, market_ref: 'mr', line: null, player: null }],
    },
  ],
  [
    'webhook body',
    WebhookBody,
    {
      correlation_id: 'c',
      result: { success: true },
      metadata: { bookie: 'b', username: 'u', session_id: 's' },
      delivered_at: 'd',
    },
  ],
];

describe('response schemas: documented fields typed, unknown fields kept', () => {
  for (const [name, schema, sample] of samples) {
    it(`${name} parses its documented shape and keeps an unknown field`, () => {
      const parsed = parseResponse(
        schema,
        { ...sample, future_field: { x: 1 } },
        { method: 'GET', path: '/x', status: 200 },
      ) as Record<string, unknown>;
      expect(parsed).toEqual({ ...sample, future_field: { x: 1 } });
    });
  }

  it('reports a body that breaks a documented type with the field and the route', () => {
    try {
      parseResponse(
        MarketCard,
        { epk: 'e', bookie: 'b', bound: 'yes', market_ref_betting_enabled: true, markets: [] },
        { method: 'GET', path: '/v3/markets', status: 200 },
      );
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ResponseShapeError);
      expect((e as ResponseShapeError).message).toMatch(/GET \/v3\/markets answered 200 .*bound/);
    }
  });
});

describe('forward compatibility of responses', () => {
  it('tolerates enum values the spec does not list yet (tier, statuses, sources)', () => {
    const ctx = { method: 'GET', path: '/x', status: 200 };
    const card = parseResponse(
      MarketCard,
      {
        epk: 'e',
        bookie: 'bookie_a',
        bound: true,
        market_ref_betting_enabled: true,
        site_event_id_check: 'pending_review',
        markets: [{ market: 'm', label: 'M', tier: 'exotic', selections: [] }],
      },
      ctx,
    );
    expect(card.markets[0]?.tier).toBe('exotic');
    const page = parseResponse(
      EventsPage,
      {
        count: 1,
        next_cursor: null,
        data: [
          {
            event_id: 'e',
            sport: 's',
            league: 'l',
            name: 'n',
            start_time: 't',
            books: [],
            status: 'postponed',
            off_source: 'oracle',
          },
        ],
      },
      ctx,
    );
    expect(page.data[0]?.status).toBe('postponed');
    const tx = parseResponse(
      TransactionsResult,
      { success: true, transactions: [{ id: 't', type: 'bonus_credit', status: 'partially_settled' }] },
      ctx,
    );
    expect(tx.transactions[0]?.status).toBe('partially_settled');
    const polls = parseResponse(BetStatusResponse, { statuses: [{ correlation_id: 'c', status: 'queued' }] }, ctx);
    expect(polls.statuses[0]?.status).toBe('queued');
  });
});
