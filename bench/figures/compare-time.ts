// Figure 12: /compare end to end with three books: the time from a member sending /compare to the reply showing
// every book's live price (three price-check jobs in parallel, results by signed webhook), on the sandbox at real
// speed. Distinct events one after another, as members ask; p95 against the 2 s target.
import { GatewayClient } from '../../src/gateway/index.js';
import { FIXTURE_IDS, type InteractionHandle } from '../../src/local-discord/index.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { startStack } from '../lib/stack.js';
import { median, percentile } from '../lib/stats.js';
import { waitFor } from '../lib/wait.js';

const RUNS = 20;
const PICKER_KEY = 'sandbox-key-readonly';
const BOOKS = ['bookie_a', 'bookie_b', 'bookie_c'];

/** Prematch events all three books list, each with a named market all three price. */
async function threeBookMarkets(baseUrl: string, n: number): Promise<{ epk: string; market: string }[]> {
  // Another key of the sandbox: the card limit is per key, and these reads must not eat the bot's minute.
  const client = new GatewayClient({ baseUrl, apiKey: PICKER_KEY });
  try {
    const day = (k: number) => new Date(Date.now() + k * 86_400_000).toISOString().slice(0, 10);
    const events = await client.events.all({ since: day(0), until: day(3), status: 'prematch', limit: 500 });
    const out: { epk: string; market: string }[] = [];
    for (const e of events) {
      if (out.length >= n) break;
      if (!BOOKS.every((b) => e.books?.includes(b))) continue;
      const cards = await Promise.all(BOOKS.map((bookie) => client.markets.get({ epk: e.event_id, bookie })));
      const named = (c: (typeof cards)[number]) =>
        new Set(c.markets.filter((m) => m.tier !== 'unmapped' && m.selections.length > 0).map((m) => m.market));
      const [first, ...rest] = cards.map(named);
      const market = [...(first ?? [])].find((m) => rest.every((s) => s.has(m)));
      if (market) out.push({ epk: e.event_id, market });
    }
    if (out.length < n) throw new Error(`only ${out.length} events have a market all three books price; need ${n}`);
    return out;
  } finally {
    await client.close();
  }
}

const textOf = (h: InteractionHandle) => JSON.stringify(h.responses().at(-1)?.embeds ?? []);

export async function compareTime(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: true });
  try {
    const picks = await threeBookMarkets(stack.sandbox.url, RUNS + 2);
    const times: number[] = [];
    let incomplete = 0;
    for (const [i, p] of picks.entries()) {
      const t0 = performance.now();
      const h = await stack.ld.sendCommand({
        user: FIXTURE_IDS.users.bettor,
        channelId: FIXTURE_IDS.channels.bets,
        name: 'compare',
        options: { event: p.epk, market: p.market },
      });
      await waitFor(() => /Compare ·/.test(textOf(h)), 30_000, `/compare of ${p.epk}`, 5).catch((err: Error) => {
        throw new Error(`${err.message}; the reply: ${JSON.stringify(h.responses().at(-1) ?? null).slice(0, 400)}`);
      });
      const ms = performance.now() - t0;
      // Every book named in the reply: a book missing or unpriced would make the time meaningless.
      if (!BOOKS.every((b) => textOf(h).includes(b))) incomplete++;
      if (i >= 2) times.push(ms); // the first two warm the bot's caches and connections
    }
    return [
      figure({
        name: '12 /compare result time, three books, p95',
        value: percentile(times, 95),
        unit: 'ms',
        baseline: null,
        target: { on: 'value', op: '<', limit: 2_000 },
        note: `${times.length} /compare runs on distinct events listed by ${BOOKS.join(', ')} (one active session each), send to the reply with every book's live price; p50 ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms; price-check results by signed webhook, sandbox at real speed; ${incomplete} replies missing a book`,
      }),
    ];
  } finally {
    await stack.close();
  }
}
