// TypeScript consumer (strict, exactOptionalPropertyTypes, noPropertyAccessFromIndexSignature): the package by
// name, the whole bet flow against the gateway at GATEWAY_BASE_URL, using the exported types.
import {
  type BetOutcome,
  betOutcomeOf,
  type Event,
  GatewayClient,
  type JobOutcome,
  type MarketCard,
  type MarketSelection,
  type SportsPriceCheckResult,
} from '@syndicate-desk/gateway-client';

// biome-ignore lint/complexity/useLiteralKeys: noPropertyAccessFromIndexSignature asks for the bracket.
const baseUrl = process.env['GATEWAY_BASE_URL'];
// biome-ignore lint/complexity/useLiteralKeys: noPropertyAccessFromIndexSignature asks for the bracket.
const apiKey = process.env['GATEWAY_API_KEY'];
if (!baseUrl || !apiKey) throw new Error('set GATEWAY_BASE_URL and GATEWAY_API_KEY');
const session = '5e55a1fa-0000-4000-8000-00000000000a';
const client = new GatewayClient({ baseUrl, apiKey, timeoutMs: 20_000 });
try {
  const events: Event[] = [];
  for await (const e of client.events.pages({ status: 'prematch', limit: 50 })) {
    events.push(e);
    if (events.length >= 50) break;
  }
  const event = events.find((e) => e.books.includes('bookie_a'));
  if (!event) throw new Error('no prematch event listed by bookie_a');
  const card: MarketCard = await client.markets.get({ epk: event.event_id, bookie: 'bookie_a' }, { maxQueueMs: 5_000 });
  const pick: MarketSelection | undefined = card.markets.flatMap((m) => m.selections).find((s) => s.bettable);
  if (!pick?.market_ref) throw new Error('no bettable selection');
  const check = await client.priceChecks.sports({
    session_ids: [session],
    market_ref: pick.market_ref,
    epk: event.event_id,
    sport: event.league,
  });
  const job = check.jobs[0];
  if (!job) throw new Error('no price-check job');
  const priced: JobOutcome<SportsPriceCheckResult> = await job.wait({ signal: AbortSignal.timeout(20_000) });
  const price: number | null | undefined =
    priced.status === 'completed' ? priced.result.selections?.[0]?.price : undefined;
  const bet = await client.bets.placeSports({
    session_id: session,
    market_ref: pick.market_ref,
    epk: event.event_id,
    sport: event.league,
    stake: 2,
    target_odds: 1.01,
  });
  const outcome = await bet.wait();
  const receipt: BetOutcome = outcome.status === 'completed' ? betOutcomeOf(outcome.result) : { placed: false };
  console.log(JSON.stringify({ via: 'ts', price, placed: receipt.placed, betId: receipt.betId }));
} finally {
  await client.close();
}
