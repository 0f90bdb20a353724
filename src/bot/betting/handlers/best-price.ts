/**
 * /bet without a bookie: the best live price among the sessions that can take the stake. Every active session on
 * a book listing the event is checked (card, market_ref betting, cash balance), then one price check per session
 * left runs in parallel (the /compare path), and the slip goes to the best price with the reason it went there.
 */

import type { ChatInputCommandInteraction, ModalSubmitInteraction } from 'discord.js';
import type { BalanceRecord, Session } from '../../../gateway/index.js';
import {
  anyMarket,
  type BookCheck,
  balanceShort,
  bookChecks,
  comparableMarket,
  leftOutText,
  selectionKey,
} from '../../catalog/index.js';
import { balanceCents } from '../../model/gateway-amounts.js';
import type { PriceRoute } from '../../model/slip-rules.js';
import { accountName } from '../../model/slip-rules.js';
import { userMessage } from '../../model/user-errors.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import { type EventBooks, eventBooks, priceAtSession } from '../compare.js';
import { checkBettable } from './bet-gate.js';
import type { BettingDeps } from './deps.js';
import { postSlip } from './slip-post.js';

export interface PricedBook {
  bookie: string;
  sessionId: string;
  marketRef: string;
  balanceCents: number;
  price: number;
}

/** Prices are compared in thousandths, so 2.1 and 2.1000000001 (float noise) tie. */
const priceKey = (p: number) => Math.round(p * 1000);

/**
 * The routing rule, pure. Eligible: not left out, a live price, cash at least the stake. The highest live price
 * wins; on a tie the larger cash balance (more room left after the bet), then the book's name, then the session
 * id, in code-point order, so the same answers always pick the same book.
 */
