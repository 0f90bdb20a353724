// Plain Node ESM consumer: the package by name, the whole bet flow against the gateway at GATEWAY_BASE_URL.
import { betOutcomeOf, GatewayClient } from '@syndicate-desk/gateway-client';

const session = '5e55a1fa-0000-4000-8000-00000000000a';
const client = new GatewayClient({ baseUrl: process.env.GATEWAY_BASE_URL, apiKey: process.env.GATEWAY_API_KEY });
try {
  const events = await client.events.pages({ status: 'prematch', limit: 50 }).all({ max: 50 });
  const event = events.find((e) => e.books.includes('bookie_a'));
  const card = await client.markets.get({ epk: event.event_id, bookie: 'bookie_a' });
  const pick = card.markets.flatMap((m) => m.selections).find((s) => s.bettable && s.market_ref);
  const check = await client.priceChecks.sports({
    session_ids: [session],
    market_ref: pick.market_ref,
    epk: event.event_id,
    sport: event.league,
  });
  const priced = await check.jobs[0].wait();
  const price = priced.status === 'completed' ? priced.result.selections?.[0]?.price : undefined;
  const { data: bet, response } = await client.bets
    .placeSports({
      session_id: session,
      market_ref: pick.market_ref,
      epk: event.event_id,
      sport: event.league,
      stake: 2,
      target_odds: 1.01,
    })
    .withResponse();
  const outcome = await bet.wait();
  const receipt = outcome.status === 'completed' ? betOutcomeOf(outcome.result) : { placed: false };
  console.log(
    JSON.stringify({ via: 'esm', price, status: response.status, placed: receipt.placed, betId: receipt.betId }),
  );
} finally {
  await client.close();
}
