// Controls that make a watch alert happen on purpose (tests, the playground): a price moved at one book, or a
// steam move across several, landing at the next scrape so the card and a price check agree from then on.

import type { Route } from '../core/http.js';
import { roundPrice } from '../core/money.js';
import { ApiError, ok } from '../core/reply.js';
import { BOOKIES, type Bookie, isBookie, sportNotOffered } from '../world/books.js';
import { findSelection } from '../world/card-view.js';
import { iso } from '../world/dates.js';
import type { SimWorld } from '../world/index.js';
import { optionalNumber, requireInRange, requireString } from './validate.js';

interface Target {
  epk: string;
  market: string;
  selection: string;
}

/** The event, market and selection slug a body names, checked to exist on the book's card. */
function targetAt(world: SimWorld, body: Record<string, unknown>, bookie: Bookie): Target {
  const epk = requireString(body, 'epk');
  const market = requireString(body, 'market');
  const selection = requireString(body, 'selection');
  const ev = world.findEvent(epk);
  if (!ev) throw new ApiError(404, { detail: `Unknown event '${epk}': send an event_id from GET /odds/v1/events` });
  if (!findSelection(world.card(ev, bookie), market, selection)) {
    throw new ApiError(404, {
      detail: `${bookie} lists no selection '${selection}' in market '${market}' of '${epk}': send a slug from its card`,
      field: 'selection',
    });
  }
  return { epk, market, selection };
}

function bookieOf(value: unknown, field: string): Bookie {
  if (!isBookie(value)) {
    throw new ApiError(400, { detail: `Field '${field}' must name a book (${BOOKIES.join(', ')})`, field });
  }
  return value;
}

export const watchControlRoutes: Route[] = [
  {
    // {bookie, epk, market, selection, price}: the selection's price at that book is `price` from the next scrape.
    method: 'POST',
    path: '/_sandbox/world/price',
    auth: 'none',
    handler: ({ sb, body }) => {
      const bookie = bookieOf(body.bookie, 'bookie');
      const target = targetAt(sb.world, body, bookie);
      // Its card shows no row of a sport the book takes no bets on (unless the unofferedCards fault shows them): a move
      // there could never reach an alert.
      const notOffered = sportNotOffered(bookie, sb.world.findEvent(target.epk)!.sport);
      if (notOffered && !sb.faults.config.unofferedCards) {
        throw new ApiError(409, {
          detail: `${notOffered.replace(/^not_offered: /, '')}: its card shows nothing to bet on '${target.epk}'; move the price at a book that takes the bet`,
          field: 'bookie',
        });
      }
      // Or {..., factor} instead of price: the price multiplied at the next scrape (the playground's button).
      const factor =
        body.price === undefined && body.factor !== undefined
          ? requireInRange(body, 'factor', { min: 0.2, max: 5 })
          : undefined;
      const move =
        factor === undefined
          ? sb.world.scheduleMove({
              ...target,
              bookie,
              factor: 1,
              price: roundPrice(requireInRange(body, 'price', { min: 1.01, max: 1001 })),
            })
          : sb.world.scheduleMove({ ...target, bookie, factor });
      const sel = findSelection(
        sb.world.card(sb.world.findEvent(target.epk)!, bookie),
        target.market,
        target.selection,
      )!.selection;
      const price = move.price ?? sb.world.livePrice(bookie, target.epk, target.market, sel, move.atMs);
      return ok({ move: { bookie, ...target, price, scrape_at: iso(move.atMs) } });
    },
  },
  {
    // {epk, market, selection, factor, books?}: every book named (default: every book listing it) moves the same way at the next
    // scrape: a steam move. factor < 1 shortens the price (money came in), > 1 lengthens it.
    method: 'POST',
    path: '/_sandbox/world/steam',
    auth: 'none',
    handler: ({ sb, body }) => {
      const factor = requireInRange(body, 'factor', { min: 0.2, max: 5 });
      if (factor === 1)
        throw new ApiError(400, { detail: "Field 'factor' must not be 1: a steam move moves", field: 'factor' });
      let targets: (Target & { bookie: Bookie })[];
      if (body.books === undefined) {
        // No books named: every book whose card lists the selection (books carry different markets).
        targets = BOOKIES.flatMap((bookie) => {
          try {
            return [{ bookie, ...targetAt(sb.world, body, bookie) }];
          } catch (err) {
            if (err instanceof ApiError && err.status === 404 && sb.world.findEvent(String(body.epk))) return [];
            throw err;
          }
        });
        if (targets.length < 2) {
          throw new ApiError(409, {
            detail: `${targets.length === 1 ? 'Only one book lists' : 'No book lists'} that selection: a steam move needs two; pick a selection two books price`,
          });
        }
      } else {
        const named = body.books;
        if (!Array.isArray(named) || named.length < 2) {
          throw new ApiError(400, { detail: "Field 'books' must list at least two books", field: 'books' });
        }
        const books = [...new Set(named.map((b) => bookieOf(b, 'books')))];
        targets = books.map((bookie) => ({ bookie, ...targetAt(sb.world, body, bookie) }));
      }
      const spreadMs = Math.max(0, optionalNumber(body, 'spread_ms') ?? 0);
      // Each later book moves spreadMs after the one before (still inside the steam window the watch uses).
      const moves = targets.map((t, i) => {
        const move = sb.world.scheduleMove({ ...t, factor });
        move.atMs += i * spreadMs;
        return move;
      });
      return ok({
        steam: {
          factor,
          epk: targets[0]!.epk,
          market: targets[0]!.market,
          selection: targets[0]!.selection,
          books: moves.map((m) => ({ bookie: m.bookie, at: iso(m.atMs) })),
        },
      });
    },
  },
];
