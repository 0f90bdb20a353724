// Sports placement and pricing at the bookmaker (job time): by market_ref or by market/selection text.
import { stakeLimitNow, stakeUnderLimit } from '../accounts/stake-limits.js';
import type { Session } from '../accounts/types.js';
import { type Bookie, sportNotOffered } from './books.js';
import { findSelection, isBettable } from './card-view.js';
import type { CardMarket, CardSelection } from './cards.js';
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
import { decideSportsPromos, type PromoAsk } from './promo-options.js';
import { checkSiteEventId } from './site-event.js';
import type { SportEvent } from './sports.js';
import { findMarket, resolveEvent, resolveSelection, type TextQuery } from './sports-match.js';

export interface RefQuery {
  market_ref: string;
  epk: string;
  site_event_id?: string | undefined;
}

export interface Resolved {
  ev: SportEvent;
  market: CardMarket;
  selections: CardSelection[];
  dispatched?: { site_event_id: string | null; site_event_id_source: 'spine' | 'caller' | 'caller_unbound' };
}

type Failure = { ok: false; error: string; softMiss?: boolean };

/** A market_ref at job time: the event still open, the link (or the caller's id), the selection still bettable. */
export function resolveRef(world: SimWorld, bookie: Bookie, q: RefQuery): ({ ok: true } & Resolved) | Failure {
  const parts = decodeMarketRef(q.market_ref);
  const ev = world.findEvent(q.epk);
  if (!parts || !ev) return { ok: false, error: 'market_ref_unknown: read the card again with GET /v3/markets' };
  if (world.status(ev) === 'finished') return { ok: false, error: 'event_finished: the market is closed' };
  const offered = sportNotOffered(bookie, ev.sport);
  if (offered) return { ok: false, error: offered };
  const link = world.link(ev, bookie);
  let dispatched: Resolved['dispatched'];
  if (q.site_event_id !== undefined) {
    const d = checkSiteEventId(link, q.site_event_id, (id) => world.eventBySiteId(bookie, id) !== undefined);
    if (d.check === 'conflict')
      return { ok: false, error: 'site_event_id_conflict: the event is linked to a different match' };
    if (!d.serveCard)
      return { ok: false, error: `site_event_id_unknown: ${bookie} holds no card for '${q.site_event_id}'` };
    dispatched = {
      site_event_id: q.site_event_id,
      site_event_id_source: d.check === 'unbound' ? 'caller_unbound' : 'caller',
    };
  } else if (link.linked) {
    dispatched = { site_event_id: link.siteEventId, site_event_id_source: 'spine' };
  } else {
    return {
      ok: false,
      error: `event_not_linked: ${bookie} has not linked this event yet; send site_event_id with the bookmaker's own event id`,
    };
  }
  const hit = findSelection(world.card(ev, bookie), parts.market, parts.selection);
  if (!hit || !isBettable(hit.selection))
    return { ok: false, error: 'selection_gone: the selection is no longer on the card' };
  return { ok: true, ev, market: hit.market, selections: [hit.selection], dispatched };
}

/** Text query at job time (rule 1): the event, then market/selection on this book's card. */
export function resolveText(
  world: SimWorld,
  bookie: Bookie,
  q: TextQuery,
  allSelections = false,
): ({ ok: true } & Resolved) | Failure {
  const now = world.nowMs();
  const ev = resolveEvent(world.allEvents(now), q, (epk) => world.findEvent(epk), now);
  if (!ev) return { ok: false, error: `event_not_found: no '${q.event}' in ${q.competition ?? 'any competition'}` };
  if (!ev.links.some((l) => l.bookie === bookie)) {
    return { ok: false, softMiss: true, error: `market_not_carried: ${bookie} does not offer ${ev.name}` };
  }
  if (world.status(ev, now) === 'finished') return { ok: false, error: 'event_finished: the market is closed' };
  const offered = sportNotOffered(bookie, ev.sport);
  if (offered) return { ok: false, error: offered };
  const card = world.card(ev, bookie);
  if (allSelections && !q.selection) {
    // A price check without a selection prices the whole market.
    const found = findMarket(card, q.market ?? '');
    const market = found?.market;
    if (!market || (market.tier === 'unmapped' && !found.byTitle)) {
      const r = resolveSelection(ev, card, q);
      return r.ok ? { ok: false, error: 'selection_not_found' } : r;
    }
    return { ok: true, ev, market, selections: market.selections.filter(isBettable) };
  }
  const r = resolveSelection(ev, card, q);
  if (!r.ok) return r;
  if (!isBettable(r.selection)) {
    return {
      ok: false,
      error: `selection_not_bettable: ${r.selection.label} has no ${r.selection.reason === 'ambiguous_proposition_id' ? 'unique ' : ''}proposition id at ${bookie}`,
    };
  }
  return { ok: true, ev, market: r.market, selections: [r.selection] };
}

