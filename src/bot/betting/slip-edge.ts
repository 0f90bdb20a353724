/**
 * The fair-price line and suggested stake of a sports slip, from the books' cards. Cards already at hand (the
 * best-price route read them) are used as they are; otherwise the event's other books' cards come from the
 * catalog's cache, and a missing one is read only in the background lane without queueing, so a slip never waits
 * on the gateway's card limit or takes a slot a member's own read needs (a book whose card cannot be read now is
 * left out of the consensus).
 */

import type { MarketCard } from '../../gateway/index.js';
import type { Catalog } from '../catalog/index.js';
import { fairFromCards } from '../catalog/index.js';
import { DEFAULT_MARGIN_METHOD, edgeOf } from '../model/fair-price.js';
import type { SlipEdge } from '../model/slip-rules.js';
import type { GuildSettings } from '../settings/index.js';
import { DEFAULT_KELLY_FRACTION, suggestedStakeCents } from './model/kelly.js';

export type Cards = ReadonlyMap<string, MarketCard | undefined>;

/** The event's books' cards: those given, else the cache, else a background read that never waits. */
export async function cardsForFair(
  catalog: Pick<Catalog, 'event' | 'peekCard' | 'loadCard'>,
  epk: string,
  own: { bookie: string; card: MarketCard },
  given?: Cards,
): Promise<Cards> {
  if (given) return new Map([...given, [own.bookie, own.card]]);
  const books = (await catalog.event(epk))?.books ?? [];
  const others = books.filter((b) => b !== own.bookie);
  const read = await Promise.all(
    others.map(async (b) => {
      const hit = await catalog.peekCard(epk, b);
      if (hit) return hit;
      return catalog.loadCard(epk, b, {}, { lane: 'background', maxQueueMs: 0 }).catch(() => undefined);
    }),
  );
  return new Map<string, MarketCard | undefined>([
    [own.bookie, own.card],
    ...others.map((b, i) => [b, read[i]] as const),
  ]);
}

/** The slip's fair price, edge at `odds`, and the fractional-Kelly stake of the bank under `capCents`. */
export function slipEdgeOf(input: {
  cards: Cards;
  market: string;
  marketRef: string;
  odds: number;
  settings: GuildSettings;
  bankCents: number | null;
  capCents: number;
}): SlipEdge {
  const method = input.settings.marginMethod ?? DEFAULT_MARGIN_METHOD;
  const fair = fairFromCards({ cards: input.cards, market: input.market, selection: input.marketRef, method });
  if (fair.kind !== 'fair') return { method, books: 0 };
  const fraction = input.settings.kellyFraction ?? DEFAULT_KELLY_FRACTION;
  const suggested =
    input.bankCents === null
      ? undefined
      : kellyCents({ ...input, probability: fair.probability, bankCents: input.bankCents });
  return {
    method,
    fairOdds: fair.odds,
    fairProbability: fair.probability,
    books: fair.books.length,
    edge: edgeOf(fair.probability, input.odds),
    kellyFraction: fraction,
    ...(suggested === undefined ? {} : { suggestedCents: suggested }),
  };
}

/** The server's fractional-Kelly stake of the bank at a fair probability, rounded down to its unit, under the cap. */
function kellyCents(input: {
  probability: number;
  odds: number;
  settings: GuildSettings;
  bankCents: number;
  capCents: number;
}): number {
  return suggestedStakeCents({
    probability: input.probability,
    odds: input.odds,
    bankCents: input.bankCents,
    fraction: input.settings.kellyFraction ?? DEFAULT_KELLY_FRACTION,
    unitCents: input.settings.stakeUnitCents ?? 100,
    capsCents: [input.capCents],
  });
}

/** The suggested stake at a fair probability already known (an alert's): undefined without a bank or an edge. */
export function suggestedAtFair(input: {
  probability: number;
  odds: number;
  settings: GuildSettings;
  bankCents: number | null;
  capCents: number;
}): number | undefined {
  if (input.bankCents === null) return undefined;
  const cents = kellyCents({ ...input, bankCents: input.bankCents });
  return cents > 0 ? cents : undefined;
}

/**
 * The suggested stake a stake form offers as its default, from cached cards only (a modal must answer a click
 * within 3 s, so no gateway read): undefined when a card is not cached, no bank is set or there is no edge.
 */
export async function suggestedFromCache(
  catalog: Pick<Catalog, 'event' | 'peekCard'>,
  q: {
    epk: string;
    bookie: string;
    marketRef: string;
    /** The price the member is offered; the card's when absent. */
    odds?: number;
    settings: GuildSettings;
    bankCents: number | null;
    capCents: number;
  },
): Promise<number | undefined> {
  if (q.bankCents === null) return undefined;
  const books = (await catalog.event(q.epk))?.books ?? [q.bookie];
  const read = await Promise.all(books.map((b) => catalog.peekCard(q.epk, b)));
  const cards = new Map(books.map((b, i) => [b, read[i]] as const));
  const row = cards.get(q.bookie)?.markets.find((m) => m.selections.some((s) => s.market_ref === q.marketRef));
  const odds = q.odds ?? row?.selections.find((s) => s.market_ref === q.marketRef)?.odds ?? undefined;
  if (!row || odds === undefined || odds === null) return undefined;
  const edge = slipEdgeOf({ ...q, cards, market: row.market, odds });
  return edge.suggestedCents && edge.suggestedCents > 0 ? edge.suggestedCents : undefined;
}
