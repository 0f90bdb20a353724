// Sports same-game multis (bookie_a only). The spec does not show a sports leg; the sandbox's choice (docs/spec-notes.md):
// `legs` of `{market_ref}` from the event's card, or `{market, selection, player?, line?}` named
// like a single sports bet. All legs on one event; priced as the legs' product less a correlation discount.

import type { Session } from '../accounts/types.js';
import { roundPrice } from '../core/money.js';
import type { Bookie } from './books.js';
import type { Outcome } from './cards.js';
import type { SimWorld } from './index.js';
import { decodeMarketRef, encodeMarketRef } from './market-ref.js';
import {
  accountRefusal,
  type BetBooks,
  betFailure,
  betSuccess,
  commitBet,
  movedPrice,
  type PriceLimits,
  priceRefusal,
} from './placement.js';
import { resolveRef, resolveText } from './sports-bets.js';
import type { TextQuery } from './sports-match.js';

export type SportsLeg =
  | { market_ref: string }
  | { market: string; selection: string; player?: string; line?: number | string };

/** What the same-game multi is placed on: the event (epk or competition + event) and its legs. */
export interface SportsMultiRequest extends PriceLimits {
  epk?: string;
  competition?: string;
  event?: string;
  legs: SportsLeg[];
  stake: number;
  useBonus: boolean;
}

/** Correlated legs pay less than independent ones. */
const CORRELATION = 0.8;

/** The job of POST /v3/place_bet for a sports same-game multi. */
export function placeSportsMulti(
  books: BetBooks,
  world: SimWorld,
  session: Session,
  req: SportsMultiRequest,
): Record<string, unknown> {
  const bookie = session.bookie as Bookie;
  const legs: {
    epk: string;
    name: string;
    market: string;
    label: string;
    slug: string;
    odds: number;
    outcome: Outcome;
    chance: number;
    player: boolean;
  }[] = [];
  for (const [i, leg] of req.legs.entries()) {
    const epk = 'market_ref' in leg ? (decodeMarketRef(leg.market_ref)?.epk ?? '') : (req.epk ?? '');
    const r =
      'market_ref' in leg
        ? resolveRef(world, bookie, { market_ref: leg.market_ref, epk })
        : resolveText(world, bookie, {
            ...(req.epk ? { epk: req.epk } : {}),
            ...(req.competition ? { competition: req.competition } : {}),
            ...(req.event ? { event: req.event } : {}),
            market: leg.market,
            selection: leg.selection,
            ...(leg.player ? { player: leg.player } : {}),
            ...(leg.line !== undefined ? { line: leg.line } : {}),
          } satisfies TextQuery);
    if (!r.ok) return betFailure(`leg ${i + 1}: ${r.error}`, req.stake, null);
    const sel = r.selections[0]!;
    if (legs.length > 0 && legs[0]!.epk !== r.ev.epk) {
      return betFailure(`legs_not_same_game: leg ${i + 1} is on ${r.ev.name}, not ${legs[0]!.name}`, req.stake, null);
    }
    if (legs.some((l) => l.market === r.market.market && l.slug === sel.slug)) {
      return betFailure(`duplicate_leg: leg ${i + 1} repeats ${sel.label}`, req.stake, null);
    }
    legs.push({
      epk: r.ev.epk,
      name: r.ev.name,
      market: r.market.market,
      label: sel.label,
      slug: sel.slug,
      odds: world.livePrice(bookie, r.ev.epk, r.market.market, sel),
      outcome: sel.outcome,
      chance: sel.chance,
      player: sel.player !== null,
    });
  }
  const first = legs[0]!;
  const legRows = legs.map((l) => ({
    market: l.market,
    selection: l.label,
    odds: l.odds,
    market_ref: encodeMarketRef({ bookie, epk: l.epk, market: l.market, selection: l.slug }),
  }));
  const extra = { bookie, epk: first.epk, event: first.name, market: 'sgm', legs: legRows };
  const refused = accountRefusal(req, req.stake);
  if (refused) return betFailure(refused.error, req.stake, null, { ...extra, ...refused.extra });
  const product = legs.reduce((a, l) => a * l.odds, 1);
  const price = movedPrice(Math.max(1.01, roundPrice(product * CORRELATION)), req);
  const refusal = priceRefusal(price, req);
  if (refusal) return betFailure(refusal, req.stake, price, extra);
  const done = commitBet(books, world, session, {
    stake: req.stake,
    odds: price,
    useBonus: req.useBonus,
    betType: 'sgm',
    epk: first.epk,
    selections: legs.map((l) => ({ event: l.name, selection: l.label, market: l.market, odds: l.odds })),
    how: {
      kind: 'sgm',
      epk: first.epk,
      legs: legs.map((l) => ({ market: l.market, outcome: l.outcome, chance: l.chance, player: l.player })),
    },
  });
  if (!done.ok) return betFailure(done.error, req.stake, price, extra);
  return betSuccess(done.betId, price, req.stake, {
    ...extra,
    is_bonus_bet: req.useBonus,
    bonus_token_id: done.bonusTokenId,
  });
}
