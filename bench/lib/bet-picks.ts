// Bettable selections the sandbox offers (event, book, market, market_ref), read through the client once.
import { GatewayClient } from '../../src/gateway/index.js';
import { bookedEvents } from './sandbox-events.js';

/** Events listed to look through for ones with a bettable selection (cards are read only until `count` are found). */
const CANDIDATES = 500;

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
 * Up to `count` picks, one per event, from the first events listed that have a bettable selection with a market_ref,
 * events not yet started first. Which events have one depends on the hour (an event in play, a card without
 * market_ref betting), so more events than `count` are looked at: with only the first `count`, a figure asking for
 * one pick found none at 03:00. An event in play may finish while a figure bets on it: at 10:45 one did during figure
 * 6, and its market's slips ("the market is closed") left the desk short of a receipt for every bet. An event not yet
 * started runs at least its sport's shortest length (25 minutes) after its start, longer than any figure's picks are
 * used.
 */
export async function betPicks(baseUrl: string, apiKey: string, count: number): Promise<BetPick[]> {
  const listed = await bookedEvents(baseUrl, apiKey, 1, CANDIDATES);
  const events = [...listed.filter((e) => e.status === 'prematch'), ...listed.filter((e) => e.status !== 'prematch')];
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
