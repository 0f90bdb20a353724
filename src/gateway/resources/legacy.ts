import type { z } from 'zod';
import type { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../request-options.js';
import {
  type LegacyBetResponse,
  LegacyBetResponse as LegacyBetSchema,
  type PlaceBetRequest,
  placeBetSchemaFor,
} from '../schemas/bets.js';
import { BonusBetsResult, SessionJobRequest, SplitBonusBetRequest, SplitResult } from '../schemas/bonus-bets.js';
import { PromosResult, PromoTokensRequest, PromoTokensResult } from '../schemas/promos.js';
import {
  type StackedSrmRequest,
  StackedSrmResult,
  StackedSrmRequest as StackedSrmSchema,
} from '../schemas/stacked-srm.js';
import { LegacyTransactionsQuery, TransactionsResult } from '../schemas/transactions.js';
import type { ResourceContext } from './context.js';

const noCallback = <T extends z.ZodObject>(schema: T) => schema.omit({ callback_url: true } as never);
const StackedSrmV2 = noCallback(StackedSrmSchema);

/**
 * @deprecated Older routes answering inline. Sunset 2026-05-17 for the v2 transactions, promos, bonus_bets,
 * promo_tokens, split_bonus_bet and stacked_srm branch (410 after it: DeprecatedEndpointError names the successor).
 */
export class Legacy {
  constructor(private readonly ctx: ResourceContext) {}

  /** @deprecated Use client.bets.place (POST /v3/place_bet). Legacy synchronous /api/place_bet. */
  placeBetSync(req: PlaceBetRequest, options?: RequestOptions): APIPromise<LegacyBetResponse> {
    return this.ctx.post(
      '/api/place_bet',
      placeBetSchemaFor(req),
      req,
      LegacyBetSchema,
      { idempotent: false },
      options,
    );
  }

  /** @deprecated Use client.bets.placeStackedSrm (POST /v3/stacked_srm). */
  stackedSrm(req: Omit<StackedSrmRequest, 'callback_url'>, options?: RequestOptions): APIPromise<StackedSrmResult> {
    // The v2 branch names its category in the body; the v3 path discriminates instead.
    const check = StackedSrmV2.transform((b) => ({ ...(b as object), category: 'stacked_srm' }));
    return this.ctx.post('/v2/place_bet', check, req, StackedSrmResult, { idempotent: false }, options);
  }

  /** @deprecated Use client.transactions.list (POST /v3/transactions). */
  transactions(query: LegacyTransactionsQuery, options?: RequestOptions): APIPromise<TransactionsResult> {
    return this.ctx.get('/v2/transactions', LegacyTransactionsQuery, query, TransactionsResult, options);
  }

  /** @deprecated Use client.promos.list (POST /v3/promos). */
  promos(req: { session_id: string }, options?: RequestOptions): APIPromise<PromosResult> {
    return this.ctx.post('/v2/promos', noCallback(SessionJobRequest), req, PromosResult, { idempotent: true }, options);
  }

  /** @deprecated Use client.bonusBets.list (POST /v3/bonus_bets). */
  bonusBets(req: { session_id: string }, options?: RequestOptions): APIPromise<BonusBetsResult> {
    return this.ctx.post(
      '/v2/bonus_bets',
      noCallback(SessionJobRequest),
      req,
      BonusBetsResult,
      { idempotent: true },
      options,
    );
  }

  /** @deprecated Use client.promos.tokens (POST /v3/promo_tokens). */
  promoTokens(req: Omit<PromoTokensRequest, 'callback_url'>, options?: RequestOptions): APIPromise<PromoTokensResult> {
    return this.ctx.post(
      '/v2/promo_tokens',
      noCallback(PromoTokensRequest),
      req,
      PromoTokensResult,
      { idempotent: true },
      options,
    );
  }

  /** @deprecated Use client.bonusBets.split (POST /v3/split_bonus_bet). The v2 result names new_amount and num_pieces. */
  splitBonusBet(req: Omit<SplitBonusBetRequest, 'callback_url'>, options?: RequestOptions): APIPromise<SplitResult> {
    return this.ctx.post(
      '/v2/split_bonus_bet',
      noCallback(SplitBonusBetRequest),
      req,
      SplitResult,
      { idempotent: false },
      options,
    );
  }
}
