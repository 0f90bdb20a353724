// What happens at the bookmaker when a bet's job runs: live price against the caller's floor and ceiling,
// money or a bonus token, then the ledger. Results use the spec's bet-result shape.

import type { Accounts } from '../accounts/accounts.js';
import type { Ledger } from '../accounts/ledger.js';
import { maxStakeError, RESTRICTED_ERROR } from '../accounts/stake-limits.js';
import type { LedgerSelection, PromoTerms, Session } from '../accounts/types.js';
import { centsOf, dollarsText, money, priceText, roundPrice } from '../core/money.js';
import type { PlacedBet, SimWorld } from './index.js';

export interface PriceLimits {
  targetOdds: number;
  maxOdds: number | null;
  /** What the bookmaker imposes on this bet through the betting fault rules (price moved, max stake, restriction). */
  rules?: BookmakerRules;
}

export interface BookmakerRules {
  /** The live price at placement is multiplied by this (price_moved). */
  priceFactor?: number;
  /** Largest stake the account may place (max_stake). */
  maxStake?: number;
  /** The account may not bet at all (restricted). */
  restricted?: boolean;
}

/** The bookmaker's refusal of the account or the stake, before any price is read; null when it takes the bet. */
export function accountRefusal(
  limits: PriceLimits,
  stake: number,
): { error: string; extra: Record<string, unknown> } | null {
  const rules = limits.rules;
  if (rules?.restricted) {
    return {
      error: RESTRICTED_ERROR,
      extra: { restricted: true },
    };
  }
  if (rules?.maxStake !== undefined && stake > rules.maxStake) {
    return {
      error: maxStakeError(rules.maxStake),
      extra: { max_stake: rules.maxStake },
    };
  }
  return null;
}

/** The live price as the bookmaker quotes it at placement (moved by a price_moved fault). */
export function movedPrice(price: number, limits: PriceLimits): number {
  const f = limits.rules?.priceFactor;
  return f === undefined ? price : Math.min(1001, Math.max(1.01, roundPrice(price * f)));
}

/** Why a live price is refused, or null when it is inside [target_odds, max_odds]. */
export function priceRefusal(price: number, limits: PriceLimits): string | null {
  if (price < limits.targetOdds) {
    return `odds_below_target: live price ${priceText(price)} is below target_odds ${priceText(limits.targetOdds)}`;
  }
  if (limits.maxOdds !== null && price > limits.maxOdds) {
    return `odds_above_max: live price ${priceText(price)} is above max_odds ${priceText(limits.maxOdds)}`;
  }
  return null;
}

export function betSuccess(betId: string, odds: number, stake: number, extra: Record<string, unknown> = {}) {
  return {
    success: true,
    bet_result: { success: true, bet_id: betId, odds, stake, error: null },
    bet_id: betId,
    odds,
    stake,
    potential_return: money(odds * stake),
    error: null,
    ...extra,
  };
}

export function betFailure(error: string, stake: number, odds: number | null, extra: Record<string, unknown> = {}) {
  return {
    success: false,
    bet_result: { success: false, bet_id: null, odds, stake, error },
    error,
    ...extra,
  };
}

export interface CommitRequest {
  stake: number;
  odds: number;
  useBonus: boolean;
  betType: string;
  selections: Omit<LedgerSelection, 'result'>[];
  how: PlacedBet;
  epk?: string;
  raceKey?: string;
  marketRef?: string;
  /** A token allocated beforehand (stacked multis); default: one worth exactly the stake. */
  tokenId?: string;
  promoName?: string | null;
  promoTerms?: PromoTerms;
}

/** What a placement writes to: the book accounts (bonus tokens) and the ledger. */
export interface BetBooks {
  accounts: Accounts;
  ledger: Ledger;
}

/** Debits the stake (or spends a bonus token of exactly the stake) and records the bet; or says why not. */
export function commitBet(
  books: BetBooks,
  world: SimWorld,
  session: Session,
  req: CommitRequest,
): { ok: true; betId: string; bonusTokenId: string | null } | { ok: false; error: string } {
  const book = books.accounts.bookAccount(session.account_id);
  let bonusTokenId: string | null = null;
  if (req.useBonus) {
    const token = book.bonusTokens.find((t) =>
      req.tokenId ? t.id === req.tokenId : t.status === 'AVAILABLE' && Math.abs(t.amount - req.stake) < 0.005,
    );
    if (token?.status !== 'AVAILABLE') {
      return {
        ok: false,
        error: `no_bonus_token: no AVAILABLE bonus token worth exactly ${dollarsText(req.stake)}; split one with /v3/split_bonus_bet or bet cash`,
      };
    }
    // A bonus stake is the token's value, never part token and part cash (decision 1971).
    if (centsOf(token.amount) !== centsOf(req.stake)) {
      return {
        ok: false,
        error: `bonus_stake_above_token: the stake ${dollarsText(req.stake)} is more than its bonus token ${token.id} (${dollarsText(token.amount)}); a bonus bet's stake must equal its token, so stake ${dollarsText(token.amount)} or split a token with /v3/split_bonus_bet. The token was not used`,
      };
    }
    token.status = 'USED';
    bonusTokenId = token.id;
  } else if (books.ledger.available(session.account_id) < req.stake) {
    return {
      ok: false,
      error: `insufficient_balance: stake ${dollarsText(req.stake)} is more than the ${dollarsText(books.ledger.available(session.account_id))} available`,
    };
  }
  const betId = world.nextBetId(session.bookie);
  books.ledger.recordBet({
    bet_id: betId,
    session_id: session.session_id,
    account_id: session.account_id,
    bookie: session.bookie,
    stake: req.stake,
    odds: req.odds,
    is_bonus_bet: req.useBonus,
    placed_at: new Date(world.nowMs()).toISOString(),
    selections: req.selections.map((s) => ({ ...s, result: 'pending' as const })),
    ...(req.epk ? { epk: req.epk } : {}),
    ...(req.raceKey ? { race_key: req.raceKey } : {}),
    ...(req.marketRef ? { market_ref: req.marketRef } : {}),
    bet_type: req.betType,
    ...(req.promoName ? { promo_name: req.promoName } : {}),
    ...(req.promoTerms ? { promo_terms: req.promoTerms } : {}),
    ...(bonusTokenId ? { bonus_token_id: bonusTokenId } : {}),
  });
  world.notePlaced(betId, req.how);
  return { ok: true, betId, bonusTokenId };
}
