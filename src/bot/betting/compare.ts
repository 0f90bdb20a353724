/**
 * Line shopping: one market of one event priced live at every active session whose book lists the event,
 * one price-check job per session and selection, all in parallel; the best price per selection marked.
 */

import type { Event, MarketCard, Session } from '../../gateway/index.js';
import { classifyRefusal, notTakingText } from '../accounts/index.js';
import {
  anyMarket,
  type BookPrice,
  bestOf,
  bookChecks,
  comparableMarket,
  fairFromCards,
  leftOutText,
  MAX_SELECTIONS,
  type SelectionComparison,
  selectionKey,
  selectionMatches,
  upcomingWindow,
} from '../catalog/index.js';
import { DEFAULT_MARGIN_METHOD, type MarginMethod } from '../model/fair-price.js';
import { bettable } from '../model/markets.js';
import { userMessage } from '../model/user-errors.js';
import { UserFacingError } from '../model/user-facing-error.js';
import type { BettingReads } from './reads.js';
import { livePriceOf } from './slip-factory.js';

export interface EventBooks {
  event: Event;
  /** Active sessions whose book lists the event. */
  sessions: Session[];
  /** Each such book's own card (undefined when it could not be read): market_refs are valid only at their book. */
  cards: Map<string, MarketCard | undefined>;
  /** Why a book's card could not be read (the gateway's answer), by book. */
  cardErrors: Map<string, string>;
}

/** The event, the active sessions on the books that list it, and those books' cards (read in parallel). */
export async function eventBooks(ctx: BettingReads, epk: string): Promise<EventBooks> {
  // A cached event can lapse (its entry's lifetime, a moved clock): read the listing again before giving up.
  const event =
    (await ctx.catalog.event(epk)) ??
    (await ctx.catalog.loadEvents(upcomingWindow(ctx.now())).then((events) => events.find((e) => e.event_id === epk)));
  if (!event) throw new UserFacingError('That event is not in the listing any more. Pick it again from the list.');
  const books = event.books ?? [];
  const sessions = (await ctx.catalog.loadSessions()).filter((s) => s.active && books.includes(s.bookie));
  const bookies = [...new Set(sessions.map((s) => s.bookie))];
  const cardErrors = new Map<string, string>();
  const read = await Promise.all(
    bookies.map((b) =>
      ctx.catalog.loadCard(epk, b).catch((err: unknown) => {
        cardErrors.set(b, userMessage(err).slice(0, 120));
        return undefined;
      }),
    ),
  );
  return { event, sessions, cards: new Map(bookies.map((b, i) => [b, read[i]])), cardErrors };
}

/**
 * Every book the event lists gets a line per selection: its live price, or why it has none. Only books that can
 * take the bet (the eligibility of best-price /bet) can be the best; a book that prices it but cannot take a bet by
 * market_ref is priced for comparison and says so.
 */
export async function compareMarket(
  ctx: BettingReads,
  q: {
    epk: string;
    market: string;
    selection?: string;
    method?: MarginMethod;
    chosen?: Readonly<Record<string, string>>;
  },
): Promise<{ eventName: string; marketLabel: string; rows: SelectionComparison[] }> {
  const books = await eventBooks(ctx, q.epk);
  const { event, sessions, cards } = books;
  if (sessions.length === 0) {
    const listed = event.books ?? [];
    throw new UserFacingError(`No active session on a book that lists ${event.name} (${listed.join(', ') || 'none'}).`);
  }
  const market = anyMarket({ cards, market: q.market });
  if (!market) {
    throw new UserFacingError(
      `No book has a comparable "${q.market}" market for ${event.name}. Unmapped markets are one book's own and cannot be compared.`,
    );
  }
  const labels = new Map<string, string>();
  for (const card of cards.values()) {
    const m = comparableMarket(card, q.market);
    for (const sel of m ? bettable(m) : []) {
      if (q.selection && !selectionMatches(sel, q.selection)) continue;
      const key = selectionKey(sel);
      if (!labels.has(key) && labels.size < MAX_SELECTIONS) labels.set(key, sel.label);
    }
  }
  if (labels.size === 0) {
    throw new UserFacingError(
      q.selection
        ? `No book offers "${q.selection}" in ${market.label}. Leave the selection out to see them all.`
        : `Nothing in ${market.label} is bettable right now.`,
    );
  }
  const rows = [...labels].map(async ([key, label]) => {
    const checks = bookChecks({
      ...books,
      books: event.books ?? [],
      chosen: q.chosen ?? {},
      market: q.market,
      selection: key,
    });
    const answers = await Promise.all(
      checks.map(async (c): Promise<BookPrice> => {
        const shownOnly = c.leftOut?.kind === 'market_ref_off' ? refAt(cards.get(c.bookie), q.market, key) : undefined;
        const marketRef = c.leftOut ? shownOnly : c.marketRef;
        if (!c.sessionId || !marketRef) {
          return { bookie: c.bookie, price: null, why: leftOutText(c.leftOut ?? { kind: 'no_price' }) };
        }
        const at = { sessionId: c.sessionId, bookie: c.bookie, marketRef };
        const priced = await priceAtSession(ctx, { sport: event.sport, epk: q.epk, ...at });
        return c.leftOut ? { ...priced, why: leftOutText(c.leftOut) } : priced;
      }),
    );
    // The fair price comes from the cards just read: no read of its own.
    const fair = fairFromCards({ cards, market: q.market, selection: key, method: q.method ?? DEFAULT_MARGIN_METHOD });
    return { key, label, books: answers, best: bestOf(answers), fair };
  });
  return { eventName: event.name, marketLabel: market.label || market.market, rows: await Promise.all(rows) };
}

/** A selection's market_ref at one book, by its shared key. */
function refAt(card: MarketCard | undefined, market: string, key: string): string | undefined {
  const m = comparableMarket(card, market);
  return m ? bettable(m).find((s) => selectionMatches(s, key))?.market_ref : undefined;
}

/** One price-check job at one session; a failure is kept on the row (the other books still answer). */
export async function priceAtSession(
  ctx: BettingReads,
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
    const outcome = await job.wait({ signal: AbortSignal.timeout(ctx.config.tunables.priceCheckWaitMs) });
    if (outcome.status !== 'completed') return { ...base, price: null, error: `job ${outcome.status}` };
    const price = livePriceOf(outcome.result, marketRef) ?? null;
    const error = outcome.result.error;
    if (price === null && classifyRefusal(error) === 'not_offered') {
      // The book refuses the sport as a whole: remembered, so the next choices and routes leave it out.
      await ctx.accounts.sportRefused({ sessionId, bookie, sport, errorText: String(error) });
      return { ...base, price, error: notTakingText(sport) };
    }
    return { ...base, price };
  } catch (err) {
    return { ...base, price: null, error: userMessage(err) };
  }
}
