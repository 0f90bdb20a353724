/**
 * Line shopping: one market of one event priced live at every active session whose book lists the event,
 * one price-check job per session and selection, all in parallel; the best price per selection marked.
 */

import type { Event, MarketCard, MarketSelection, Session } from '../../gateway/index.js';
import type { BotContext } from '../context.js';
import { UserFacingError, userMessage } from '../discord/user-errors.js';
import { fairFromCards } from '../model/card-fair.js';
import {
  type BookPrice,
  bestOf,
  comparableMarket,
  MAX_SELECTIONS,
  type SelectionComparison,
  selectionKey,
  selectionMatches,
} from '../model/compare.js';
import { DEFAULT_MARGIN_METHOD, type MarginMethod } from '../model/fair-price.js';
import { bettable } from '../model/markets.js';
import { livePriceOf } from './slip-factory.js';

const PRICE_WAIT_MS = 20_000;
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
  q: { epk: string; market: string; selection?: string; method?: MarginMethod },
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
    // The fair price comes from the cards just read: no read of its own.
    const fair = fairFromCards({ cards, market: q.market, selection: key, method: q.method ?? DEFAULT_MARGIN_METHOD });
    out.push({ key, label: row.label, books, best: bestOf(books), fair });
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
