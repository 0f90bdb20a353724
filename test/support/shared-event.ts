// An event bookie_a and bookie_c can both take a bet on, for the tests of routing between books.
import { GatewayClient } from '../../src/gateway/index.js';
import { API_KEY, type Desk } from './harness.js';

/** A prematch event all three books list, and a named market with one selection bookie_a and bookie_c both take. */
export interface Shared {
  epk: string;
  market: string;
  slug: string;
}

type ListedEvent = { event_id: string; sport: string; books?: string[] };

/**
 * `accept` narrows the choice further, given the event and every prematch event listed with it (the sandbox's world
 * moves with the clock, so what a test needs beside the event must be asked for, not assumed).
 */
export async function pickShared(
  desk: Desk,
  accept: (e: ListedEvent, listed: ListedEvent[]) => boolean = () => true,
): Promise<Shared> {
  const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
  try {
    const page = await client.events.list({ status: 'prematch', limit: 200 });
    for (const e of page.data) {
      // bookie_c takes no basketball bets in the sandbox, so the event must be another sport.
      if (e.sport === 'basketball' || !['bookie_a', 'bookie_b', 'bookie_c'].every((b) => e.books?.includes(b))) {
        continue;
      }
      if (!accept(e, page.data)) continue;
      const [a, c] = await Promise.all(
        ['bookie_a', 'bookie_c'].map((bookie) => client.markets.get({ epk: e.event_id, bookie })),
      );
      if (!a?.bound || !c?.bound) continue;
      for (const m of a.markets.filter((x) => x.tier !== 'unmapped')) {
        const atC = c.markets.find((x) => x.market === m.market);
        const sel = m.selections.find(
          (s) => s.bettable && s.slug && atC?.selections.some((t) => t.bettable && t.slug === s.slug),
        );
        if (sel?.slug) return { epk: e.event_id, market: m.market, slug: sel.slug };
      }
    }
  } finally {
    await client.close();
  }
  throw new Error('no prematch event with a named market shared by bookie_a and bookie_c in the sandbox');
}

/** Lengthens one book's price of the shared selection by `factor` (the sandbox's drift control), so books differ. */
export async function driftPrice(desk: Desk, shared: Shared, bookie: string, factor: number): Promise<void> {
  const r = await fetch(`${desk.sandbox.url}/_sandbox/world/drift`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ factor, bookie, epk: shared.epk, market: shared.market, selection: shared.slug }),
  });
  if (r.status !== 200) throw new Error(`drift refused: ${r.status} ${await r.text()}`);
}
