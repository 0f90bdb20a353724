/**
 * Line shopping: one market of one event priced live at every active session whose book lists the event,
 * one price-check job per session and selection, all in parallel; the best price per selection marked.
 */

import type { Event, MarketCard, MarketRow, MarketSelection, Session } from '../../gateway/index.js';
import type { BotContext } from '../context.js';
import { UserFacingError, userMessage } from '../discord/user-errors.js';
import { bettable } from '../model/markets.js';
import { livePriceOf } from './bet-service.js';

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

/** A selection named by its slug, its label or its key (slugs and labels are shared across books, market_refs not). */
export const selectionMatches = (s: MarketSelection, wanted: string) => {
  const w = wanted.trim().toLowerCase();
  return s.slug?.toLowerCase() === w || s.label.toLowerCase() === w || selectionKey(s).toLowerCase() === w;
};

/** A market comparable across books: named (mapped) markets only, by their market key. */
export const comparableMarket = (card: MarketCard | undefined, market: string): MarketRow | undefined =>
  card?.markets.find((m) => m.market === market && m.tier !== 'unmapped');

export interface EventBooks {
  event: Event;
  /** Active sessions whose book lists the event. */
  sessions: Session[];
  /** Each such book's own card (undefined when it could not be read): market_refs are valid only at their book. */
  cards: Map<string, MarketCard | undefined>;
}

/** The event, the active sessions on the books that list it, and those books' cards (read in parallel). */
export async function eventBooks(ctx: BotContext, epk: string): Promise<EventBooks> {
  const event = await ctx.catalog.event(epk);
  if (!event) throw new UserFacingError('That event is not in the listing any more. Pick it again from the list.');
  const books = event.books ?? [];
  const sessions = (await ctx.catalog.loadSessions()).filter((s) => s.active && books.includes(s.bookie));
  const bookies = [...new Set(sessions.map((s) => s.bookie))];
  const read = await Promise.all(bookies.map((b) => ctx.catalog.loadCard(epk, b).catch(() => undefined)));
  return { event, sessions, cards: new Map(bookies.map((b, i) => [b, read[i]])) };
}

export async function compareMarket(
  ctx: BotContext,
  q: { epk: string; market: string; selection?: string },
): Promise<{ eventName: string; marketLabel: string; rows: SelectionComparison[] }> {
  const { event, sessions, cards } = await eventBooks(ctx, q.epk);
  if (sessions.length === 0) {
    const books = event.books ?? [];
    throw new UserFacingError(`No active session on a book that lists ${event.name} (${books.join(', ') || 'none'}).`);
  }
  const markets = new Map([...cards].map(([bookie, card]) => [bookie, comparableMarket(card, q.market)]));
  const anyMarket = [...markets.values()].find((m) => m !== undefined);
  if (!anyMarket) {
    throw new UserFacingError(
      `No book has a comparable "${q.market}" market for ${event.name}. Unmapped markets are one book's own and cannot be compared.`,
    );
  }
  const rows = new Map<string, { label: string; jobs: Array<Promise<BookPrice>> }>();
  const wanted = (s: MarketSelection) => (q.selection ? selectionMatches(s, q.selection) : true);
  for (const session of sessions) {
    const market = markets.get(session.bookie);
    for (const sel of market ? bettable(market).filter(wanted) : []) {
      const key = selectionKey(sel);
      const row = rows.get(key) ?? { label: `${sel.label}`, jobs: [] };
      if (!rows.has(key)) {
        if (rows.size >= MAX_SELECTIONS) continue;
        rows.set(key, row);
      }
      const at = { sessionId: session.session_id, bookie: session.bookie, marketRef: sel.market_ref as string };
      row.jobs.push(priceAtSession(ctx, { sport: event.sport, epk: q.epk, ...at }));
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

/** One price-check job at one session; a failure is kept on the row (the other books still answer). */
export async function priceAtSession(
  ctx: BotContext,
  q: { sport: string; epk: string; sessionId: string; bookie: string; marketRef: string },
): Promise<BookPrice> {
  const { sport, epk, sessionId, bookie, marketRef } = q;
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
