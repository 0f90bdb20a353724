// A market card whose rows share an id: which rows an id no longer names, so that nobody bets them.
//
// The spec makes `market_ref` the "exact id" of one selection and omits a selection whose proposition id is
// ambiguous (GET /v3/markets rule 4). A card that breaks this (two rows, one market_ref; two bettable rows, one
// proposition_id) cannot say which of them a bet by that id would place, so every row sharing the id is turned
// unbettable here, whatever the gateway claimed: a bet could land on the other row, at another price.
import type { MarketCard, MarketSelection } from './schemas/markets.js';

/** Why a row was turned unbettable: the id it shares with another row of the card. */
export type AmbiguousReason = 'ambiguous_market_ref' | 'ambiguous_proposition_id';

/** Rows of one card sharing one id. */
export interface IdClash {
  reason: AmbiguousReason;
  /** The shared id. */
  id: string;
  /** The rows that share it, as `market: label`. */
  rows: string[];
}

export interface GuardedCard {
  /** The card with every row that shares an id unbettable (no market_ref, `reason` naming the id); the same object when nothing clashed. */
  card: MarketCard;
  clashes: IdClash[];
}

type Place = { m: number; s: number };

function collect(card: MarketCard, idOf: (s: MarketSelection) => string | null | undefined): Map<string, Place[]> {
  const seen = new Map<string, Place[]>();
  card.markets.forEach((market, m) => {
    market.selections.forEach((sel, s) => {
      const id = idOf(sel);
      if (typeof id !== 'string' || id === '') return;
      const at = seen.get(id);
      if (at) at.push({ m, s });
      else seen.set(id, [{ m, s }]);
    });
  });
  return seen;
}

/**
 * Every row sharing a market_ref with another row, or a proposition_id with another bettable row, made unbettable.
 * Pure: the card passed in is not changed.
 */
export function guardCardIds(card: MarketCard): GuardedCard {
  const clashes: IdClash[] = [];
  const marked = new Map<string, AmbiguousReason>();
  const note = (reason: AmbiguousReason, groups: Map<string, Place[]>) => {
    for (const [id, places] of groups) {
      if (places.length < 2) continue;
      clashes.push({
        reason,
        id,
        rows: places.map(({ m, s }) => {
          const market = card.markets[m];
          return `${market?.market}: ${market?.selections[s]?.label}`;
        }),
      });
      for (const { m, s } of places) if (!marked.has(`${m}/${s}`)) marked.set(`${m}/${s}`, reason);
    }
  };
  note(
    'ambiguous_market_ref',
    collect(card, (s) => s.market_ref),
  );
  note(
    'ambiguous_proposition_id',
    collect(card, (s) => (s.bettable ? s.proposition_id : null)),
  );
  if (clashes.length === 0) return { card, clashes };

  let bettableLeft = 0;
  const markets = card.markets.map((market, m) => {
    const selections = market.selections.map((sel, s) => {
      const reason = marked.get(`${m}/${s}`);
      if (!reason) return sel;
      const { market_ref: _dropped, ...rest } = sel;
      return { ...rest, bettable: false, reason };
    });
    const nBettable = selections.filter((x) => x.bettable).length;
    bettableLeft += nBettable;
    return { ...market, selections, ...(market.n_bettable !== undefined ? { n_bettable: nBettable } : {}) };
  });
  return {
    card: {
      ...card,
      markets,
      ...(card.n_bettable_selections !== undefined ? { n_bettable_selections: bettableLeft } : {}),
    },
    clashes,
  };
}
