/**
 * Line shopping: one market of one event priced live at every active session whose book lists the event,
 * one price-check job per session and selection, all in parallel; the best price per selection marked.
 */

import type { MarketRow, MarketSelection } from '../gateway/index.js';
import { livePriceOf } from './bet-service.js';
import type { BotContext } from './context.js';
import { UserFacingError, userMessage } from './user-errors.js';
import { bettable } from './views/card.js';

const PRICE_WAIT_MS = 20_000;
/** More selections than this (a scorer list) make a wall of jobs: the member picks one instead. */
export const MAX_SELECTIONS = 6;

export interface BookPrice {
  bookie: string;
  sessionId: string;
  marketRef: string;
  price: number | null;
  error?: string;
}

export interface SelectionComparison {
  /** Key comparable across books: the selection's slug, else its label and line. */
  key: string;
  label: string;
  books: BookPrice[];
  /** The book with the highest live price, if any priced. */
  best: BookPrice | undefined;
}

export const selectionKey = (s: MarketSelection) => s.slug ?? `${s.label.toLowerCase()}|${s.line ?? ''}`;

/** The best (highest) live price among books; ties go to the first listed. */
export function bestOf(books: readonly BookPrice[]): BookPrice | undefined {
  let best: BookPrice | undefined;
  for (const b of books) if (b.price !== null && (best === undefined || b.price > (best.price ?? 0))) best = b;
  return best;
}

const matches = (s: MarketSelection, wanted: string) => {
  const w = wanted.trim().toLowerCase();
  return s.slug?.toLowerCase() === w || s.label.toLowerCase() === w;
};

export async function compareMarket(
  ctx: BotContext,
  q: { epk: string; market: string; selection?: string },
): Promise<{ eventName: string; marketLabel: string; rows: SelectionComparison[] }> {
  const event = await ctx.catalog.event(q.epk);
  if (!event) throw new UserFacingError('That event is not in the listing any more. Pick it again from the list.');
  const books = event.books ?? [];
  const sessions = (await ctx.catalog.loadSessions()).filter((s) => s.active && books.includes(s.bookie));
  if (sessions.length === 0) {
    throw new UserFacingError(`No active session on a book that lists ${event.name} (${books.join(', ') || 'none'}).`);
  }
  // Each book's own card: market_refs are valid only at the book they came from.
  const cards = new Map<string, MarketRow | undefined>();
  for (const bookie of new Set(sessions.map((s) => s.bookie))) {
    const card = await ctx.catalog.loadCard(q.epk, bookie).catch(() => undefined);
    cards.set(
      bookie,
      card?.markets.find((m) => m.market === q.market && m.tier !== 'unmapped'),
    );
  }
  const anyMarket = [...cards.values()].find((m) => m !== undefined);
  if (!anyMarket) {
    throw new UserFacingError(
      `No book has a comparable "${q.market}" market for ${event.name}. Unmapped markets are one book's own and cannot be compared.`,
    );
  }
  const rows = new Map<string, { label: string; jobs: Array<Promise<BookPrice>> }>();
  const wanted = (s: MarketSelection) => (q.selection ? matches(s, q.selection) : true);
  for (const session of sessions) {
    const market = cards.get(session.bookie);
    for (const sel of market ? bettable(market).filter(wanted) : []) {
      const key = selectionKey(sel);
      const row = rows.get(key) ?? { label: `${sel.label}`, jobs: [] };
      if (!rows.has(key)) {
        if (rows.size >= MAX_SELECTIONS) continue;
        rows.set(key, row);
      }
      row.jobs.push(livePrice(ctx, event.sport, q.epk, session.session_id, session.bookie, sel.market_ref as string));
    }
  }
  if (rows.size === 0) {
    throw new UserFacingError(
      q.selection
        ? `No book offers "${q.selection}" in ${anyMarket.label}. Leave the selection out to see them all.`
        : `Nothing in ${anyMarket.label} is bettable right now.`,
    );
  }
  const out: SelectionComparison[] = [];
  for (const [key, row] of rows) {
    const books = await Promise.all(row.jobs);
    out.push({ key, label: row.label, books, best: bestOf(books) });
  }
  return { eventName: event.name, marketLabel: anyMarket.label || anyMarket.market, rows: out };
}

async function livePrice(
  ctx: BotContext,
  sport: string,
  epk: string,
  sessionId: string,
  bookie: string,
  marketRef: string,
): Promise<BookPrice> {
  const base = { bookie, sessionId, marketRef };
  try {
    const submission = await ctx.gateway.priceChecks.sports({
      session_ids: [sessionId],
      category: 'sports',
      sport,
      epk,
      market_ref: marketRef,
      ...(ctx.callbackUrl ? { callback_url: ctx.callbackUrl } : {}),
    });
    const job = submission.jobs[0];
    if (!job) return { ...base, price: null, error: 'no job' };
    const outcome = await job.wait({ signal: AbortSignal.timeout(PRICE_WAIT_MS) });
    if (outcome.status !== 'completed') return { ...base, price: null, error: `job ${outcome.status}` };
    return { ...base, price: livePriceOf(outcome.result, marketRef) ?? null };
  } catch (err) {
    return { ...base, price: null, error: userMessage(err) };
  }
}
