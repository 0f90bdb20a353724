// GET /v3/markets: one book's market card for an event.
import type { Ctx, Route } from '../core/http.js';
import { ApiError, ok, type Reply } from '../core/reply.js';
import { BOOKIES, isBookie, marketRefBettingEnabled } from '../world/books.js';
import { viewCard } from '../world/card-view.js';
import { TIERS, type Tier } from '../world/cards.js';
import { checkSiteEventId } from '../world/site-event.js';

function param(ctx: Ctx, name: string): string | null {
  const v = ctx.query.get(name);
  return v === null || v.trim() === '' ? null : v.trim();
}

function required(ctx: Ctx, name: string, example: string): string {
  const v = param(ctx, name);
  if (v === null)
    throw new ApiError(400, { detail: `Query parameter '${name}' is required, e.g. ${example}`, field: name });
  return v;
}

function readCard(ctx: Ctx, limited = true): Reply {
  const world = ctx.sb.world;
  const now = world.nowMs();
  const wait = limited ? world.cardLimit.take(ctx.account.id, now) : 0;
  if (wait > 0) {
    const seconds = Math.max(1, Math.ceil(world.clock.toRealMs(wait) / 1000));
    throw new ApiError(
      429,
      {
        detail: `Rate limit: ${world.cardLimit.limit} market card requests per minute per API key; retry after ${seconds} s`,
        retry_after: seconds,
      },
      { 'Retry-After': String(seconds) },
    );
  }
  const epk = required(ctx, 'epk', 'an event_id from GET /odds/v1/events');
  const bookie = required(ctx, 'bookie', 'bookie_a');
  if (!isBookie(bookie)) {
    throw new ApiError(400, {
      detail: `Unknown bookie '${bookie}'; use one of ${BOOKIES.join(', ')}`,
      field: 'bookie',
      valid_bookies: BOOKIES,
    });
  }
  const rawTier = param(ctx, 'tier');
  if (rawTier !== null && !(TIERS as readonly string[]).includes(rawTier)) {
    throw new ApiError(422, {
      detail: `Unknown tier '${rawTier}'; use one of ${TIERS.join(', ')}`,
      field: 'tier',
      valid_tiers: TIERS,
    });
  }
  const rawUnbettable = param(ctx, 'include_unbettable');
  let includeUnbettable = false;
  if (rawUnbettable !== null) {
    if (!['true', 'false', '1', '0'].includes(rawUnbettable)) {
      throw new ApiError(400, { detail: "include_unbettable must be 'true' or 'false'", field: 'include_unbettable' });
    }
    includeUnbettable = rawUnbettable === 'true' || rawUnbettable === '1';
  }
  const market = param(ctx, 'market');
  const callerId = param(ctx, 'site_event_id');

  const ev = world.findEvent(epk);
  if (!ev)
    throw new ApiError(404, { detail: `Unknown event '${epk}': send an event_id from GET /odds/v1/events`, epk });

  const link = world.link(ev, bookie, now);
  let bound = link.linked;
  let serveCard = link.linked;
  let siteEventId: string | null = link.linked ? link.siteEventId : null;
  const extra: Record<string, unknown> = {};
  if (callerId !== null) {
    const d = checkSiteEventId(link, callerId, (id) => world.eventBySiteId(bookie, id) !== undefined);
    serveCard = d.serveCard;
    bound = link.linked;
    if (d.check === 'unbound') siteEventId = callerId;
    Object.assign(extra, {
      site_event_id_source: 'caller',
      spine_site_event_id: d.spine,
      site_event_id_check: d.check,
    });
  }
  const tier = rawTier as Tier | null;
  // The unofferedCards fault: the rows of a sport the book takes no bets on are served as bettable (decision 1995).
  const rows = ctx.sb.faults.config.unofferedCards ? world.pricedCard(ev, bookie) : world.card(ev, bookie);
  const view = serveCard
    ? viewCard(rows, {
        bookie,
        epk,
        tier,
        market,
        includeUnbettable,
        price: (m, sel) => world.cardPrice(bookie, epk, m, sel, now),
      })
    : { markets: [], n_markets: 0, n_selections: 0, n_bettable_selections: 0 };
  return ok({
    epk,
    bookie,
    site_event_id: siteEventId,
    bound,
    market_ref_betting_enabled: marketRefBettingEnabled(bookie),
    n_markets: view.n_markets,
    n_selections: view.n_selections,
    n_bettable_selections: view.n_bettable_selections,
    include_unbettable: includeUnbettable,
    filters: { tier, market, include_unbettable: includeUnbettable },
    ...extra,
    markets: view.markets,
  });
}

export const marketsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v3/markets',
    handler: (ctx) => readCard(ctx),
    // Sample mode reads the same simulated card (nothing in it is private) without spending the caller's rate.
    sample: (ctx) => readCard(ctx, false),
  },
];
