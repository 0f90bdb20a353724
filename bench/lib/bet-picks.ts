// Bettable selections the sandbox offers (event, book, market, market_ref), read through the client once.
import { GatewayClient } from '../../src/gateway/index.js';
import { bookedEvents } from './sandbox-events.js';

/** Events looked at beyond `count` for ones with a bettable selection. */
const CANDIDATES_BEYOND = 40;

export interface BetPick {
  epk: string;
  bookie: string;
  market: string;
  marketRef: string;
  /** The event's sport key and the row's card price, for placing it straight through the API. */
  sport: string;
  odds: number;
}

/**
 * Up to `count` picks, one per event, from the first events listed that have a bettable selection with a market_ref.
 * Which events have one depends on the hour (an event in play, a card without market_ref betting), so more events
 * than `count` are looked at: with only the first `count`, a figure asking for one pick found none at 03:00.
 */
export async function betPicks(baseUrl: string, apiKey: string, count: number): Promise<BetPick[]> {
  const events = await bookedEvents(baseUrl, apiKey, 1, count + CANDIDATES_BEYOND);
  const client = new GatewayClient({ baseUrl, apiKey });
  try {
    const out: BetPick[] = [];
    for (const e of events) {
      if (out.length >= count) break;
      const card = await client.markets.get({ epk: e.epk, bookie: e.bookie, tier: 'popular' });
      if (!card.market_ref_betting_enabled) continue;
      for (const m of card.markets) {
        const sel = m.selections.find((s) => s.bettable && s.market_ref && s.odds !== null);
        if (sel?.market_ref) {
          out.push({
            epk: e.epk,
            bookie: e.bookie,
            market: m.market,
            marketRef: sel.market_ref,
            sport: e.sport,
            odds: sel.odds as number,
          });
          break;
        }
      }
    }
    if (out.length === 0) throw new Error('the sandbox offered no bettable selection with a market_ref');
    return out;
  } finally {
    await client.close();
  }
}