export interface SportsBetRequest extends PriceLimits {
  stake: number;
  useBonus: boolean;
  betType: string;
  ref?: RefQuery;
  text?: TextQuery;
  ask: PromoAsk;
}

/** The job of POST /v3/place_bet for a sports bet. */
export function placeSportsBet(
  books: BetBooks,
  world: SimWorld,
  session: Session,
  req: SportsBetRequest,
): Record<string, unknown> {
  const bookie = session.bookie as Bookie;
  const promos = decideSportsPromos(req.ask);
  if (!promos.ok) return betFailure(promos.error, req.stake, null);
  const r = req.ref ? resolveRef(world, bookie, req.ref) : resolveText(world, bookie, req.text ?? {});
  if (!r.ok) return betFailure(r.error, req.stake, null, r.softMiss ? { soft_miss: true } : {});
  const sel = r.selections[0] as CardSelection;
  const extra: Record<string, unknown> = {
    bookie,
    epk: r.ev.epk,
    event: r.ev.name,
    market: r.market.market,
    selection: sel.label,
    line: sel.line,
    ...(r.dispatched ? { dispatched: r.dispatched } : {}),
  };
  const refused = accountRefusal(req, req.stake);
  if (refused) return betFailure(refused.error, req.stake, null, { ...extra, ...refused.extra });
  const limit = stakeLimitNow(books.accounts.bookAccountOf(session), r.ev.sport, books.ledger.bets());
  const taken = stakeUnderLimit(limit, req.stake, req.useBonus);
  if ('error' in taken) return betFailure(taken.error, req.stake, null, { ...extra, max_stake: taken.maxStake });
  const stake = taken.stake;
  const price = movedPrice(world.livePrice(bookie, r.ev.epk, r.market.market, sel), req);
  const refusal = priceRefusal(price, req);
  if (refusal) return betFailure(refusal, req.stake, price, extra);
  const marketRef =
    req.ref?.market_ref ?? encodeMarketRef({ bookie, epk: r.ev.epk, market: r.market.market, selection: sel.slug });
  const done = commitBet(books, world, session, {
    stake,
    odds: price,
    useBonus: req.useBonus,
    betType: req.betType,
    epk: r.ev.epk,
    marketRef,
    selections: [{ event: r.ev.name, selection: sel.label, market: r.market.market, odds: price }],
    how: {
      kind: 'sports',
      epk: r.ev.epk,
      market: r.market.market,
      outcome: sel.outcome,
      chance: sel.chance,
      player: sel.player !== null,
    },
  });
  if (!done.ok) return betFailure(done.error, req.stake, price, extra);
  return betSuccess(done.betId, price, stake, {
    ...extra,
    is_bonus_bet: req.useBonus,
    bonus_token_id: done.bonusTokenId,
  });
}

/** Selections of a resolved sports price check, with live prices; remembered for the fast path. */
export function pricedSelections(world: SimWorld, bookie: string, r: Resolved): Record<string, unknown>[] {
  const now = world.nowMs();
  return r.selections.map((sel) => {
    const price = world.livePrice(bookie, r.ev.epk, r.market.market, sel, now);
    world.recentPrices.set(`${bookie}|${r.ev.epk}|${r.market.market}|${sel.slug}`, { price, atMs: now });
    return {
      label: sel.label,
      market: r.market.market,
      price,
      market_ref: encodeMarketRef({ bookie, epk: r.ev.epk, market: r.market.market, selection: sel.slug }),
      line: sel.line,
      player: sel.player,
    };
  });
}