export function rankPrices(
  checks: readonly BookCheck[],
  stakeCents: number,
): { ranked: PricedBook[]; leftOut: BookCheck[] } {
  const ranked: PricedBook[] = [];
  const leftOut: BookCheck[] = [];
  for (const c of checks) {
    const why = c.leftOut ?? balanceShort(c, stakeCents);
    if (why) leftOut.push({ ...c, leftOut: why });
    else if (
      typeof c.price === 'number' &&
      c.price > 1 &&
      c.sessionId !== undefined &&
      c.marketRef !== undefined &&
      c.balanceCents !== undefined
    ) {
      ranked.push({
        bookie: c.bookie,
        sessionId: c.sessionId,
        marketRef: c.marketRef,
        balanceCents: c.balanceCents,
        price: c.price,
      });
    } else leftOut.push({ ...c, leftOut: { kind: 'no_price' } });
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  ranked.sort(
    (a, b) =>
      priceKey(b.price) - priceKey(a.price) ||
      b.balanceCents - a.balanceCents ||
      order(a.bookie, b.bookie) ||
      order(a.sessionId, b.sessionId),
  );
  return { ranked, leftOut };
}

/** A book's name, with its session when the book has more than one session in the list. */
function labeller(checks: readonly BookCheck[]) {
  const count = new Map<string, number>();
  for (const c of checks) count.set(c.bookie, (count.get(c.bookie) ?? 0) + 1);
  return (c: { bookie: string; sessionId?: string | undefined }) =>
    (count.get(c.bookie) ?? 0) > 1 && c.sessionId ? `${c.bookie} (${c.sessionId.slice(0, 8)})` : c.bookie;
}

/** What the slip says about its book; the first priced book is the slip's own. */
export function routeOf(ranked: readonly PricedBook[], leftOut: readonly BookCheck[], stakeCents: number): PriceRoute {
  const label = labeller([...ranked, ...leftOut]);
  return {
    priced: ranked.map((r) => ({ book: label(r), price: r.price })),
    leftOut: leftOut.map((c) => ({
      book: label(c),
      why: leftOutText(c.leftOut ?? { kind: 'no_price' }, stakeCents),
    })),
  };
}

/** The private answer when no session can take the bet: each book's reason, then what to do. */
export function noBookText(route: PriceRoute): string {
  const why = route.leftOut.map((l) => `${l.book}: ${l.why}`).join('; ');
  return `No book can take this bet${why ? ` (${why})` : ''}. Try a smaller stake, start a session with /sessions, or pick a book with the bookie option.`;
}

/** The cash part of a balance record, in cents: a stake is paid in cash, bonus funds go by token. */
export function cashCents(b: BalanceRecord): number {
  return balanceCents(b).cashCents;
}

/** Marks the checks whose session account health leaves out (offline, restricted, limited below the stake). */
export async function leaveOutUnhealthy(
  ctx: BettingDeps,
  checks: BookCheck[],
  bet: { sport: string; sportGroup?: string; stakeCents: number; marketOf: (bookie: string) => string },
): Promise<void> {
  const open = checks.filter((c) => !c.leftOut && c.sessionId !== undefined);
  const out = await ctx.accounts.leaveOut(
    open.map((c) => ({ book: c.bookie, sessionId: c.sessionId as string, market: bet.marketOf(c.bookie) })),
    bet,
  );
  for (const c of open) {
    const why = out.get(c.sessionId as string);
    if (why) c.leftOut = { kind: 'account', why };
  }
}

/** Why a session outside the fund cannot take a stake the desk routes for the fund. */
export const OUTSIDE_FUND = "outside the fund: not the fund's accounts; name the book with bookie: to bet outside it";

/**
 * Marks the checks whose session's account is not one of the fund's (decision 1910). That is the reason the slip gives
 * for them, whatever else a book lacked: the fund's stake could never go there.
 */
export function leaveOutOfFund(checks: BookCheck[], sessions: readonly Session[], fund: ReadonlySet<string>): void {
  const nameOf = new Map(
    sessions.map((s) => [s.session_id, s.username ? accountName({ bookie: s.bookie, username: s.username }) : '']),
  );
  for (const c of checks) {
    if (c.sessionId === undefined) continue;
    if (!fund.has(nameOf.get(c.sessionId) ?? '')) c.leftOut = { kind: 'account', why: OUTSIDE_FUND };
  }
}

/**
 * Why account health leaves out the one session a stored best price points at (/compare's Bet at best), as the
 * answer to give instead of a slip; undefined when the session can take the stake.
 */
export async function leftOutAtBest(
  ctx: BettingDeps,
  at: { epk: string; bookie: string; sessionId: string; marketRef: string; stakeCents: number },
): Promise<string | undefined> {
  const [event, card] = await Promise.all([ctx.catalog.event(at.epk), ctx.catalog.loadCard(at.epk, at.bookie)]);
  const market = card.markets.find((m) => m.selections.some((s) => s.market_ref === at.marketRef))?.market ?? '';
  const out = await ctx.accounts.leaveOut([{ book: at.bookie, sessionId: at.sessionId, market }], {
    sport: event?.league ?? event?.sport ?? at.epk.split('/')[0] ?? '',
    stakeCents: at.stakeCents,
  });
  const why = out.get(at.sessionId);
  return why
    ? `Left out: ${at.bookie} (${why}). Run /bet without a bookie to route this stake to another book, or name ${at.bookie} in /bet to bet there anyway.`
    : undefined;
}

export interface RoutedBet {
  bookie: string;
  sessionId: string;
  marketRef: string;
  price: number;
  route: PriceRoute;
  /** The books' cards the route read: the slip's fair price is worked out from them, not read again. */
  cards: EventBooks['cards'];
  /** Every book that can take it, best first (the slip's own book included). */
  ranked: PricedBook[];
}

/**
 * Finds the book for a bet with no bookie named. `market` is a market key; `selection` a slug, label or key
 * (or a market_ref from one book's card, translated through that card). Throws a UserFacingError saying what to do
 * when no session can take the stake.
 */
export async function routeToBestPrice(
  ctx: BettingDeps,
  q: {
    /** bookie → the session an admin chose for it (the guild's settings, as the gate read them). */
    chosen: Readonly<Record<string, string>>;
    epk: string;
    market: string;
    selection: string;
    stakeCents: number;
    /**
     * The fund's accounts (`bookie/username`) when the server has a fund: a stake the desk routes is the fund's, so
     * only these accounts can take it (decision 1910). Null or absent: every account.
     */
    fundAccounts?: ReadonlySet<string> | null;
  },
): Promise<RoutedBet> {
  const books = await eventBooks(ctx, q.epk);
  const { event, cards } = books;
  const market = anyMarket({ cards, market: q.market });
  if (!market) {
    throw new UserFacingError(
      `No book has a comparable "${q.market}" market for ${event.name}. Pick the market from the list, or name a book with the bookie option.`,
    );
  }
  // A market_ref names a selection at one book only: find it there and route by its shared key.
  const byRef = [...cards.values()].flatMap((c) => comparableMarket(c, q.market)?.selections ?? []);
  const ref = byRef.find((s) => s.market_ref === q.selection);
  const selection = ref ? selectionKey(ref) : q.selection;
  const checks = bookChecks({ ...books, books: event.books ?? [], chosen: q.chosen, market: q.market, selection });
  if (q.fundAccounts) leaveOutOfFund(checks, books.sessions, q.fundAccounts);
  // Account health: sessions offline, restricted, or limited below this stake on the market (betting/account-health.ts).
  await leaveOutUnhealthy(ctx, checks, {
    sport: event.league ?? event.sport,
    sportGroup: event.sport,
    stakeCents: q.stakeCents,
    marketOf: (b) => comparableMarket(cards.get(b), q.market)?.market ?? q.market,
  });
  await Promise.all(
    checks
      .filter((c) => !c.leftOut)
      .map(async (c) => {
        try {
          c.balanceCents = cashCents(await ctx.gateway.balances.get({ session_id: c.sessionId as string }));
          const short = balanceShort(c, q.stakeCents);
          if (short) c.leftOut = short;
        } catch (err) {
          c.leftOut = { kind: 'balance_unread', error: userMessage(err).slice(0, 120) };
        }
      }),
  );
  await Promise.all(
    checks
      .filter((c) => !c.leftOut)
      .map(async (c) => {
        const at = { sessionId: c.sessionId as string, bookie: c.bookie, marketRef: c.marketRef as string };
        const priced = await priceAtSession(ctx, { sport: event.sport, epk: q.epk, ...at });
        c.price = priced.price;
        if (priced.price === null) c.leftOut = { kind: 'no_price', ...(priced.error ? { error: priced.error } : {}) };
      }),
  );
  const { ranked, leftOut } = rankPrices(checks, q.stakeCents);
  const route = routeOf(ranked, leftOut, q.stakeCents);
  const best = ranked[0];
  if (!best) throw new UserFacingError(noBookText(route));
  return {
    bookie: best.bookie,
    sessionId: best.sessionId,
    marketRef: best.marketRef,
    price: best.price,
    route,
    cards,
    ranked,
  };
}

/**
 * /bet with no bookie: the gate (bettor, stake, day's room) runs first (no price check for a bet that would be
 * refused anyway), then the book is chosen and the normal slip is posted there with what the gate read (same claim
 * and confirm path).
 */
export async function postBestPriceSlip(
  ctx: BettingDeps,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction,
  q: { epk: string; market: string; selection: string; stakeCents: number; minOdds?: number },
): Promise<void> {
  const gate = await checkBettable(ctx, interaction, q.stakeCents);
  const fundAccounts = (await ctx.bank.fundAccounts?.(gate.guildId)) ?? null;
  const best = await routeToBestPrice(ctx, { chosen: gate.settings.sessions, ...q, fundAccounts });
  await postSlip(
    ctx,
    interaction,
    {
      epk: q.epk,
      bookie: best.bookie,
      marketRef: best.marketRef,
      stakeCents: q.stakeCents,
      ...(q.minOdds === undefined ? {} : { minOdds: q.minOdds }),
      routed: { sessionId: best.sessionId, live: best.price, route: best.route, cards: best.cards },
    },
    gate,
  );
}
